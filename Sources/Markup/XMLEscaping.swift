/// Text made safe to write inside XML, the one way everything that writes XML does it (an
/// EPUB's XHTML and package, an OPML list).
public enum XMLEscaping {
    /// Whether XML 1.0 allows the character at all (`Char` in the specification).
    public static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Text escaped for element content or a double-quoted attribute; characters XML
    /// forbids are left out.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars where isXMLCharacter(scalar) {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
