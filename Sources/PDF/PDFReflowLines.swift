import TextLayout

/// One line of a page's text, built from its characters: where it is, which way it runs,
/// and its words in logical reading order.
struct ReflowLine {
    /// The characters (spaces included) in logical reading order.
    let glyphs: [PDFCharacter]
    let box: PDFRect
    /// Written top to bottom (vertical CJK).
    let vertical: Bool
    /// The most common font size of its characters, rounded to half a point.
    let size: Double

    /// The characters as text, and whether right-to-left letters outnumber left-to-right ones.
    let text: String
    let rightToLeft: Bool

    /// Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms; not the
    /// Arabic-Indic digits, which are read left to right like any number.
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0660...0x0669, 0x06F0...0x06F9: return false
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFC, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }

    /// Han, kana, hangul and their punctuation: written without spaces between words.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF, 0x20000...0x3FFFF: return true
        default: return false
        }
    }
}

extension ReflowLine {
    /// The page's lines in the order the PDF gives them: characters split where poppler
    /// ends a line or where the next character is not beside the last, fragments of one
    /// line (justified text comes in pieces) joined again.
    static func lines(of characters: [PDFCharacter]) -> [ReflowLine] {
        var fragments: [[PDFCharacter]] = []
        var current: [PDFCharacter] = []
        // Where the run's visible characters are, their largest size, and whether they
        // run down a column (known from the second character on).
        var bounds: PDFRect?, size = 0.0, runsDown: Bool?
        func close() {
            if current.contains(where: { !$0.isSpace }) { fragments.append(current) }
            current = []
            bounds = nil
            size = 0
            runsDown = nil
        }
        for character in aligned(characters) {
            let scalar = character.scalar
            if scalar == "\n" || scalar == "\r" || scalar == "\u{0C}" { close(); continue }
            // Controls and invisible formatting never reach the text (a soft hyphen may end a line).
            if scalar.properties.generalCategory == .control || (scalar.properties.generalCategory == .format && scalar != "\u{AD}") { continue }
            if character.isSpace {
                if !current.isEmpty { current.append(PDFCharacter(scalar: " ", rect: character.rect, fontSize: character.fontSize, fontName: character.fontName)) }
                continue
            }
            if let box = bounds {
                let relation = beside(box, size: size, character)
                if relation == nil || (runsDown != nil && relation != runsDown) { close() } else if runsDown == nil { runsDown = relation }
            }
            current.append(character)
            let rect = character.rect
            bounds = bounds.map { PDFRect(x0: min($0.x0, rect.x0), y0: min($0.y0, rect.y0), x1: max($0.x1, rect.x1), y1: max($0.y1, rect.y1)) } ?? rect
            size = max(size, character.fontSize)
        }
        close()
        var lines: [ReflowLine] = []
        for fragment in fragments {
            let line = ReflowLine(fragment: fragment)
            if let last = lines.last, let joined = last.joined(with: line) {
                lines[lines.count - 1] = joined
            } else {
                lines.append(line)
            }
        }
        return lines
    }

    /// How `next` continues the run of characters within `box`: on the same row (false),
    /// in the same column just below (true), or not at all (nil); within a character or
    /// so of it, either side (right-to-left words come in logical order).
    private static func beside(_ box: PDFRect, size: Double, _ next: PDFCharacter) -> Bool? {
        let b = next.rect
        let reach = 1.5 * max(size, next.fontSize, 1)
        let sameRow = overlap(box.y0, box.y1, b.y0, b.y1) >= 0.5 * min(box.y1 - box.y0, b.y1 - b.y0)
        if sameRow && max(b.x0 - box.x1, box.x0 - b.x1) < reach { return false }
        let sameColumn = overlap(box.x0, box.x1, b.x0, b.x1) >= 0.5 * min(box.x1 - box.x0, b.x1 - b.x0)
        return sameColumn && b.y0 >= box.y0 && b.y0 - box.y1 < reach ? true : nil
    }

