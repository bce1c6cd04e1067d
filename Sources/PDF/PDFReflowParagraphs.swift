import TextLayout

/// Lines in reading order gathered into headings and paragraphs: a line continues the
/// block before it unless its size differs, a larger gap or an indent starts a new one,
/// or the line before ended a sentence well short of the others. A paragraph that goes on
/// in the next column (no full stop, a lower-case start) stays one.
struct Paragraphs {
    let sizes: FontSizes
    let frame: Frame
    var words: HyphenEvidence

    private var blocks: [Block] = []
    private var lines: [ReflowLine] = []
    private var level: Int?
    /// Where the open block's lines end at the furthest, in the reading frame.
    private var furthest = -Double.infinity
    /// The style each font name gives, worked out once a page (the name is searched for words).
    private var styles: [String: TextStyle] = [:]

    init(sizes: FontSizes, frame: Frame, words: HyphenEvidence) {
        self.sizes = sizes
        self.frame = frame
        self.words = words
    }

    mutating func add(_ line: ReflowLine) {
        let level = sizes.level(of: line.size)
        if let last = lines.last, level == self.level, continues(last, with: line) {
            lines.append(line)
        } else {
            close()
            lines = [line]
            self.level = level
        }
        furthest = max(furthest, end(of: line))
    }

    mutating func add(figure: PageFigure) {
        close()
        blocks.append(.image(source: figure.source, alt: ""))
    }

    mutating func finish() -> [Block] {
        close()
        return blocks
    }

    private func continues(_ previous: ReflowLine, with line: ReflowLine) -> Bool {
        guard previous.vertical == line.vertical else { return false }
        let a = frame.place(previous.box), b = frame.place(line.box)
        let size = max(line.size, previous.size, 1)
        // Pieces of one row (a table's cells, a line poppler gave in parts).
        if ReflowLine.overlap(a.y0, a.y1, b.y0, b.y1) > 0.5 * min(a.y1 - a.y0, b.y1 - b.y0) { return true }
        let text = previous.text
        let below = b.y0 > a.y0 && ReflowLine.overlap(a.x0, a.x1, b.x0, b.x1) > 0
        guard below else {
            // A new column: the sentence goes on there only if nothing ended it here.
            return level == nil && !Self.endsSentence(text) && Self.startsLowercase(line.text)
        }
        if b.y0 - a.y1 > 0.7 * size { return false }
        if level == nil {
            if start(of: line) - start(of: previous) > 0.8 * size { return false }
            if lines.count >= 2, furthest - end(of: previous) > 3 * size, Self.endsSentence(text) { return false }
        }
        return true
    }

    /// Where a line starts and ends in the direction it is read (a right-to-left line on a
    /// left-to-right page starts at its right).
    private func start(of line: ReflowLine) -> Double {
        let box = frame.place(line.box)
        return mirrored(line) ? -box.x1 : box.x0
    }

    private func end(of line: ReflowLine) -> Double {
        let box = frame.place(line.box)
        return mirrored(line) ? -box.x0 : box.x1
    }

    private func mirrored(_ line: ReflowLine) -> Bool {
        !line.vertical && frame.direction != .vertical && line.rightToLeft != (frame.direction == .rightToLeft)
    }

    private static func endsSentence(_ text: String) -> Bool {
        guard let last = text.unicodeScalars.last(where: { !"\"'”’»)".unicodeScalars.contains($0) }) else { return true }
        return ".!?:。！？".unicodeScalars.contains(last)
    }

    static func startsLowercase(_ text: String) -> Bool {
        text.unicodeScalars.first(where: { $0.properties.isAlphabetic }).map { $0.properties.isLowercase } ?? false
    }

