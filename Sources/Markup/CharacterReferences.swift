import Foundation

/// The one decoder of character references (`&eacute;`, `&#233;`, `&#xE9;`) for every text
/// the project reads: HTML as a browser reads it (HTML5's tokenizer rules) and, for the XML
/// reader, the same names and numbers with XML's stricter spelling. Names come from HTML5's
/// fixed table (`HTMLNamedCharacters`), never from a DTD, so nothing a document declares can
/// add to them; an unknown reference stays as written.
public enum CharacterReferences {
    /// Where a reference is read; HTML5 spells a few things differently in each.
    public enum Context: Sendable {
        /// HTML text: the 106 old names also without their semicolon, even before a letter
        /// (`&copy2026` is "©2026", `&notit;` is "¬it;").
        case text
        /// An HTML attribute value: an old name without its semicolon is decoded only when
        /// no letter, digit or `=` follows (`?a=1&copy=2` in a link stays as written).
        case attribute
        /// XML (feeds): every reference ends with its semicolon, and a number that stands
        /// for a character XML forbids (NUL, C0 controls) becomes U+FFFD.
        case xml
    }

    /// The characters the reference at `bytes[start]` (an `&`) stands for and the index
    /// just after it, or nil when it stands for nothing (the `&` is then text).
    public static func reference(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, in context: Context) -> (characters: String, next: Int)? {
        guard let (decoded, next) = decodedReference(bytes, at: start, end: end, in: context) else { return nil }
        switch decoded {
        case .byte(let byte): return (String(Unicode.Scalar(byte)), next)
        case .scalar(let scalar): return (String(scalar), next)
        case .text(let text): return (text, next)
        }
    }

    /// Appends what the reference at `bytes[start]` (an `&`) stands for to `out` as UTF-8 and
    /// returns the index just after it; nil, with nothing appended, when it stands for nothing.
    /// The XML reader's way: no string is made for `&lt;` or `&#8212;`.
    public static func appendReference(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, in context: Context,
                                       to out: inout [UInt8]) -> Int? {
        guard let (decoded, next) = decodedReference(bytes, at: start, end: end, in: context) else { return nil }
        switch decoded {
        case .byte(let byte):
            out.append(byte)
        case .scalar(let scalar):
            UTF8.encode(scalar) { out.append($0) }
        case .text(var text):
            text.withUTF8 { out.append(contentsOf: $0) }
        }
        return next
    }

