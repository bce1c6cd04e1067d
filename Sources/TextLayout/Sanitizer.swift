/// Makes text from strangers safe to draw: nothing in the result can reach a terminal as a
/// control character or escape sequence, or reorder what is drawn around it.
public enum Sanitizer {
    /// Tab stops used when `multiline` text keeps its layout.
    public static let tabWidth = 8

    /// Removes everything that could reach a terminal as a control:
    /// - C0 controls and DEL. With `multiline`, `\n` is kept (CR LF and lone CR become
    ///   `\n`) and tabs expand to spaces up to the next tab stop; otherwise line breaks and
    ///   tabs become one space.
    /// - C1 controls (U+0080–U+009F, including the one-character CSI U+009B with its
    ///   parameters, and OSC/DCS/APC/PM/SOS U+009D/90/9F/9E/98 with their payload).
    /// - ESC-introduced sequences: CSI (`ESC [` … final byte), OSC (`ESC ]` … up to BEL or
    ///   ST, so OSC 52 clipboard writes and OSC 8 hyperlinks go with their payload), DCS,
    ///   APC, PM, SOS strings, and two- and three-byte escapes. An unterminated string
    ///   sequence is dropped to the end of its line.
    /// - Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), U+FEFF,
    ///   the interlinear annotation controls and the noncharacters U+FFFE/U+FFFF.
    /// - U+2028/U+2029 are treated as line breaks.
    public static func clean(_ text: String, multiline: Bool = false) -> String {
        if !needsCleaning(text, multiline: multiline) { return text }
        var cleaner = Cleaner(multiline: multiline)
        cleaner.run(Array(text.unicodeScalars))
        return cleaner.output
    }

    /// True when `text` holds nothing `clean` would change.
    public static func isClean(_ text: String, multiline: Bool = false) -> Bool {
        !needsCleaning(text, multiline: multiline)
    }

    /// A quick scan of the UTF-8 bytes for anything that is not plain printable text
    /// (or `\n` in multiline text).
    private static func needsCleaning(_ text: String, multiline: Bool) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 {
                if byte != 0x0A || !multiline { return true }
            } else if byte == 0x7F {
                return true
            } else if byte >= 0x80 {
                switch (beforePrevious, previous, byte) {
                case (_, 0xC2, 0x80...0x9F):  // C1 controls
                    return true
                case (0xE2, 0x80, 0xA8...0xAE), (0xE2, 0x81, 0xA6...0xA9):  // separators, bidi
                    return true
                case (0xEF, 0xBB, 0xBF), (0xEF, 0xBF, 0xB9...0xBB), (0xEF, 0xBF, 0xBE...0xBF):
                    return true
                default:
                    break
                }
            }
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    /// Whether `clean` would remove or change this scalar (other than a space).
    static func isSuspicious(_ v: UInt32) -> Bool {
        v < 0x20 || (v >= 0x7F && v < 0xA0) || v == 0x2028 || v == 0x2029 || isDropped(v)
    }

    static func isDropped(_ v: UInt32) -> Bool {
        switch v {
        case 0x202A...0x202E, 0x2066...0x2069, 0xFEFF, 0xFFF9...0xFFFB, 0xFFFE, 0xFFFF:
            return true
        default:
            return false
        }
    }

    private struct Cleaner {
        let multiline: Bool
        var output = ""
        /// Index in `output` where the current line starts, for tab stops.
        var lineStart: String.Index?

        init(multiline: Bool) {
            self.multiline = multiline
        }

        mutating func lineBreak() {
            if multiline {
                output.unicodeScalars.append("\n")
                lineStart = output.endIndex
            } else {
                output.unicodeScalars.append(" ")
            }
        }

        mutating func tab() {
            guard multiline else {
                output.unicodeScalars.append(" ")
                return
            }
            let column = DisplayWidth.of(output[(lineStart ?? output.startIndex)...])
            let spaces = Sanitizer.tabWidth - column % Sanitizer.tabWidth
            output.append(String(repeating: " ", count: spaces))
        }

        mutating func run(_ s: [Unicode.Scalar]) {
            var i = 0
            let n = s.count
            while i < n {
                let v = s[i].value
                switch v {
                case 0x0A, 0x2028, 0x2029:
                    lineBreak()
                    i += 1
                case 0x0D:
                    lineBreak()
                    i += 1
                    if i < n && s[i].value == 0x0A { i += 1 }
                case 0x09:
                    tab()
                    i += 1
                case 0x1B:
                    i = skipEscape(s, from: i + 1)
                case 0x9B:
                    i = skipControlSequence(s, from: i + 1)
                case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                    i = skipString(s, from: i + 1)
                case 0x00..<0x20, 0x7F..<0xA0:
                    i += 1
                default:
                    if !Sanitizer.isDropped(v) { output.unicodeScalars.append(s[i]) }
                    i += 1
                }
            }
        }

        /// After ESC: returns the index just past the whole sequence.
        func skipEscape(_ s: [Unicode.Scalar], from start: Int) -> Int {
            guard start < s.count else { return start }
            let v = s[start].value
            switch v {
            case 0x5B:  // [
                return skipControlSequence(s, from: start + 1)
            case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // ] P X ^ _
                return skipString(s, from: start + 1)
            case 0x20...0x2F:  // intermediates, then one final byte
                var i = start
                while i < s.count, (0x20...0x2F).contains(s[i].value) { i += 1 }
                if i < s.count, (0x30...0x7E).contains(s[i].value) { i += 1 }
                return i
            case 0x30...0x7E:
                return start + 1
            default:
                // ESC followed by something that cannot continue it: drop only the ESC.
                return start
            }
        }

        /// CSI parameters (0x30–0x3F), intermediates (0x20–0x2F), then a final byte (0x40–0x7E).
        func skipControlSequence(_ s: [Unicode.Scalar], from start: Int) -> Int {
            var i = start
            while i < s.count, (0x30...0x3F).contains(s[i].value) { i += 1 }
            while i < s.count, (0x20...0x2F).contains(s[i].value) { i += 1 }
            if i < s.count, (0x40...0x7E).contains(s[i].value) { i += 1 }
            return i
        }

        /// A string sequence ends at BEL, ST (ESC \ or U+009C); an unterminated one at the
        /// end of its line.
        func skipString(_ s: [Unicode.Scalar], from start: Int) -> Int {
            var i = start
            while i < s.count {
                switch s[i].value {
                case 0x07, 0x9C:
                    return i + 1
                case 0x1B:
                    if i + 1 < s.count, s[i + 1].value == 0x5C { return i + 2 }
                    // Another escape ends this string; it is cleaned in turn.
                    return i
                case 0x0A, 0x0D:
                    return i
                default:
                    i += 1
                }
            }
            return i
        }
    }
}
