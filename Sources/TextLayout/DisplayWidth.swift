/// How many terminal columns text takes: East Asian wide and fullwidth characters and
/// emoji presentation take two, combining marks and joiners none, everything else one.
/// Measured per grapheme cluster so an emoji sequence or a letter with its marks stays one unit.
public enum DisplayWidth {
    /// Columns taken by one grapheme cluster (0, 1 or 2).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // A variation selector 16 asks for emoji presentation: two columns.
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if scalars.count > 1, scalars.contains(where: { $0.value == 0x200D }) { return 2 }
        return width(of: first)
    }

    /// Columns taken by a string.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Columns of a single scalar, ignoring what follows it.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 { return 0 }
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B || (0x1160...0x11FF).contains(v) { return 0 }
        if isWide(v) { return 2 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
             0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF,
             0x1B000...0x1B2FF, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD,
             0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// The longest prefix of `text` that fits in `columns`, ending with `ellipsis` when
    /// something was cut. Never splits a grapheme cluster.
    public static func truncate(_ text: String, to columns: Int, ellipsis: String = "…") -> String {
        guard columns > 0 else { return "" }
        if of(text) <= columns { return text }
        let room = columns - of(ellipsis)
        guard room >= 0 else { return "" }
        var used = 0
        var result = ""
        for character in text {
            let w = of(character)
            if used + w > room { break }
            used += w
            result.append(character)
        }
        return result + ellipsis
    }
}
