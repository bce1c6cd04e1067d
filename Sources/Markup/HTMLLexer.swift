import Foundation

/// The one HTML lexer: splits HTML or XHTML bytes into text, start tags, end tags and CDATA
/// sections, as ranges of the input (nothing is copied or decoded; `CharacterReferences`
/// decodes what a reader keeps). Comments, DOCTYPEs (with any internal subset, whose
/// declared entities are never read) and processing instructions are skipped. Never fails:
/// anything that is not markup is text, and a tag cut off by the end of the input is
/// dropped. The reader decides which elements hold raw text (`script`, `style`, `title`)
/// and asks for it with `rawText(until:)`.
public struct HTMLLexer {
    public enum Token: Equatable {
        /// Text, references not yet decoded.
        case text(Range<Int>)
        case startTag(Tag)
        /// An end tag's name as written (`</P>` gives `P`).
        case endTag(name: Range<Int>)
        /// The inside of `<![CDATA[…]]>`: text as written.
        case cdata(Range<Int>)
    }

    /// A start tag: its name as written and the span of its attributes (`attributes(of:)`
    /// reads them).
    public struct Tag: Equatable {
        public let name: Range<Int>
        public let attributes: Range<Int>
        public let selfClosing: Bool
    }

    public let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next token starts.
    public private(set) var position = 0

    public init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A UTF-8 byte order mark is not text.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    /// Runs `body` with a lexer over `html`'s UTF-8 bytes, valid only inside it.
    public static func reading<Result>(_ html: String, _ body: (inout HTMLLexer) throws -> Result) rethrows -> Result {
        var copy = html
        return try copy.withUTF8 { bytes in
            var lexer = HTMLLexer(bytes: bytes)
            return try body(&lexer)
        }
    }