    static func overlap(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> Double { min(a1, b1) - max(a0, b0) }

    private init(fragment: [PDFCharacter]) {
        let visible = fragment.filter { !$0.isSpace }
        let box = Self.bounds(of: visible)
        vertical = visible.count >= 2 && (box.y1 - box.y0) > 1.5 * (box.x1 - box.x0)
        self.box = box
        var sizes: [Double: Int] = [:]
        for glyph in visible { sizes[(glyph.fontSize * 2).rounded() / 2, default: 0] += 1 }
        size = sizes.max { $0.value == $1.value ? $0.key > $1.key : $0.value < $1.value }?.key ?? 0
        glyphs = vertical ? Self.stacked(fragment) : Self.logical(Self.visual(fragment))
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: glyphs.map(\.scalar))
        text = String(scalars)
        let letters = visible.filter { $0.scalar.properties.isAlphabetic }
        rightToLeft = letters.filter { Self.isRightToLeft($0.scalar) }.count * 2 > letters.count
    }

    /// Another fragment on the same row, close after this one, made one line with it.
    private func joined(with other: ReflowLine) -> ReflowLine? {
        guard !vertical, !other.vertical,
              Self.overlap(box.y0, box.y1, other.box.y0, other.box.y1) >= 0.5 * min(box.y1 - box.y0, other.box.y1 - other.box.y0),
              max(other.box.x0 - box.x1, box.x0 - other.box.x1) < max(size, other.size, 1) else { return nil }
        // The gap between them makes the space.
        return ReflowLine(fragment: glyphs + other.glyphs)
    }

    static func bounds(of glyphs: [PDFCharacter]) -> PDFRect {
        guard let first = glyphs.first else { return PDFRect(x0: 0, y0: 0, x1: 0, y1: 0) }
        return glyphs.dropFirst().reduce(first.rect) { box, glyph in
            PDFRect(x0: min(box.x0, glyph.rect.x0), y0: min(box.y0, glyph.rect.y0), x1: max(box.x1, glyph.rect.x1), y1: max(box.y1, glyph.rect.y1))
        }
    }

    /// A vertical line's characters from top to bottom.
    private static func stacked(_ fragment: [PDFCharacter]) -> [PDFCharacter] {
        fragment.filter { !$0.isSpace }.enumerated()
            .sorted { ($0.element.rect.y0 + $0.element.rect.y1, $0.offset) < ($1.element.rect.y0 + $1.element.rect.y1, $1.offset) }
            .map(\.element)
    }

    /// A horizontal line's characters from left to right as drawn, one space wherever
    /// words are apart (whether or not the PDF has a space there), never two.
    private static func visual(_ fragment: [PDFCharacter]) -> [PDFCharacter] {
        let glyphs = fragment.filter { !$0.isSpace }.enumerated()
            .sorted { ($0.element.rect.x0 + $0.element.rect.x1, $0.offset) < ($1.element.rect.x0 + $1.element.rect.x1, $1.offset) }
            .map(\.element)
        // Poppler's space between two right-to-left words spans from the far edge of the one
        // to the far edge of the other (its rectangle reversed): its middle may fall inside a
        // word. The gap between their glyphs says where they part instead.
        let spaces = fragment.filter { $0.isSpace && $0.rect.x0 <= $0.rect.x1 }.map { ($0.rect.x0 + $0.rect.x1) / 2 }.sorted()
        var nextSpace = 0
        var result: [PDFCharacter] = []
        for glyph in glyphs {
            let middle = (glyph.rect.x0 + glyph.rect.x1) / 2
            // Whether one of the PDF's own spaces stands between the last glyph and this one.
            var spaceBetween = false
            while nextSpace < spaces.count, spaces[nextSpace] < middle {
                if let last = result.last, spaces[nextSpace] > (last.rect.x0 + last.rect.x1) / 2 { spaceBetween = true }
                nextSpace += 1
            }
            if let last = result.last, last.scalar != " ", spaceBetween || glyph.rect.x0 - last.rect.x1 > 0.2 * max(glyph.fontSize, 1) {
                let gap = (last.rect.x1 + glyph.rect.x0) / 2
                result.append(PDFCharacter(scalar: " ", rect: PDFRect(x0: gap, y0: glyph.rect.y0, x1: gap, y1: glyph.rect.y1),
                                           fontSize: glyph.fontSize, fontName: glyph.fontName))
            }
            result.append(glyph)
        }
        return result
    }

