import Foundation

/// Turns the bytes of an XML document into UTF-8 text, whatever it was written in: a BOM
/// (UTF-8, UTF-16), UTF-16 without one, or the encoding its `<?xml encoding=...?>` declares.
/// Invalid sequences become U+FFFD; nothing here fails.
enum TextDecoding {
    struct Decoded {
        var text: String
        var warnings: [String]
    }

    static func decode(_ data: Data) -> Decoded {
        // UTF-32 first: its little-endian BOM begins like UTF-16's.
        if data.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return utf32(data.dropFirst(4), bigEndian: false) }
        if data.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return utf32(data.dropFirst(4), bigEndian: true) }
        if data.starts(with: [0x3C, 0x00, 0x00, 0x00]) { return utf32(data, bigEndian: false) }
        if data.starts(with: [0x00, 0x00, 0x00, 0x3C]) { return utf32(data, bigEndian: true) }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return utf8(data.dropFirst(3)) }
        if data.starts(with: [0xFF, 0xFE]) { return utf16([UInt8](data.dropFirst(2))[...], bigEndian: false) }
        if data.starts(with: [0xFE, 0xFF]) { return utf16([UInt8](data.dropFirst(2))[...], bigEndian: true) }
        if data.starts(with: [0x3C, 0x00]) { return utf16([UInt8](data)[...], bigEndian: false) }
        if data.starts(with: [0x00, 0x3C]) { return utf16([UInt8](data)[...], bigEndian: true) }

        let label = declaredEncoding([UInt8](data.prefix(512))) ?? "utf-8"
        switch label {
        case "utf-8", "utf8", "us-ascii", "ascii", "utf-16", "utf16":
            // A UTF-16 declaration on bytes that are plainly ASCII-compatible is a lie; read UTF-8.
            return utf8(data)
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1",
             "windows-1252", "cp1252", "x-cp1252":
            // As browsers do, ISO-8859-1 is read as its superset Windows-1252.
            return Decoded(text: singleByte(data, high: CharacterReferences.windows1252), warnings: [])
        case "iso-8859-15", "iso8859-15", "iso_8859-15", "latin9", "latin-9", "l9":
            return Decoded(text: singleByte(data, high: latin9), warnings: [])
        default:
            if let encoding = foundationEncodings[label], let text = String(data: data, encoding: encoding) {
                return Decoded(text: text, warnings: [])
            }
            var decoded = utf8(data)
            decoded.warnings.insert("encoding \"\(label)\" is not supported; read as UTF-8", at: 0)
            return decoded
        }
    }

    /// When the document is UTF-8 (a BOM, a UTF-8 or ASCII declaration, or none), how many
    /// bytes to skip and what to warn about; the reader then works on the bytes as they are,
    /// and each string it makes replaces invalid sequences (they never straddle markup,
    /// which is ASCII). Nil for every other encoding.
    static func utf8Input(_ data: Data) -> (skip: Int, warnings: [String])? {
        var skip = 0
        if data.starts(with: [0xEF, 0xBB, 0xBF]) {
            skip = 3
        } else if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])
                    || data.starts(with: [0x3C, 0x00]) || data.starts(with: [0x00, 0x3C])
                    || data.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || data.starts(with: [0x00, 0x00, 0x00, 0x3C]) {
            // UTF-16 or UTF-32 (with a BOM, or a '<' in two or four bytes).
            return nil
        } else if let label = declaredEncoding([UInt8](data.prefix(512))),
                  !["utf-8", "utf8", "us-ascii", "ascii", "utf-16", "utf16"].contains(label) {
            return nil
        }
        let valid = data.withUnsafeBytes { isValidUTF8($0.bindMemory(to: UInt8.self)) }
        return (skip, valid ? [] : ["invalid UTF-8 bytes were replaced with U+FFFD"])
    }

    static func isValidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = b.count
        guard let base = b.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        while i < n {
            // Runs of ASCII (most of a feed) are checked eight bytes at a time.
            while i + 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
            guard i < n else { break }
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard i + length <= n, b[i + 1] >= low, b[i + 1] <= high else { return false }
            for k in 2..<length where b[i + k] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }

    private static func utf8(_ bytes: Data) -> Decoded {
        if let text = String(validating: bytes, as: UTF8.self) { return Decoded(text: text, warnings: []) }
        return Decoded(text: String(decoding: bytes, as: UTF8.self),
                       warnings: ["invalid UTF-8 bytes were replaced with U+FFFD"])
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> Decoded {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let a = UInt16(bytes[index]), b = UInt16(bytes[index + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            index += 2
        }
        var warnings: [String] = []
        if bytes.count % 2 == 1 { warnings.append("UTF-16 text ends with half a character") }
        var text = ""
        var valid = true
        text.reserveCapacity(units.count)
        var decoder = UTF16()
        var iterator = units.makeIterator()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
            case .emptyInput: break decoding
            case .error:
                valid = false
                text.unicodeScalars.append("\u{FFFD}")
            }
        }
        if !valid { warnings.append("invalid UTF-16 was replaced with U+FFFD") }
        return Decoded(text: text, warnings: warnings)
    }

    private static func utf32(_ bytes: Data, bigEndian: Bool) -> Decoded {
        var text = String.UnicodeScalarView()
        var bad = 0
        let words = bytes.count / 4
        bytes.withUnsafeBytes { raw in
            for index in 0..<words {
                let word = raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
                let value = bigEndian ? UInt32(bigEndian: word) : UInt32(littleEndian: word)
                if let scalar = Unicode.Scalar(value) { text.append(scalar) } else {
                    text.append("\u{FFFD}")
                    bad += 1
                }
            }
        }
        var warnings: [String] = []
        if bad > 0 { warnings.append("\(bad) invalid UTF-32 code units were replaced") }
        if bytes.count % 4 != 0 { warnings.append("the document ends inside a UTF-32 character") }
        return Decoded(text: String(text), warnings: warnings)
    }

    /// Single-byte encodings that equal Latin-1 except for a table of high bytes.
    private static func singleByte(_ bytes: Data, high: [UInt32: UInt32]) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes {
            let value = high[UInt32(byte)] ?? UInt32(byte)
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    /// The `encoding` pseudo-attribute of an XML declaration at the very start, lower-cased.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        let head = bytes.prefix(512)
        guard let end = indexOf(Array("?>".utf8), in: head),
              let key = indexOf(Array("encoding".utf8), in: head[..<end]) else { return nil }
        var i = key + 8
        while i < end, head[i] == 0x20 || head[i] == 0x09 || head[i] == 0x0A || head[i] == 0x0D { i += 1 }
        guard i < end, head[i] == UInt8(ascii: "=") else { return nil }
        i += 1
        while i < end, head[i] == 0x20 || head[i] == 0x09 || head[i] == 0x0A || head[i] == 0x0D { i += 1 }
        guard i < end, head[i] == 0x22 || head[i] == 0x27 else { return nil }
        let quote = head[i]
        let start = i + 1
        guard let close = head[start..<end].firstIndex(of: quote) else { return nil }
        return String(decoding: head[start..<close], as: UTF8.self).lowercased()
    }

    private static func indexOf(_ needle: [UInt8], in hay: ArraySlice<UInt8>) -> Int? {
        guard needle.count <= hay.count else { return nil }
        var i = hay.startIndex
        while i + needle.count <= hay.endIndex {
            if hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private static let foundationEncodings: [String: String.Encoding] = [
        "shift_jis": .shiftJIS, "shift-jis": .shiftJIS, "sjis": .shiftJIS, "windows-31j": .shiftJIS,
        "euc-jp": .japaneseEUC, "iso-2022-jp": .iso2022JP,
        "iso-8859-2": .isoLatin2, "latin2": .isoLatin2,
        "windows-1250": .windowsCP1250, "windows-1251": .windowsCP1251,
        "windows-1253": .windowsCP1253, "windows-1254": .windowsCP1254,
        "utf-32": .utf32,
        // Foundation reads these through CoreFoundation's converters, named by their CF
        // encoding numbers (0x8000_0000 | kCFStringEncoding…).
        "euc-kr": cf(0x0940), "ks_c_5601-1987": cf(0x0940), "korean": cf(0x0940), "cp949": cf(0x0422),
        "windows-949": cf(0x0422),
        "big5": cf(0x0A03), "big5-hkscs": cf(0x0A06), "cn-big5": cf(0x0A03),
        "gb2312": cf(0x0632), "gbk": cf(0x0632), "gb18030": cf(0x0632), "x-gbk": cf(0x0632), "cp936": cf(0x0632),
        "koi8-r": cf(0x0A02), "koi8-u": cf(0x0A08),
        "iso-8859-5": cf(0x0205), "iso-8859-7": cf(0x0207), "iso-8859-9": cf(0x0209),
        "windows-1255": cf(0x0505), "windows-1256": cf(0x0506), "windows-1257": cf(0x0507),
        "windows-1258": cf(0x0508), "windows-874": cf(0x041D), "tis-620": cf(0x041D),
    ]

    private static func cf(_ number: UInt) -> String.Encoding { String.Encoding(rawValue: 0x8000_0000 | number) }

    private static let latin9: [UInt32: UInt32] = [
        0xA4: 0x20AC, 0xA6: 0x0160, 0xA8: 0x0161, 0xB4: 0x017D,
        0xB8: 0x017E, 0xBC: 0x0152, 0xBD: 0x0153, 0xBE: 0x0178,
    ]
}
