import Foundation
import Markup

/// Cleaning of every string a feed supplies before it leaves this module.
public enum FeedText {
    /// One line of text: control characters (C0, DEL, C1), bidirectional controls and BOMs
    /// removed, whitespace runs (NBSP and line separators included) collapsed to one space,
    /// trimmed. Nil when nothing is left. Works on UTF-8 bytes; clean text is returned as is.
    public static func line(_ raw: String?) -> String? {
        guard let raw else { return nil }
        var text = raw
        return text.withUTF8 { bytes -> String? in
            if isCleanLine(bytes) { return bytes.isEmpty ? nil : raw }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var pendingSpace = false
            var i = 0
            let n = bytes.count
            // Kept bytes are copied in runs, not one character at a time.
            var runStart = 0
            func flush(_ end: Int) {
                if end > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<end])) }
            }
            while i < n {
                let b = bytes[i]
                if b > 0x20, b < 0x7F {
                    // Printable ASCII is kept as it is, and so is one space between two
                    // such characters: what collapsing would leave there anyway.
                    if pendingSpace { out.append(0x20); pendingSpace = false }  // runStart == i here
                    i += 1
                    while i < n {
                        let c = bytes[i]
                        if c > 0x20, c < 0x7F { i += 1 } else if c == 0x20, i + 1 < n, bytes[i + 1] > 0x20, bytes[i + 1] < 0x7F { i += 2 } else { break }
                    }
                    continue
                }
                var width = 1
                var space = false
                var strip = false
                switch b {
                case 0x20, 0x09, 0x0A, 0x0D: space = true
                case 0x1B:
                    // A whole escape sequence goes, not just its ESC: `]52;c;…` left
                    // behind is inert but reads as garbage.
                    width = escapeSequenceLength(bytes, at: i)
                    strip = true
                case 0x00..<0x20, 0x7F: strip = true
                case 0xC2 where i + 1 < n:
                    width = 2
                    if bytes[i + 1] == 0xA0 { space = true } else if bytes[i + 1] < 0xA0 {
                        strip = true
                        width = escapeSequenceLength(bytes, at: i)
                    }
                case 0xD8 where i + 1 < n && bytes[i + 1] == 0x9C:  // U+061C arabic letter mark
                    width = 2
                    strip = true
                case 0xE2 where i + 2 < n:
                    width = 3
                    let (b1, b2) = (bytes[i + 1], bytes[i + 2])
                    if b1 == 0x80, b2 == 0xA8 || b2 == 0xA9 { space = true }  // line, paragraph separators
                    else if b1 == 0x80, b2 == 0x8E || b2 == 0x8F || (0xAA...0xAE).contains(b2) { strip = true }
                    else if b1 == 0x81, (0xA6...0xA9).contains(b2) { strip = true }
                case 0xEF where i + 2 < n && bytes[i + 1] == 0xBB && bytes[i + 2] == 0xBF:
                    width = 3
                    strip = true
                default:
                    break
                }
                if space || strip {
                    flush(i)
                    if space { pendingSpace = !out.isEmpty }
                    i = min(i + width, n)
                    runStart = i
                } else {
                    if pendingSpace { out.append(0x20); pendingSpace = false }  // runStart == i here
                    i = min(i + width, n)
                }
            }
            flush(n)
            return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
        }
    }

    /// How many bytes the control sequence starting at `start` spans: ESC or C1 (UTF-8
    /// `C2 80`…`C2 9F`) and, for CSI, its parameters and final byte; for OSC, DCS, SOS, PM
    /// and APC, everything up to BEL or ST (or the end, as a terminal would swallow it).
    static func escapeSequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int {
        let n = bytes.count
        var i: Int
        var kind: UInt8
        if bytes[start] == 0x1B {
            guard start + 1 < n, (0x20...0x7E).contains(bytes[start + 1]) else { return 1 }
            kind = bytes[start + 1]
            i = start + 2
            // ESC with an intermediate byte or any other final: two bytes.
            if ![UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"),
                 UInt8(ascii: "^"), UInt8(ascii: "_")].contains(kind) { return 2 }
        } else {
            // C1 in UTF-8: C2 80…9F; 9B is CSI, 9D OSC, 90 DCS, 98 SOS, 9E PM, 9F APC.
            switch bytes[start + 1] {
            case 0x9B: kind = UInt8(ascii: "[")
            case 0x9D: kind = UInt8(ascii: "]")
            case 0x90, 0x98, 0x9E, 0x9F: kind = UInt8(ascii: "P")
            default: return 2
            }
            i = start + 2
        }
        if kind == UInt8(ascii: "[") {
            while i < n, (0x20...0x3F).contains(bytes[i]) { i += 1 }
            if i < n, (0x40...0x7E).contains(bytes[i]) { i += 1 }
            return i - start
        }
        while i < n {
            if bytes[i] == 0x07 { return i + 1 - start }
            if bytes[i] == 0x1B, i + 1 < n, bytes[i + 1] == UInt8(ascii: "\\") { return i + 2 - start }
            if bytes[i] == 0xC2, i + 1 < n, bytes[i + 1] == 0x9C { return i + 2 - start }
            i += 1
        }
        return n - start
    }

    /// True when `line` would return the text unchanged: no control, stripped or space-like
    /// character, no leading, trailing or doubled space.
    private static func isCleanLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previousSpace = true
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            i += 1
            if b == 0x20 {
                if previousSpace { return false }
                previousSpace = true
                continue
            }
            previousSpace = false
            if b >= 0x21, b < 0x7F { continue }
            if b < 0x20 || b == 0x7F { return false }
            switch b {
            case 0xC2: if i < n, bytes[i] <= 0xA0 { return false }
            case 0xD8: if i < n, bytes[i] == 0x9C { return false }
            case 0xE2:
                if i + 1 < n, bytes[i] == 0x80, bytes[i + 1] == 0x8E || bytes[i + 1] == 0x8F || (0xA8...0xAE).contains(bytes[i + 1]) {
                    return false
                }
                if i + 1 < n, bytes[i] == 0x81, (0xA6...0xA9).contains(bytes[i + 1]) { return false }
            case 0xEF: if i + 1 < n, bytes[i] == 0xBB, bytes[i + 1] == 0xBF { return false }
            default: break
            }
        }
        return !previousSpace || n == 0
    }

    /// A line from text that may hold HTML markup (Atom `type="html"`, RSS titles and
    /// descriptions): tags dropped, script and style bodies dropped, references decoded as
    /// in an article (`CharacterReferences`).
    static func fromHTML(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let hasTag = raw.containsByte(UInt8(ascii: "<"))
        guard hasTag || raw.containsByte(UInt8(ascii: "&")) else { return line(raw) }
        return line(hasTag ? text(ofHTML: raw) : CharacterReferences.decode(raw))
    }

    /// Text without its tags, references decoded; `script` and `style` lose their bodies;
    /// block-level tags and line breaks become spaces. A tag cut off at the end is dropped.
    static func text(ofHTML html: String) -> String {
        HTMLLexer.text(of: html, dropping: ["script", "style"], separator: 0x20) { lexer, name in
            switch name.count {
            case 1: return lexer.spells(name, "p")
            case 2:
                return lexer.spells(name, "br") || lexer.spells(name, "li") || lexer.spells(name, "ul") || lexer.spells(name, "ol")
                    || lexer.spells(name, "tr") || lexer.spells(name, "td") || lexer.spells(name, "th") || lexer.spells(name, "hr")
                    || (lexer.bytes[name.lowerBound] | 0x20 == UInt8(ascii: "h") && (0x31...0x36).contains(lexer.bytes[name.lowerBound + 1]))
            case 3: return lexer.spells(name, "div")
            case 10: return lexer.spells(name, "blockquote")
            default: return false
            }
        }
    }
}


extension String {
    /// The UTF-8 bytes, copied in one go (the generic `Array(utf8)` goes byte by byte).
    var utf8Bytes: [UInt8] {
        var copy = self
        return copy.withUTF8 { Array($0) }
    }

    /// Whether the UTF-8 form holds this byte (faster than the generic `utf8.contains`).
    func containsByte(_ byte: UInt8) -> Bool {
        var copy = self
        return copy.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(byte), bytes.count) != nil
        }
    }

    /// Whether this ASCII text occurs in the UTF-8 form (no Foundation, no locale).
    func containsASCII(_ needle: StaticString) -> Bool {
        var copy = self
        return copy.withUTF8 { hay in
            let count = needle.utf8CodeUnitCount
            guard count > 0 else { return true }
            guard hay.count >= count else { return false }
            let first = needle.utf8Start[0]
            var i = 0
            while i + count <= hay.count {
                if hay[i] == first, memcmp(hay.baseAddress! + i, needle.utf8Start, count) == 0 { return true }
                i += 1
            }
            return false
        }
    }
}
