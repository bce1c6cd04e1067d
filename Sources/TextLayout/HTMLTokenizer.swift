/// Splits HTML/XHTML bytes into text, start tags and end tags for `HTMLTreeBuilder`.
/// Comments, DOCTYPEs (with any internal subset), processing instructions, script and
/// style content are skipped; CDATA sections are text. Never fails: anything that is not
/// markup is text.
struct HTMLTokenizer {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    /// Attributes worth keeping; everything else is skipped without allocating.
    static let keptAttributes: Set<String> = [
        "id", "name", "href", "src", "alt", "title", "hidden", "aria-hidden", "style",
        "xlink:href", "data-src", "colspan", "epub:type", "role", "type", "start",
    ]
    /// Elements whose content is skipped up to their end tag.
    static let skippedContent: Set<String> = [
        "script", "style", "template", "noembed", "noframes", "iframe", "xmp",
    ]

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A UTF-8 byte order mark is not text.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    mutating func run(into builder: inout HTMLTreeBuilder) {
        let n = bytes.count
        var textStart = position
        while position < n {
            guard bytes[position] == UInt8(ascii: "<") else {
                position += 1
                continue
            }
            let markupStart = position
            guard position + 1 < n else { break }
            let next = bytes[position + 1]
            if isASCIILetter(next) {
                flushText(textStart..<markupStart, into: &builder)
                readStartTag(into: &builder)
                textStart = position
            } else if next == UInt8(ascii: "/") {
                flushText(textStart..<markupStart, into: &builder)
                readEndTag(into: &builder)
                textStart = position
            } else if next == UInt8(ascii: "!") {
                flushText(textStart..<markupStart, into: &builder)
                if let cdata = readDeclaration(), !cdata.isEmpty { builder.text(cdata) }
                textStart = position
            } else if next == UInt8(ascii: "?") {
                flushText(textStart..<markupStart, into: &builder)
                skip(past: UInt8(ascii: ">"))
                textStart = position
            } else {
                position += 1  // a lone `<` is text
            }
        }
        flushText(textStart..<n, into: &builder)
    }

    /// Decodes a run of text (entities; whitespace collapsed unless inside `<pre>`) and
    /// hands it to the builder, noting whether the sanitizer will have work to do.
    private mutating func flushText(_ range: Range<Int>, into builder: inout HTMLTreeBuilder) {
        guard !range.isEmpty else { return }
        let collapse = !builder.preservesWhitespace
        var suspicious = false
        let bytes = self.bytes
        // Decoded text is at most a fifth longer than its source: every reference takes at
        // least as many bytes as what it stands for, except `&nGt;` and `&nLt;` (5 → 6).
        let text = String(unsafeUninitializedCapacity: range.count + range.count / 5) { out in
            var count = 0
            var lastWasSpace = false
            var previous: UInt8 = 0
            var beforePrevious: UInt8 = 0
            var index = range.lowerBound
            let end = range.upperBound
            while index < end {
                let byte = bytes[index]
                if collapse && (byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C) {
                    if !lastWasSpace {
                        out[count] = 0x20
                        count += 1
                        lastWasSpace = true
                    }
                    index += 1
                    continue
                }
                switch byte {
                case UInt8(ascii: "&"):
                    if let (characters, next) = HTMLEntities.reference(bytes, at: index, end: end),
                       count + characters.utf8.count <= out.count {
                        if characters.unicodeScalars.contains(where: { Sanitizer.isSuspicious($0.value) }) { suspicious = true }
                        for unit in characters.utf8 {
                            out[count] = unit
                            count += 1
                        }
                        lastWasSpace = false
                        previous = 0
                        index = next
                        continue
                    }
                case 0x00..<0x20, 0x7F:
                    suspicious = true
                case 0x80...:
                    switch (beforePrevious, previous, byte) {
                    case (_, 0xC2, 0x80...0x9F), (0xE2, 0x80, 0xA8...0xAE), (0xE2, 0x81, 0xA6...0xA9),
                         (0xEF, 0xBB, 0xBF), (0xEF, 0xBF, 0xB9...0xBF):
                        suspicious = true
                    default:
                        break
                    }
                default:
                    break
                }
                out[count] = byte
                count += 1
                lastWasSpace = false
                beforePrevious = previous
                previous = byte
                index += 1
            }
            return count
        }
        guard !text.isEmpty else { return }
        builder.text(text, collapsed: collapse, needsCleaning: suspicious)
    }

    // MARK: Tags

    private mutating func readStartTag(into builder: inout HTMLTreeBuilder) {
        position += 1
        let name = readName()
        var attributes: [String: String] = [:]
        var selfClosing = false
        let n = bytes.count
        while position < n {
            skipWhitespace()
            guard position < n else { break }
            let b = bytes[position]
            if b == UInt8(ascii: ">") {
                position += 1
                break
            }
            if b == UInt8(ascii: "/") {
                position += 1
                if position < n, bytes[position] == UInt8(ascii: ">") {
                    selfClosing = true
                    position += 1
                    break
                }
                continue
            }
            readAttribute(into: &attributes)
        }
        if position >= n && (n == 0 || bytes[n - 1] != UInt8(ascii: ">")) {
            return  // a tag cut off by the end of the document is dropped
        }
        if name == "title" && !selfClosing {
            let content = rawContent(until: "title")
            var decoded = ""
            HTMLEntities.decode(bytes, content, into: &decoded)
            builder.titleText(decoded)
            return
        }
        if Self.skippedContent.contains(name) && !selfClosing {
            _ = rawContent(until: name)
            return
        }
        builder.startTag(name, attributes: attributes, selfClosing: selfClosing)
        if name == "textarea" && !selfClosing {
            let content = rawContent(until: name)
            var decoded = ""
            HTMLEntities.decode(bytes, content, into: &decoded)
            builder.text(decoded)
            builder.endTag(name)
        }
    }