    /// Visual order (left to right) to the order the line is read in: a right-to-left line
    /// reversed with its numbers and left-to-right words kept as they are; in a
    /// left-to-right line, only the right-to-left runs reversed.
    static func logical(_ visual: [PDFCharacter]) -> [PDFCharacter] {
        let rightToLeft = visual.map { isRightToLeft($0.scalar) }
        guard rightToLeft.contains(true) else { return visual }
        let leftToRight = visual.map { !isRightToLeft($0.scalar) && ($0.scalar.properties.isAlphabetic || $0.scalar.properties.numericType != nil) }
        let mostlyRightToLeft = rightToLeft.filter { $0 }.count > leftToRight.filter { $0 }.count
        if mostlyRightToLeft {
            let reversed = Array(visual.reversed())
            return reversingRuns(of: reversed, where: Array(leftToRight.reversed()))
        }
        // Numbers inside a right-to-left run stay as written: reverse them back after.
        let numbers = visual.map { $0.scalar.properties.numericType != nil }
        var result = reversingRuns(of: visual, where: rightToLeft, keeping: numbers)
        result = reversingRuns(of: result, where: result.map { $0.scalar.properties.numericType != nil })
        return result
    }

    /// Reverses every run that starts and ends with a character `marked` and holds
    /// nothing but marked characters, spaces, punctuation (and `keeping` ones).
    private static func reversingRuns(of glyphs: [PDFCharacter], where marked: [Bool], keeping: [Bool]? = nil) -> [PDFCharacter] {
        var result = glyphs
        var index = 0
        while index < glyphs.count {
            guard marked[index] else { index += 1; continue }
            var end = index, probe = index + 1
            while probe < glyphs.count {
                if marked[probe] { end = probe } else if glyphs[probe].scalar.properties.isAlphabetic && !(keeping?[probe] ?? false) { break }
                probe += 1
            }
            result.replaceSubrange(index...end, with: glyphs[index...end].reversed())
            index = end + 1
        }
        return result
    }

    /// Poppler's text brackets right-to-left words in embedding marks (U+202A–U+202E, which
    /// carry no rectangle) and gives those words' letters in logical order while their
    /// rectangles stay in visual order: within each bracketed run the rectangles are handed
    /// out again in reverse, so each character keeps its own; the marks themselves go.
    /// Between two such runs poppler's space, when it gives one, spans both words (its
    /// rectangle reversed), and sometimes it gives none: the space there is put where the
    /// two words are apart.
    static func aligned(_ characters: [PDFCharacter]) -> [PDFCharacter] {
        guard characters.contains(where: { PDFCharacter.isEmbeddingMark($0.scalar) }) else { return characters }
        var result: [PDFCharacter] = []
        result.reserveCapacity(characters.count)
        var index = 0
        // The left edge of the run that ended just before, and the spaces since.
        var previousRunLeft: Double?
        var spacesAfterRun: [PDFCharacter] = []
        while index < characters.count {
            let character = characters[index], scalar = character.scalar
            if scalar == "\u{202B}" || scalar == "\u{202E}" {
                var end = index + 1
                while end < characters.count, !PDFCharacter.isEmbeddingMark(characters[end].scalar) { end += 1 }
                let run = characters[(index + 1)..<end]
                if let right = previousRunLeft, let first = run.first, let left = run.map(\.rect.x1).max(), left <= right {
                    result.append(PDFCharacter(scalar: " ", rect: PDFRect(x0: left, y0: first.rect.y0, x1: right, y1: first.rect.y1),
                                               fontSize: first.fontSize, fontName: first.fontName))
                } else {
                    result += spacesAfterRun
                }
                spacesAfterRun = []
                for (letter, box) in zip(run, run.map(\.rect).reversed()) {
                    result.append(PDFCharacter(scalar: letter.scalar, rect: box, fontSize: letter.fontSize, fontName: letter.fontName))
                }
                previousRunLeft = end < characters.count && characters[end].scalar == "\u{202C}" ? run.map(\.rect.x0).min() : nil
                index = end + (previousRunLeft == nil ? 0 : 1)
            } else if previousRunLeft != nil, scalar == " " {
                spacesAfterRun.append(character)
                index += 1
            } else {
                result += spacesAfterRun
                spacesAfterRun = []
                previousRunLeft = nil
                if !PDFCharacter.isEmbeddingMark(scalar) { result.append(character) }
                index += 1
            }
        }
        return result + spacesAfterRun
    }
}

extension PDFCharacter {
    /// A space of any kind: ASCII answered at once, as Unicode's property lookup was a
    /// tenth of a page's reflow.
    var isSpace: Bool {
        let value = scalar.value
        if value < 0x80 { return value == 0x20 || (0x09...0x0D).contains(value) }
        return scalar.properties.isWhitespace
    }
}