    /// The text of `html` as one string: references decoded, CDATA as written, the elements
    /// named in `dropping` (lower-case) left out with their content, and `separator` for each
    /// start or end tag that `separates` (a paragraph, a line break).
    public static func text(of html: String, dropping: [StaticString], separator: UInt8,
                            separates: (HTMLLexer, _ name: Range<Int>) -> Bool) -> String {
        reading(html) { lexer in
            var out: [UInt8] = []
            out.reserveCapacity(lexer.bytes.count)
            while let token = lexer.next() {
                switch token {
                case .text(let range):
                    CharacterReferences.decode(lexer.bytes, range, in: .text, into: &out)
                case .cdata(let range):
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: lexer.bytes[range]))
                case .startTag(let tag):
                    if let name = dropping.first(where: { lexer.spells(tag.name, $0) }) {
                        _ = lexer.rawText(until: name.description)
                    } else if separates(lexer, tag.name) {
                        out.append(separator)
                    }
                case .endTag(let name):
                    if separates(lexer, name) { out.append(separator) }
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The next token, or nil at the end.
    public mutating func next() -> Token? {
        let n = bytes.count
        var textStart = position
        while position < n {
            // Text runs to the next `<`, found by memchr rather than byte by byte.
            guard let base = bytes.baseAddress,
                  let found = memchr(base + position, Int32(UInt8(ascii: "<")), n - position) else {
                position = n
                break
            }
            position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let markupStart = position
            guard position + 1 < n else {
                position = n
                break
            }
            let next = bytes[position + 1]
            let isMarkup = Self.isASCIILetter(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
            guard isMarkup else {
                position += 1  // a lone `<` is text
                continue
            }
            if textStart < markupStart {
                // The text before it first; the markup is read on the next call.
                position = markupStart
                return .text(textStart..<markupStart)
            }
            if let token = markup() { return token }
            textStart = position
        }
        return textStart < n ? .text(textStart..<n) : nil
    }

    /// At `<` followed by a letter, `/`, `!` or `?`: the token it starts, or nil when it is
    /// skipped (a comment, a declaration, a cut-off tag).
    mutating func markup() -> Token? {
        let next = bytes[position + 1]
        if Self.isASCIILetter(next) { return startTag() }
        if next == UInt8(ascii: "/") { return endTag() }
        if next == UInt8(ascii: "!") { return declaration() }
        skip(past: UInt8(ascii: ">"))  // `<?…>`
        return nil
    }

    /// The attributes of `tag` in order, as (name, value) ranges; a value is nil when the
    /// attribute has none (`<input disabled>`).
    public func attributes(of tag: Tag, _ body: (_ name: Range<Int>, _ value: Range<Int>?) -> Void) {
        var i = tag.attributes.lowerBound
        let end = tag.attributes.upperBound
        while i < end {
            let b = bytes[i]
            if Self.isSpace(b) || b == UInt8(ascii: "/") {
                i += 1
                continue
            }
            let (name, value, after) = attribute(at: i, end: end)
            body(name, value)
            i = after
        }
    }

    /// The value of the attribute `name` (lower-case ASCII, matched whatever its case).
    public func attribute(_ name: StaticString, of tag: Tag) -> Range<Int>? {
        var found: Range<Int>?
        var seen = false
        attributes(of: tag) { attributeName, value in
            guard !seen, spells(attributeName, name) else { return }
            seen = true
            found = value ?? (attributeName.upperBound..<attributeName.upperBound)
        }
        return found
    }

    /// The bytes up to `</name` (case-insensitive, `name` in lower-case ASCII), the content
    /// of a raw-text element; the position moves past that end tag, or to the end.
    public mutating func rawText(until name: some StringProtocol) -> Range<Int> {
        let n = bytes.count
        let start = position
        let nameBytes = Array(name.utf8)
        while position < n {
            if bytes[position] == UInt8(ascii: "<"), position + 1 < n, bytes[position + 1] == UInt8(ascii: "/"),
               position + 2 + nameBytes.count <= n {
                var same = true
                for (offset, expected) in nameBytes.enumerated() where bytes[position + 2 + offset] | 0x20 != expected {
                    same = false
                    break
                }
                let after = position + 2 + nameBytes.count
                if same && (after == n || !Self.isASCIILetter(bytes[after])) {
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

    // MARK: Text and names

    /// The bytes of `range` as a string, as written.
    public func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The text of `range` with its character references decoded.
    public func decoded(_ range: Range<Int>, in context: CharacterReferences.Context = .text) -> String {
        var out = ""
        CharacterReferences.decode(bytes, range, in: context, into: &out)
        return out
    }

    /// The bytes of `range` as a string, ASCII letters lower-cased.
    public func lowercased(_ range: Range<Int>) -> String {
        if !range.contains(where: { bytes[$0] >= 0x41 && bytes[$0] <= 0x5A }) {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: range.count) { out in
            for (offset, index) in range.enumerated() {
                let b = bytes[index]
                out[offset] = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
            }
            return range.count
        }
    }

    /// A tag name without its namespace prefix (`epub:switch` is `switch`).
    public func localName(_ range: Range<Int>) -> Range<Int> {
        guard let colon = range.last(where: { bytes[$0] == UInt8(ascii: ":") }) else { return range }
        return (colon + 1)..<range.upperBound
    }

    /// Whether `range` spells `name` (lower-case ASCII), whatever its case.
    public func spells(_ range: Range<Int>, _ name: StaticString) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        let p = name.utf8Start
        for k in 0..<range.count where bytes[range.lowerBound + k] | 0x20 != p[k] | 0x20 { return false }
        return true
    }

    // MARK: Tags

    mutating func startTag() -> Token? {
        let n = bytes.count
        position += 1
        let nameStart = position
        while position < n, !Self.endsName(bytes[position]) { position += 1 }
        let name = nameStart..<position
        let attributesStart = position
        var attributesEnd = position
        var selfClosing = false
        var closed = false
        while position < n {
            let b = bytes[position]
            if Self.isSpace(b) {
                position += 1
                continue
            }
            if b == UInt8(ascii: ">") {
                attributesEnd = position
                position += 1
                closed = true
                break
            }
            if b == UInt8(ascii: "/") {
                position += 1
                if position < n, bytes[position] == UInt8(ascii: ">") {
                    attributesEnd = position - 1
                    selfClosing = true
                    position += 1
                    closed = true
                    break
                }
                continue
            }
            position = attribute(at: position, end: n).after
        }
        guard closed else { return nil }  // a tag cut off by the end of the input is dropped
        return .startTag(Tag(name: name, attributes: attributesStart..<attributesEnd, selfClosing: selfClosing))
    }

    /// The attribute at `start`: its name, its value (nil if it has none) and the index after it.
    func attribute(at start: Int, end: Int) -> (name: Range<Int>, value: Range<Int>?, after: Int) {
        var i = start
        while i < end {
            let b = bytes[i]
            if Self.isSpace(b) || b == UInt8(ascii: "/") || b == UInt8(ascii: ">") || (b == UInt8(ascii: "=") && i > start) { break }
            i += 1
        }
        let name = start..<i
        var k = i
        while k < end, Self.isSpace(bytes[k]) { k += 1 }
        guard k < end, bytes[k] == UInt8(ascii: "=") else { return (name, nil, i) }
        k += 1
        while k < end, Self.isSpace(bytes[k]) { k += 1 }
        if k < end, bytes[k] == UInt8(ascii: "\"") || bytes[k] == UInt8(ascii: "'") {
            let quote = bytes[k]
            let valueStart = k + 1
            var valueEnd = valueStart
            while valueEnd < end, bytes[valueEnd] != quote { valueEnd += 1 }
            return (name, valueStart..<valueEnd, min(valueEnd + 1, end))
        }
        let valueStart = k
        while k < end, !Self.isSpace(bytes[k]), bytes[k] != UInt8(ascii: ">") { k += 1 }
        return (name, valueStart..<k, k)
    }

    mutating func endTag() -> Token? {
        position += 2
        let n = bytes.count
        guard position < n, Self.isASCIILetter(bytes[position]) else {
            skip(past: UInt8(ascii: ">"))  // `</>` or a bogus comment
            return nil
        }
        let nameStart = position
        while position < n, !Self.endsName(bytes[position]) { position += 1 }
        let name = nameStart..<position
        while position < n, bytes[position] != UInt8(ascii: ">") { position += 1 }
        guard position < n else { return nil }  // cut off
        position += 1
        return .endTag(name: name)
    }

    // MARK: Declarations and comments

    /// After `<!`: a comment, a CDATA section (its text), or a DOCTYPE or other declaration,
    /// skipped with its internal subset.
    mutating func declaration() -> Token? {
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
            let text = start..<position
            position = min(n, position + 3)
            return text.isEmpty ? nil : .cdata(text)
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
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = b
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth = max(0, depth - 1)
            case UInt8(ascii: ">") where depth == 0: return nil
            default: break
            }
        }
        return nil
    }

    // MARK: Bytes

    mutating func skip(past byte: UInt8) {
        let n = bytes.count
        while position < n, bytes[position] != byte { position += 1 }
        if position < n { position += 1 }
    }

    func matches(_ literal: StaticString, at index: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    static func isASCIILetter(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
    }

    public static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
    }

    static func endsName(_ b: UInt8) -> Bool {
        isSpace(b) || b == UInt8(ascii: "/") || b == UInt8(ascii: ">")
    }
}