    /// Appends `bytes[range]` to `out` with its references decoded, in one pass: what a
    /// reference stands for is never read again, so nothing expands twice.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, in context: Context, into out: inout String) {
        var i = range.lowerBound
        let end = range.upperBound
        var run = i
        while let ampersand = nextAmpersand(bytes, from: i, to: end) {
            i = ampersand
            guard let (characters, next) = reference(bytes, at: i, end: end, in: context) else {
                i += 1
                continue
            }
            if run < i { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[run..<i]), as: UTF8.self) }
            out += characters
            i = next
            run = i
        }
        if run < end { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[run..<end]), as: UTF8.self) }
    }

    /// Appends `bytes[range]` to `out` as UTF-8 with its references decoded, in one pass.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, in context: Context, into out: inout [UInt8]) {
        var i = range.lowerBound
        let end = range.upperBound
        var run = i
        while let ampersand = nextAmpersand(bytes, from: i, to: end) {
            i = ampersand
            if run < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i])) }
            run = i
            guard let next = appendReference(bytes, at: i, end: end, in: context, to: &out) else {
                i += 1
                continue
            }
            i = next
            run = i
        }
        if run < end { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<end])) }
    }

    /// `text` with its references decoded (itself when it has no `&`).
    public static func decode(_ text: String, in context: Context = .text) -> String {
        var copy = text
        return copy.withUTF8 { bytes in
            guard bytes.contains(UInt8(ascii: "&")) else { return text }
            var out = ""
            out.reserveCapacity(bytes.count)
            decode(bytes, 0..<bytes.count, in: context, into: &out)
            return out
        }
    }

    /// Windows-1252's meanings of the C1 numbers (`&#150;` is an en dash), as HTML5 reads them.
    public static let windows1252: [UInt32: UInt32] = [
        0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020,
        0x87: 0x2021, 0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152,
        0x8E: 0x017D, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022,
        0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC, 0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A,
        0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
    ]

    /// The scalar a numeric reference stands for in HTML5: NUL, surrogates and numbers past
    /// Unicode become U+FFFD; C1 numbers mean Windows-1252's characters.
    public static func numeric(_ value: UInt32) -> Unicode.Scalar {
        if value >= 0x80, value <= 0x9F, let mapped = windows1252[value], let scalar = Unicode.Scalar(mapped) { return scalar }
        if value == 0 || value > 0x10FFFF { return "\u{FFFD}" }
        return Unicode.Scalar(value) ?? "\u{FFFD}"  // surrogates are not scalars
    }

    // MARK: Parts

    /// The index of the next `&` in `bytes[from..<to]`: text between references is skipped
    /// by `memchr`, not byte by byte.
    static func nextAmpersand(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.baseAddress, let found = memchr(base + from, Int32(UInt8(ascii: "&")), to - from) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// What a reference stands for, in the cheapest form to hand on.
    enum Decoded {
        /// One of XML's five predefined names.
        case byte(UInt8)
        case scalar(Unicode.Scalar)
        case text(String)
    }

    static func decodedReference(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, in context: Context) -> (Decoded, Int)? {
        let i = start + 1
        guard i < end else { return nil }
        if bytes[i] == UInt8(ascii: "#") { return number(bytes, at: i + 1, end: end, in: context) }
        return name(bytes, at: i, end: end, in: context)
    }

    /// After `&#`: decimal, or hexadecimal after `x`/`X`.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>, at first: Int, end: Int, in context: Context) -> (Decoded, Int)? {
        var i = first
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
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b &- UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(b &- UInt8(ascii: "a") &+ 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(b &- UInt8(ascii: "A") &+ 10)
            default: digit = 99
            }
            if digit == 99 { break }
            // Saturates instead of overflowing: anything this large is past Unicode anyway.
            value = value > 0x10FFFF ? value : value * (hex ? 16 : 10) + digit
            digits += 1
            i += 1
        }
        guard digits > 0 else { return nil }
        let semicolon = i < end && bytes[i] == UInt8(ascii: ";")
        if semicolon {
            i += 1
        } else if context == .xml {
            return nil
        }
        var scalar = numeric(value)
        if context == .xml, scalar.value < 0x20, scalar.value != 0x09, scalar.value != 0x0A, scalar.value != 0x0D {
            scalar = "\u{FFFD}"
        }
        return (.scalar(scalar), i)
    }

    /// After `&`: a name from HTML5's table.
    static func name(_ bytes: UnsafeBufferPointer<UInt8>, at first: Int, end: Int, in context: Context) -> (Decoded, Int)? {
        var i = first
        let limit = min(end, first + HTMLNamedCharacters.longestName + 1)
        while i < limit, isAlphanumeric(bytes[i]) { i += 1 }
        guard i > first else { return nil }
        if i < end, bytes[i] == UInt8(ascii: ";") {
            if let byte = xmlPredefined(bytes, first, i) { return (.byte(byte), i + 1) }
            if let characters = HTMLNamedCharacters.characters(named: UnsafeBufferPointer(rebasing: bytes[first..<i])) {
                return (.text(characters), i + 1)
            }
        }
        if context == .xml { return nil }
        // The longest old name the letters start with, read without a semicolon.
        var length = min(i - first, HTMLNamedCharacters.longestNameWithoutSemicolon)
        while length >= 2 {
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<(first + length)]), as: UTF8.self)
            if HTMLNamedCharacters.withoutSemicolon.contains(name), let characters = HTMLNamedCharacters.table[name] {
                let next = first + length
                if context == .attribute, next < end, isAlphanumeric(bytes[next]) || bytes[next] == UInt8(ascii: "=") { return nil }
                return (.text(characters), next)
            }
            length -= 1
        }
        return nil
    }

    /// `lt gt amp quot apos` without a table look-up: by far the most frequent names.
    static func xmlPredefined(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> UInt8? {
        switch to - from {
        case 2 where bytes[from + 1] == UInt8(ascii: "t"):
            if bytes[from] == UInt8(ascii: "l") { return UInt8(ascii: "<") }
            if bytes[from] == UInt8(ascii: "g") { return UInt8(ascii: ">") }
            return nil
        case 3 where bytes[from] == UInt8(ascii: "a") && bytes[from + 1] == UInt8(ascii: "m") && bytes[from + 2] == UInt8(ascii: "p"):
            return UInt8(ascii: "&")
        case 4 where bytes[from] == UInt8(ascii: "q") && bytes[from + 1] == UInt8(ascii: "u") && bytes[from + 2] == UInt8(ascii: "o") && bytes[from + 3] == UInt8(ascii: "t"):
            return UInt8(ascii: "\"")
        case 4 where bytes[from] == UInt8(ascii: "a") && bytes[from + 1] == UInt8(ascii: "p") && bytes[from + 2] == UInt8(ascii: "o") && bytes[from + 3] == UInt8(ascii: "s"):
            return UInt8(ascii: "'")
        default:
            return nil
        }
    }

    static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A)
    }
}
