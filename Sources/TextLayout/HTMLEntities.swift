import Markup

/// Character references in articles: named ones from HTML5's complete table (the one feeds
/// use too, in Markup), numeric ones as browsers read them. Declared entities
/// (`<!ENTITY …>` in a DOCTYPE) are never read, so an unknown name stays in the text as written.
enum HTMLEntities {
    /// The text `&name;` stands for.
    static func named(_ name: String) -> String? { HTMLNamedCharacters.characters(named: name) }

    /// Names read without the closing semicolon: the common few, not HTML5's 106, so that
    /// `&notice` or `&ampx` in an article stay as written.
    static let legacyWithoutSemicolon: Set<String> = [
        "amp", "lt", "gt", "quot", "nbsp", "copy", "reg", "eacute", "egrave", "aacute",
    ]

    /// Windows-1252 meanings of the C1 numeric references (`&#150;` is an en dash),
    /// as browsers read them.
    static let windows1252: [UInt32: UInt32] = [
        0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020,
        0x87: 0x2021, 0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152,
        0x8E: 0x017D, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022,
        0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC, 0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A,
        0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
    ]

    /// The scalar a numeric reference stands for; invalid ones become U+FFFD.
    static func numeric(_ value: UInt32) -> Unicode.Scalar {
        if let mapped = windows1252[value], let scalar = Unicode.Scalar(mapped) { return scalar }
        if value == 0 || value > 0x10FFFF { return "\u{FFFD}" }
        return Unicode.Scalar(value) ?? "\u{FFFD}"  // surrogates are not scalars
    }

    /// Decodes character references in `bytes[range]` and appends the text to `out`.
    /// Unknown or malformed references stay as written.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout String) {
        var i = range.lowerBound
        let end = range.upperBound
        var runStart = i
        while i < end {
            guard bytes[i] == UInt8(ascii: "&") else {
                i += 1
                continue
            }
            guard let (characters, next) = reference(bytes, at: i, end: end) else {
                i += 1
                continue
            }
            if runStart < i { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<i]), as: UTF8.self) }
            out += characters
            i = next
            runStart = i
        }
        if runStart < end { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self) }
    }

    /// Decodes `text`'s character references.
    static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var copy = text
        return copy.withUTF8 { buffer in
            var out = ""
            decode(buffer, 0..<buffer.count, into: &out)
            return out
        }
    }

    /// The text of the reference starting at `bytes[start]` (an `&`), and the index after it.
    static func reference(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> (String, Int)? {
        var i = start + 1
        guard i < end else { return nil }
        if bytes[i] == UInt8(ascii: "#") {
            i += 1
            var hex = false
            if i < end, bytes[i] | 0x20 == UInt8(ascii: "x") {
                hex = true
                i += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while i < end {
                let b = bytes[i]
                let digit: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(b - UInt8(ascii: "A") + 10)
                default: digit = 99
                }
                if digit == 99 { break }
                // Saturate instead of overflowing: anything this large is invalid anyway.
                value = value > 0x10FFFF ? value : value * (hex ? 16 : 10) + digit
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if i < end, bytes[i] == UInt8(ascii: ";") { i += 1 }
            return (String(numeric(value)), i)
        }
        let nameStart = i
        while i < end, i - nameStart < 32 {
            let b = bytes[i]
            let isAlnum = (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A)
            if !isAlnum { break }
            i += 1
        }
        guard i > nameStart else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<i]), as: UTF8.self)
        guard let characters = named(name) else { return nil }
        if i < end, bytes[i] == UInt8(ascii: ";") { return (characters, i + 1) }
        return legacyWithoutSemicolon.contains(name) ? (characters, i) : nil
    }
}
