import Foundation
import Markup

/// A tolerant HTML tokenizer for feed articles: text (entities decoded), start tags with
/// their attributes (names lower-cased, values decoded) and end tags. Comments, doctypes
/// and processing instructions are skipped; a `<` that starts no tag is text.
struct HTMLTokens {
    enum Token: Equatable {
        case text(String)
        case start(String, [(String, String)], selfClosing: Bool)
        case end(String)

        static func == (a: Token, b: Token) -> Bool {
            switch (a, b) {
            case let (.text(x), .text(y)): return x == y
            case let (.end(x), .end(y)): return x == y
            case let (.start(x, p, c), .start(y, q, d)): return x == y && c == d && p.elementsEqual(q, by: { $0 == $1 })
            default: return false
            }
        }
    }

    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> Token? {
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), let token = tag() { return token }
            if bytes[index] == UInt8(ascii: "<"), index < bytes.count, skippedMarkup() { continue }
            let start = index
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
            return .text(Self.decode(bytes[start..<index]))
        }
        return nil
    }

    /// Skips everything up to the end tag of `name` (raw text for scripts and styles;
    /// nested elements of the same name counted otherwise).
    mutating func skipElement(_ name: String) {
        let raw = ["script", "style", "xmp", "textarea", "title", "noscript", "noembed", "noframes", "iframe"].contains(name)
        var depth = 1
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
            let at = index
            if raw {
                if at + 2 < bytes.count, bytes[at + 1] == UInt8(ascii: "/"), lowercasedName(after: at + 2) == name {
                    _ = tag()
                    return
                }
                index += 1
                continue
            }
            guard let token = tag() else {
                if !skippedMarkup() { index += 1 }
                continue
            }
            switch token {
            case .start(name, _, let selfClosing) where !selfClosing: depth += 1
            case .end(name):
                depth -= 1
                if depth == 0 { return }
            default: break
            }
        }
    }

    /// The raw text of a script or a title up to its end tag, which is consumed.
    mutating func rawText(of name: String) -> String {
        let start = index
        skipElement(name)
        let end = bytes[start..<index].lastIndex(of: UInt8(ascii: "<")) ?? index
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// `<!-- -->`, `<!DOCTYPE …>`, `<?…>`, `<![CDATA[…]]>` (its text kept is not worth the risk): skipped.
    private mutating func skippedMarkup() -> Bool {
        guard index + 1 < bytes.count else { return false }
        let next = bytes[index + 1]
        if next == UInt8(ascii: "!"), index + 3 < bytes.count, bytes[index + 2] == UInt8(ascii: "-"), bytes[index + 3] == UInt8(ascii: "-") {
            index = find(Array("-->".utf8), from: index + 4).map { $0 + 3 } ?? bytes.count
            return true
        }
        if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
            index = find([UInt8(ascii: ">")], from: index + 2).map { $0 + 1 } ?? bytes.count
            return true
        }
        return false
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var i = start
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], Array(bytes[i..<i + needle.count]) == needle { return i }
            i += 1
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_")
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C }

    private func lowercasedName(after start: Int) -> String {
        var end = start
        while end < bytes.count, Self.isNameByte(bytes[end]) { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
    }

    /// A start or end tag at `index` (a letter follows `<` or `</`), consumed; else nil.
    private mutating func tag() -> Token? {
        var i = index + 1
        var closing = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "/") { closing = true; i += 1 }
        guard i < bytes.count, (bytes[i] | 0x20) >= 0x61, (bytes[i] | 0x20) <= 0x7A else { return nil }
        let name = lowercasedName(after: i)
        i += name.utf8.count
        var attributes: [(String, String)] = []
        var selfClosing = false
        while i < bytes.count, bytes[i] != UInt8(ascii: ">") {
            if Self.isSpace(bytes[i]) { i += 1; continue }
            if bytes[i] == UInt8(ascii: "/") { selfClosing = true; i += 1; continue }
            selfClosing = false
            let nameStart = i
            while i < bytes.count, !Self.isSpace(bytes[i]), bytes[i] != UInt8(ascii: "="), bytes[i] != UInt8(ascii: ">"),
                  !(bytes[i] == UInt8(ascii: "/") && i > nameStart) { i += 1 }
            if i == nameStart { i += 1; continue }
            let attributeName = String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased()
            while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
            var value = ""
            if i < bytes.count, bytes[i] == UInt8(ascii: "=") {
                i += 1
                while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
                if i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                    let quote = bytes[i]
                    let valueStart = i + 1
                    i = valueStart
                    while i < bytes.count, bytes[i] != quote { i += 1 }
                    value = Self.decode(bytes[valueStart..<min(i, bytes.count)])
                    i += 1
                } else {
                    let valueStart = i
                    while i < bytes.count, !Self.isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">") { i += 1 }
                    value = Self.decode(bytes[valueStart..<i])
                }
            }
            if !attributes.contains(where: { $0.0 == attributeName }) { attributes.append((attributeName, value)) }
        }
        index = min(i + 1, bytes.count)
        return closing ? .end(name) : .start(name, attributes, selfClosing: selfClosing)
    }

    /// Text with character references decoded: named ones from HTML5's table (with their
    /// semicolon), decimal and hexadecimal ones; a reference to a character XML refuses,
    /// or to none, is U+FFFD.
    static func decode(_ slice: ArraySlice<UInt8>) -> String {
        guard slice.contains(UInt8(ascii: "&")) else { return String(decoding: slice, as: UTF8.self) }
        var out = [UInt8]()
        out.reserveCapacity(slice.count)
        var i = slice.startIndex
        while i < slice.endIndex {
            guard slice[i] == UInt8(ascii: "&"),
                  let semicolon = slice[i..<min(slice.endIndex, i + HTMLNamedCharacters.longestName + 3)].firstIndex(of: UInt8(ascii: ";")),
                  semicolon > i + 1 else {
                out.append(slice[i])
                i += 1
                continue
            }
            let body = slice[(i + 1)..<semicolon]
            if body.first == UInt8(ascii: "#") {
                let digits = body.dropFirst()
                let hex = digits.first == UInt8(ascii: "x") || digits.first == UInt8(ascii: "X")
                let number = UInt32(String(decoding: hex ? digits.dropFirst() : digits, as: UTF8.self), radix: hex ? 16 : 10)
                let scalar = number.flatMap(Unicode.Scalar.init).flatMap { ArticleHTML.isXMLCharacter($0) ? $0 : nil } ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            } else if let named = HTMLNamedCharacters.characters(named: body) {
                out.append(contentsOf: Array(named.utf8))
            } else {
                out.append(contentsOf: slice[i...semicolon])
            }
            i = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
