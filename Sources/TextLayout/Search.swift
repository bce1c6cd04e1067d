#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One occurrence of a query in laid-out lines: the line's index, the display column where
/// it starts (counting the indent) and its width in columns.
public struct SearchMatch: Hashable, Sendable {
    public var line: Int
    public var column: Int
    public var length: Int

    public init(line: Int, column: Int, length: Int) {
        self.line = line
        self.column = column
        self.length = length
    }
}

/// Finds text in laid-out lines.
public enum Search {
    /// Every case-insensitive occurrence of `query` within a line, as the line's index,
    /// the display column where it starts (counting the indent) and its width in columns.
    /// Occurrences never span two lines; a no-break space matches a space.
    public static func matches(of query: String, in lines: [LayoutLine]) -> [(line: Int, column: Int, length: Int)] {
        SearchIndex(lines: lines).matches(of: query).map { ($0.line, $0.column, $0.length) }
    }

    /// Whether a document's text may hold `query`, case-insensitively: a quick test before
    /// a document is laid out to be searched. Never false when `matches` would find it.
    public static func mayContain(_ document: TextDocument, _ query: String) -> Bool {
        let needle = query.map(fold).joined()
        guard !needle.isEmpty else { return false }
        guard isASCII(query) else {
            let text = document.blocks.map(\.plainText).joined(separator: "\n").lowercased()
            return String(text.map { $0 == "\u{A0}" ? " " : $0 }).contains(needle)
        }
        var bytes: [UInt8] = []
        for block in document.blocks {
            appendASCIIFolded(block.plainText, to: &bytes)
            bytes.append(0x0A)
        }
        let key = Array(needle.utf8)
        return bytes.withUnsafeBytes { haystack in
            key.withUnsafeBytes { wanted in find(wanted, in: haystack, from: 0) != nil }
        }
    }

    static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    /// UTF-8 of `text` folded for finding ASCII queries without lower-casing the whole text
    /// (slow for non-ASCII text): A–Z to a–z, and the few characters whose folded form is
    /// ASCII to it — a no-break space to a space, the Kelvin sign to k, the Greek question
    /// mark to `;`, the Greek varia to a grave accent. Other bytes stay; a byte match is then
    /// confirmed character by character.
    static func appendASCIIFolded(_ text: String, to bytes: inout [UInt8]) {
        let utf8 = text.utf8
        bytes.reserveCapacity(bytes.count + utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            switch byte {
            case 0x41...0x5A:
                bytes.append(byte + 0x20)
            case 0xC2, 0xCD, 0xE1, 0xE2:
                let second = index != utf8.endIndex ? utf8[index] : 0
                let thirdIndex = index != utf8.endIndex ? utf8.index(after: index) : index
                let third = thirdIndex != utf8.endIndex ? utf8[thirdIndex] : 0
                if byte == 0xC2 && second == 0xA0 {
                    bytes.append(0x20); index = thirdIndex
                } else if byte == 0xCD && second == 0xBE {
                    bytes.append(0x3B); index = thirdIndex
                } else if byte == 0xE1 && second == 0xBF && third == 0xAF {
                    bytes.append(0x60); index = utf8.index(after: thirdIndex)
                } else if byte == 0xE2 && second == 0x84 && third == 0xAA {
                    bytes.append(0x6B); index = utf8.index(after: thirdIndex)
                } else {
                    bytes.append(byte)
                }
            default:
                bytes.append(byte)
            }
        }
    }

    /// Where `needle` first occurs in `haystack` at or after `start` (memchr for its first
    /// byte, memcmp for the rest; glibc's memmem is not visible to Swift).
    static func find(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = haystack.baseAddress, let key = needle.baseAddress, needle.count > 0 else { return nil }
        let first = Int32(needle[0])
        var offset = start
        while offset + needle.count <= haystack.count {
            guard let hit = memchr(base + offset, first, haystack.count - offset - needle.count + 1) else { return nil }
            let position = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + position, key, needle.count) == 0 { return position }
            offset = position + 1
        }
        return nil
    }

    static func fold(_ character: Character) -> String {
        if character == "\u{A0}" { return " " }
        return character.lowercased()
    }
}

/// Lines folded to lower case once, then searched for as many queries as asked.
///
/// The text of all lines is one byte buffer, folded for ASCII (`appendASCIIFolded`); a query
/// made of ASCII characters is found there byte by byte, and only the lines it hits are
/// compared character by character (canonical equivalence, display columns). Other queries
/// compare each line's lower-cased text as characters.
public struct SearchIndex: Sendable {
    private let lines: [LayoutLine]
    private let bytes: [UInt8]
    /// Where each line's folded bytes start in `bytes`.
    private let starts: [Int]

    public init(lines: [LayoutLine]) {
        self.lines = lines
        var bytes: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(lines.count)
        for line in lines {
            starts.append(bytes.count)
            if case .image = line.kind {} else {
                for span in line.spans { Search.appendASCIIFolded(span.text, to: &bytes) }
            }
            bytes.append(0x0A)
        }
        self.bytes = bytes
        self.starts = starts
    }

    public func matches(of query: String) -> [SearchMatch] {
        let needle = query.map(Search.fold)
        guard !needle.isEmpty, !query.contains("\n") else { return [] }
        var results: [SearchMatch] = []
        if Search.isASCII(query) {
            let key = Array(needle.joined().utf8)
            var lastLine = -1
            bytes.withUnsafeBytes { haystack in
                key.withUnsafeBytes { wanted in
                    var offset = 0
                    while offset < haystack.count, let position = Search.find(wanted, in: haystack, from: offset) {
                        let line = lineIndex(atByte: position)
                        if line != lastLine {
                            lastLine = line
                            matches(needle, inLine: line, into: &results)
                        }
                        // The rest of this line was searched character by character.
                        offset = line + 1 < starts.count ? starts[line + 1] : haystack.count
                    }
                }
            }
        } else {
            // Compared as characters (canonical equivalence: é and e + U+0301 are equal).
            let needleText = needle.joined()
            for index in lines.indices {
                let end = index + 1 < starts.count ? starts[index + 1] - 1 : bytes.count - 1
                let folded = String(decoding: bytes[starts[index]..<max(starts[index], end)], as: UTF8.self).lowercased()
                if folded.contains(needleText) { matches(needle, inLine: index, into: &results) }
            }
        }
        return results
    }

    private func lineIndex(atByte position: Int) -> Int {
        var low = 0, high = starts.count
        while low + 1 < high {
            let middle = (low + high) / 2
            if starts[middle] <= position { low = middle } else { high = middle }
        }
        return low
    }

    /// Occurrences in one line, compared a character at a time, never overlapping.
    private func matches(_ needle: [String], inLine lineIndex: Int, into results: inout [SearchMatch]) {
        let line = lines[lineIndex]
        if case .image = line.kind { return }
        var characters: [String] = []
        var columns: [Int] = []
        var column = line.indent
        for span in line.spans {
            for character in span.text {
                characters.append(Search.fold(character))
                columns.append(column)
                column += DisplayWidth.of(character)
            }
        }
        columns.append(column)
        var start = 0
        while start + needle.count <= characters.count {
            var found = true
            for offset in 0..<needle.count where characters[start + offset] != needle[offset] {
                found = false
                break
            }
            if found {
                let begin = columns[start]
                results.append(SearchMatch(line: lineIndex, column: begin, length: columns[start + needle.count] - begin))
                start += needle.count
            } else {
                start += 1
            }
        }
    }
}