    private mutating func readEndTag(into builder: inout HTMLTreeBuilder) {
        position += 2
        let n = bytes.count
        guard position < n else { return }
        if isASCIILetter(bytes[position]) {
            let name = readName()
            skip(past: UInt8(ascii: ">"))
            builder.endTag(name)
        } else {
            skip(past: UInt8(ascii: ">"))  // `</>` or a bogus comment
        }
    }

    /// A lower-cased tag name without its namespace prefix.
    private mutating func readName() -> String {
        let start = position
        var colon = -1
        let n = bytes.count
        while position < n {
            let b = bytes[position]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D || b == UInt8(ascii: "/")
                || b == UInt8(ascii: ">") {
                break
            }
            if b == UInt8(ascii: ":") { colon = position }
            position += 1
        }
        let nameStart = colon >= 0 ? colon + 1 : start
        return lowercasedASCII(nameStart..<position)
    }

    private mutating func readAttribute(into attributes: inout [String: String]) {
        let n = bytes.count
        let start = position
        while position < n {
            let b = bytes[position]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D || b == UInt8(ascii: "/")
                || b == UInt8(ascii: ">") || (b == UInt8(ascii: "=") && position > start) {
                break
            }
            position += 1
        }
        let nameRange = start..<position
        skipWhitespace()
        var valueRange: Range<Int>?
        if position < n, bytes[position] == UInt8(ascii: "=") {
            position += 1
            skipWhitespace()
            if position < n, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") {
                let quote = bytes[position]
                position += 1
                let valueStart = position
                while position < n, bytes[position] != quote { position += 1 }
                valueRange = valueStart..<position
                if position < n { position += 1 }
            } else {
                let valueStart = position
                while position < n {
                    let b = bytes[position]
                    if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D || b == UInt8(ascii: ">") { break }
                    position += 1
                }
                valueRange = valueStart..<position
            }
        }
        guard !nameRange.isEmpty, nameRange.count <= 16 else { return }
        let name = lowercasedASCII(nameRange)
        guard Self.keptAttributes.contains(name), attributes[name] == nil else { return }
        var value = ""
        if let valueRange { HTMLEntities.decode(bytes, valueRange, into: &value) }
        attributes[name] = value
    }

    // MARK: Declarations, comments, raw text

    /// After `<!`: a comment, a CDATA section (returned as text), or a DOCTYPE or other
    /// declaration, skipped with its internal subset — declared entities are never read.
    private mutating func readDeclaration() -> String? {
        let n = bytes.count
        if matches("<!--", at: position) {
            position += 4
            // `<!-->` and `<!--->` are complete (empty) comments.
            if matches(">", at: position) { position += 1; return nil }
            if matches("->", at: position) { position += 2; return nil }
            while position < n {
                if matches("-->", at: position) {
                    position += 3
                    return nil
                }
                if matches("--!>", at: position) {
                    position += 4
                    return nil
                }
                position += 1
            }
            return nil
        }
        if matches("<![CDATA[", at: position) {
            position += 9
            let start = position
            while position < n, !matches("]]>", at: position) { position += 1 }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            position = min(n, position + 3)
            return text
        }
        // DOCTYPE or another declaration: skip to the `>` outside quotes and brackets.
        position += 2
        var depth = 0
        var quote: UInt8 = 0
        while position < n {
            let b = bytes[position]
            position += 1
            if quote != 0 {
                if b == quote { quote = 0 }
                continue
            }
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                quote = b
            case UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "]"):
                depth = max(0, depth - 1)
            case UInt8(ascii: ">") where depth == 0:
                return nil
            default:
                break
            }
        }
        return nil
    }

    /// The bytes up to `</name` (case-insensitive); the position moves past its `>`.
    private mutating func rawContent(until name: String) -> Range<Int> {
        let n = bytes.count
        let start = position
        let nameBytes = Array(name.utf8)
        while position < n {
            if bytes[position] == UInt8(ascii: "<"), position + 1 < n, bytes[position + 1] == UInt8(ascii: "/"),
               position + 2 + nameBytes.count <= n {
                var same = true
                for (offset, expected) in nameBytes.enumerated()
                where bytes[position + 2 + offset] | 0x20 != expected {
                    same = false
                    break
                }
                let after = position + 2 + nameBytes.count
                if same && (after == n || !isASCIILetter(bytes[after])) {
                    let end = position
                    position = after
                    skip(past: UInt8(ascii: ">"))
                    return start..<end
                }
            }
            position += 1
        }
        return start..<n
    }

    // MARK: Bytes

    private mutating func skip(past byte: UInt8) {
        let n = bytes.count
        while position < n, bytes[position] != byte { position += 1 }
        if position < n { position += 1 }
    }

    private mutating func skipWhitespace() {
        let n = bytes.count
        while position < n {
            let b = bytes[position]
            guard b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D else { return }
            position += 1
        }
    }

    private func matches(_ literal: StaticString, at index: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] {
            return false
        }
        return true
    }

    private func isASCIILetter(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
    }

    private func lowercasedASCII(_ range: Range<Int>) -> String {
        if !range.contains(where: { bytes[$0] >= 0x41 && bytes[$0] <= 0x5A }) {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        var out = [UInt8]()
        out.reserveCapacity(range.count)
        for index in range {
            let b = bytes[index]
            out.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