    /// The open block as a heading or a paragraph.
    private mutating func close() {
        defer { lines = []; furthest = -Double.infinity }
        guard !lines.isEmpty else { return }
        var spans: [StyledSpan] = []
        for (position, line) in lines.enumerated() {
            var lineSpans = styledRuns(of: line, heading: level != nil)
            if position > 0 {
                let joint = joint(after: spans, before: line)
                if joint.dropHyphen, var last = spans.popLast() {
                    last.text.unicodeScalars.removeLast()
                    if !last.text.isEmpty { spans.append(last) }
                }
                // The space between lines goes with the text before it, as a space inside a line does.
                if !joint.separator.isEmpty { lineSpans.insert(StyledSpan(joint.separator, style: spans.last?.style ?? []), at: 0) }
            }
            for span in lineSpans { Self.append(span, to: &spans) }
        }
        spans = spans.map { span in
            // Soft hyphens left inside lines are invisible: they go.
            var text = span.text
            if text.unicodeScalars.contains("\u{AD}") { text = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{AD}" })) }
            return StyledSpan(Sanitizer.clean(text), style: span.style)
        }.filter { !$0.text.isEmpty }
        guard !spans.isEmpty else { return }
        blocks.append(level.map { .heading(level: $0, spans) } ?? .paragraph(spans))
    }

    /// What goes between the text so far and the next line: a space, nothing (a word broken
    /// at a hyphen, CJK), and whether the hyphen goes.
    private mutating func joint(after spans: [StyledSpan], before line: ReflowLine) -> (separator: String, dropHyphen: Bool) {
        // The last word is all that matters (a style changing inside it aside).
        let before = spans.last?.text ?? ""
        guard let last = before.unicodeScalars.last, let first = line.glyphs.first?.scalar else { return (" ", false) }
        if ReflowLine.isCJK(last) || ReflowLine.isCJK(first) { return ("", false) }
        guard Self.hyphens.contains(last) else { return (" ", false) }
        let word = before.split(whereSeparator: { $0 == " " }).last.map(String.init) ?? ""
        let stem = String(word.dropLast())
        guard stem.unicodeScalars.last?.properties.isAlphabetic == true else { return (" ", false) }
        // "Anglo-" + "Saxon", "COVID-" + "19": a hyphen that belongs to the word.
        guard first.properties.isLowercase else { return ("", false) }
        if last == "\u{AD}" { return ("", true) }
        // "state-of-the-" + "art": a compound already.
        if stem.unicodeScalars.contains(where: { Self.hyphens.contains($0) }) { return ("", false) }
        let rest = String(line.text.prefix { $0.isLetter })
        return ("", !words.prefersHyphen(stem, rest))
    }

    static let hyphens: Set<Unicode.Scalar> = ["-", "\u{2010}", "\u{AD}"]

    private static func append(_ span: StyledSpan, to spans: inout [StyledSpan]) {
        if let last = spans.last, last.style == span.style {
            spans[spans.count - 1].text += span.text
        } else {
            spans.append(span)
        }
    }

    /// A line's text in runs of one style (bold and italic from the font's name; a
    /// heading's own weight is the heading's).
    private mutating func styledRuns(of line: ReflowLine, heading: Bool) -> [StyledSpan] {
        var spans: [StyledSpan] = []
        var text = String.UnicodeScalarView(), style: TextStyle = []
        for glyph in line.glyphs {
            var glyphStyle: TextStyle = []
            if !heading {
                glyphStyle = styles[glyph.fontName] ?? Self.style(of: glyph.fontName)
                styles[glyph.fontName] = glyphStyle
            }
            // A space takes the style of the text before it.
            if glyph.scalar != " ", glyphStyle != style, !text.isEmpty {
                spans.append(StyledSpan(String(text), style: style))
                text = String.UnicodeScalarView()
            }
            if glyph.scalar != " " || text.isEmpty { style = glyphStyle }
            text.append(glyph.scalar)
        }
        if !text.isEmpty { spans.append(StyledSpan(String(text), style: style)) }
        return spans
    }

    static func style(of fontName: String) -> TextStyle {
        let name = fontName.lowercased()
        var style: TextStyle = []
        if ["bold", "black", "heavy", "semibold", "demi"].contains(where: name.contains) { style.insert(.bold) }
        if name.contains("italic") || name.contains("oblique") { style.insert(.italic) }
        return style
    }
}

/// Whether a word broken at a line-end hyphen keeps it: the page and its neighbours are
/// asked how they write it elsewhere ("well-known" whole on a line: kept; otherwise the
/// hyphen was the typesetter's and goes: "exam-" + "ple" → "example").
struct HyphenEvidence {
    private let pages: [PDFPageText]
    private var counts: [String: Int]?

    init(pages: [PDFPageText]) { self.pages = pages }

    mutating func prefersHyphen(_ stem: String, _ rest: String) -> Bool {
        let counts = self.counts ?? tally()
        self.counts = counts
        let hyphenated = (stem + "-" + rest).lowercased(), joined = (stem + rest).lowercased()
        return counts[hyphenated, default: 0] > counts[joined, default: 0]
    }

    /// How often each word (hyphenated compounds whole) occurs within lines.
    private func tally() -> [String: Int] {
        var counts: [String: Int] = [:]
        for page in pages {
            var word = ""
            for scalar in page.string.lowercased().unicodeScalars {
                if scalar.properties.isAlphabetic || scalar == "-" || scalar == "\u{2010}" {
                    word.unicodeScalars.append(scalar == "\u{2010}" ? "-" : scalar)
                } else {
                    // A word cut by a line end is not evidence either way.
                    if !word.isEmpty, scalar != "\n" || word.last != "-" { counts[word.trimmingDashes, default: 0] += 1 }
                    word = ""
                }
            }
            if !word.isEmpty { counts[word.trimmingDashes, default: 0] += 1 }
        }
        return counts
    }
}

private extension String {
    var trimmingDashes: String {
        var scalars = Substring(self)
        while scalars.first == "-" { scalars = scalars.dropFirst() }
        while scalars.last == "-" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
