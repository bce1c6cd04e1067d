/// How many terminal columns text takes, measured per grapheme cluster so an emoji
/// sequence or a letter with its marks stays one unit.
///
/// - East Asian Wide and Fullwidth characters and emoji with emoji presentation take two.
/// - Combining marks, format characters (joiners, bidi marks, tags), controls and the
///   Hangul medial and final jamo take none.
/// - An emoji sequence (ZWJ sequence, flag, skin-tone modifier, VS16 presentation, tag
///   sequence) takes two, as one picture.
/// - Any other cluster takes the sum of its scalars' widths, which is what terminals draw
///   (a Latin letter with marks is 1, a Hangul L+V+T syllable is 2).
public enum DisplayWidth {
    /// Columns taken by one grapheme cluster.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        guard let second = iterator.next() else { return width(of: first) }
        if isEmojiSequence(first: first, second: second, rest: scalars) { return 2 }
        var total = width(of: first) + width(of: second)
        while let next = iterator.next() { total += width(of: next) }
        return total
    }

    /// Columns taken by a string.
    public static func of(_ text: some StringProtocol) -> Int {
        // ASCII fast path: printable bytes take one column, controls none.
        var total = 0
        var ascii = true
        for byte in text.utf8 {
            if byte >= 0x80 { ascii = false; break }
            if byte >= 0x20 && byte != 0x7F { total += 1 }
        }
        if ascii { return total }
        total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Columns of a single scalar, ignoring what follows it.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x7F { return v < 0x20 ? 0 : 1 }
        if v < 0xA0 { return 0 }  // DEL and C1 controls
        if v < 0x300 { return v == 0xAD ? 0 : 1 }  // Latin-1 and Latin Extended; soft hyphen is invisible
        if v >= 0x2010 && v <= 0x205E { return v >= 0x2028 && v <= 0x202E ? 0 : 1 }  // general punctuation
        if v >= 0x1160 && v <= 0x11FF { return 0 }  // Hangul medial vowels and final consonants
        if v >= 0xD7B0 && v <= 0xD7FF { return 0 }  // Hangul Jamo Extended-B (medial, final)
        if v >= 0x1100 && isWide(v) { return 2 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        if v >= 0x1F000 && scalar.properties.isEmojiPresentation { return 2 }  // emoji newer than the table
        return 1
    }

    private static func isWide(_ v: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = wideRanges[mid]
            if v < range.0 {
                high = mid - 1
            } else if v > range.1 {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }

    private static func isRegionalIndicator(_ s: Unicode.Scalar) -> Bool {
        s.value >= 0x1F1E6 && s.value <= 0x1F1FF
    }

    private static func isSkinToneModifier(_ s: Unicode.Scalar) -> Bool {
        s.value >= 0x1F3FB && s.value <= 0x1F3FF
    }

    /// Whether a multi-scalar cluster is drawn as one emoji picture.
    private static func isEmojiSequence(
        first: Unicode.Scalar, second: Unicode.Scalar, rest scalars: Character.UnicodeScalarView
    ) -> Bool {
        if isRegionalIndicator(first) && isRegionalIndicator(second) { return true }
        let properties = first.properties
        guard properties.isEmoji else { return false }
        // Digits, `#` and `*` are emoji only as keycaps (with VS16).
        let pictographic = first.value >= 0x2000
        for scalar in scalars.dropFirst() {
            switch scalar.value {
            case 0xFE0F:  // VS16: emoji presentation
                return true
            case 0x200D where pictographic:  // ZWJ sequence
                return true
            case 0x1F3FB...0x1F3FF where properties.isEmojiModifierBase:
                return true
            case 0xE0020...0xE007F where first.value == 0x1F3F4:  // subdivision flags
                return true
            default:
                continue
            }
        }
        return false
    }

    /// The longest prefix of `text` that fits in `columns`, ending with `ellipsis` when
    /// something was cut (spaces before the ellipsis are dropped). Never splits a
    /// grapheme cluster.
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
        while let last = result.last, last == " " { result.removeLast() }
        return result + ellipsis
    }

    /// The longest prefix of `text` that fits in `columns`, cut without any mark.
    public static func clip(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let w = of(text[index])
            if used + w > columns { return String(text[..<index]) }
            used += w
            end = text.index(after: index)
        }
        return String(text[..<end])
    }
}
