import Foundation
import Imaging
import IssueArchive
import NewsstandKit
import Terminal
import TextLayout

/// Where a reader was in an issue; stored as JSON in the library. `block` and `offset` (a
/// `TextAnchor`) place the text whatever the width; `line` is what older versions stored;
/// `page` is a comic's page; `width` the text width chosen with + and -.
struct ReadingPosition: Codable, Equatable {
    var article: Int
    var line: Int
    var block: Int?
    var offset: Int?
    var width: Int?
    var page: Int?
}

/// Reader settings kept for the rest of the session once the user changes them.
final class ReaderPreferences {
    /// The text column's width after + or -; nil until then.
    var textWidth: Int?
    init() {}
}

/// The reader: one article (or comic page) at a time, wrapped to a readable column, with a
/// table of contents (`ReaderContents.swift`), search (`ReaderSearch.swift`) and comic
/// zoom and pan (`ReaderComics.swift`). It owns its keys; `handle` returns false for those
/// the app handles (q, Escape and Backspace to leave, Q, ?).
final class ReaderScreen {
    static let defaultTextWidth = 80
    static let textWidths = 30...200
    static let widthStep = 10

    enum Mode: Equatable { case reading, contents, searchPrompt }

    let issue: Issue
    let content: IssueContent
    let root: URL
    let painter: CoverPainter
    let theme: Theme
    let preferences: ReaderPreferences
    let library: Library
    /// The place last written to the library, and when: reading saves as it goes, so a
    /// closed terminal or a killed process loses at most a second.
    private var saved: (position: ReadingPosition, at: Date)?
    var article = 0
    /// The first line shown, in `text.lines`.
    var top = 0
    var textWidth: Int
    var mode: Mode = .reading
    var document: TextDocument?
    /// A long article opens from its first part; the whole is read meanwhile, and taken
    /// in (`adoptWholeDocument`) when ready or as soon as something needs all of it.
    var pending: PendingDocument?
    /// The first part's share of the whole article's bytes, while `pending`.
    var firstPartShare = 1.0
    /// The article laid out at the current column width (lazily, see `ArticleText`).
    var text: ArticleText?
    var loadError: String?
    /// Where to put the reader once the article is laid out: a restored position, or its end.
    var pendingAnchor: TextAnchor?
    var pendingLine: Int?
    var pendingEnd = false
    /// The place a re-layout (new width, window or whole article) started from, with where
    /// it put the top: while the reader stays there, the same place is used again, so the
    /// width can change back and forth without the text drifting.
    var keptAnchor: (anchor: TextAnchor, article: Int, top: Int)?
    /// The window, as last seen by `handle` or `draw`.
    var size = (width: 80, height: 24)
    /// A line for the status bar (a search result, "no match"…), until the next key.
    var message: String?
    var messageIsError = false

    // Search (ReaderSearch.swift)
    var prompt = ""
    var query: String?
    var matchCache: (article: Int, width: Int, matches: [SearchMatch])?
    var currentMatch: (article: Int, index: Int)?

    // Contents (ReaderContents.swift)
    var contentsEntries: [ContentsEntry]?
    var contentsSelection = 0
    var contentsScroll = 0

    // Comics (ReaderComics.swift)
    var zoomIndex = 0
    var pan = (x: 0, y: 0)
    var zoomedPageSize: (columns: Int, rows: Int)?
    /// The page the last frame showed (pictures of pages far from it are let go).
    var drawnPage: Int?

    /// Each article's share of the issue for the progress figure: its size in bytes (a
    /// comic's pages count the same).
    let weights: [Double]

    init(issue: Issue, library: Library, painter: CoverPainter, theme: Theme, preferences: ReaderPreferences = ReaderPreferences()) throws {
        self.issue = issue
        root = library.contentDirectory(for: issue)
        content = try IssueReader.open(directory: root)
        self.painter = painter
        self.theme = theme
        self.preferences = preferences
        self.library = library
        let stored = issue.readingPosition.flatMap { try? JSONDecoder().decode(ReadingPosition.self, from: Data($0.utf8)) }
        textWidth = Self.clampWidth(preferences.textWidth ?? stored?.width ?? Self.defaultTextWidth)
        let comic = content.format == .cbz
        let root = self.root
        weights = content.readingOrder.map { resource in
            if comic { return 1 }
            let file = try? IssueReader.resolve(resource.path, in: root)
            let size = file.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber }
            return max(1, size?.doubleValue ?? 1)
        }
        if let stored {
            article = max(0, min(comic ? (stored.page ?? stored.article) : stored.article, max(0, content.readingOrder.count - 1)))
            if let block = stored.block {
                pendingAnchor = TextAnchor(block: max(0, block), offset: max(0, stored.offset ?? 0))
            } else if stored.line > 0 {
                pendingLine = stored.line
            }
        }
        loadArticle()
    }

    var isComic: Bool { content.format == .cbz }
    var articleCount: Int { content.readingOrder.count }
    static func clampWidth(_ width: Int) -> Int { max(textWidths.lowerBound, min(textWidths.upperBound, width)) }

    // MARK: Geometry

    /// Rows of text: below the title bar and a blank row, above the status and hint bars.
    var visibleRows: Int { max(1, size.height - 4) }
    /// The text column: the chosen width, narrowed to the window.
    var columnWidth: Int { max(10, min(textWidth, size.width - 4)) }

    // MARK: Position

    func savePosition(library: Library) {
        let position = self.position
        guard let data = try? JSONEncoder().encode(position) else { return }
        try? library.saveReadingPosition(issue, position: String(decoding: data, as: UTF8.self), progress: issueProgress)
        saved = (position, Date())
    }

    /// Saves the place when it moved and the last save is more than a second old.
    func saveIfMoved() {
        guard mode == .reading, saved?.position != position else { return }
        if let saved, Date().timeIntervalSince(saved.at) < 1 { return }
        savePosition(library: library)
    }

    var position: ReadingPosition {
        var position = ReadingPosition(article: article, line: isComic ? 0 : top)
        if isComic {
            position.page = article
        } else if let anchor = topAnchor {
            position.block = anchor.block
            position.offset = anchor.offset
        }
        if textWidth != Self.defaultTextWidth { position.width = textWidth }
        return position
    }

    /// How far through the whole issue the reader is, 0…1: the articles before this one by
    /// size, and of this one what has been shown.
    var issueProgress: Double {
        guard weights.indices.contains(article) else { return 0 }
        let total = weights.reduce(0, +)
        let before = weights[..<article].reduce(0, +)
        var within = 1.0
        if !isComic {
            if let text, !text.lines.isEmpty {
                within = min(1, Double(top + visibleRows) / Double(max(1, text.estimatedLineCount)))
                if text.isComplete && top + visibleRows >= text.lines.count { within = 1 }
                within *= firstPartShare
            } else {
                within = document?.blocks.isEmpty == true ? 1 : 0
            }
        }
        return total > 0 ? min(1, (before + weights[article] * within) / total) : 0
    }

    // MARK: Input

    /// Handles a key the reader owns; false for keys the app handles.
    func handle(_ key: Key, width: Int, height: Int) -> Bool {
        size = (width, height)
        switch mode {
        case .contents: return handleContentsKey(key)
        case .searchPrompt: return handlePromptKey(key)
        case .reading: break
        }
        message = nil
        messageIsError = false
        let handled = isComic ? handleComicKey(key) : handleTextKey(key)
        if handled { saveIfMoved() }
        return handled
    }

    private func handleTextKey(_ key: Key) -> Bool {
        switch key {
        case .down, .character("j"), .enter: scroll(by: 1)
        case .up, .character("k"): scroll(by: -1)
        case .pageDown, .character(" "), .character("f"): pageForward()
        case .pageUp, .character("b"): pageBackward()
        case .character("g"), .home: top = 0
        case .character("G"), .end: goToEnd()
        case .right, .character("l"), .character("]"): goTo(article: article + 1)
        case .left, .character("h"), .character("["): goTo(article: article - 1)
        case .character("t"): openContents()
        case .character("/"): startPrompt()
        case .character("n"): findNext(forward: true)
        case .character("N"): findNext(forward: false)
        case .character("+"), .character("="): changeWidth(by: Self.widthStep)
        case .character("-"): changeWidth(by: -Self.widthStep)
        default: return false
        }
        return true
    }

    /// Mouse wheel and the app's scrolling: lines of text, or pages of a comic.
    func scroll(by delta: Int, height: Int) {
        size.height = height
        if isComic { turnPage(forward: delta > 0); return }
        scroll(by: delta)
    }

    func scroll(by delta: Int) {
        guard var text = prepareText() else { return }
        let target = max(0, top + delta)
        text.ensureLines(target + visibleRows + 1)
        if needsWholeArticle(beyond: target + visibleRows), let whole = prepareText() {
            text = whole
            text.ensureLines(target + visibleRows + 1)
        }
        top = min(target, max(0, text.lines.count - visibleRows))
    }

    private func pageForward() {
        guard var text = prepareText() else { goTo(article: article + 1); return }
        text.ensureLines(top + 2 * visibleRows + 1)
        if needsWholeArticle(beyond: top + 2 * visibleRows), let whole = prepareText() {
            text = whole
            text.ensureLines(top + 2 * visibleRows + 1)
        }
        if top + visibleRows >= text.lines.count && text.isComplete {
            if !goTo(article: article + 1) { message = "The end of the issue." }
        } else {
            scroll(by: max(1, visibleRows - 1))
        }
    }

    private func pageBackward() {
        if top == 0 {
            goTo(article: article - 1, atEnd: true)
        } else {
            scroll(by: -max(1, visibleRows - 1))
        }
    }

    private func goToEnd() {
        adoptWholeDocument(wait: true)
        guard let text = prepareText() else { return }
        text.layoutAll()
        top = max(0, text.lines.count - visibleRows)
    }

    /// Opens another article (or page); false when there is none.
    @discardableResult
    func goTo(article next: Int, atEnd: Bool = false) -> Bool {
        guard next >= 0, next < articleCount, next != article else { return false }
        article = next
        top = 0
        pendingAnchor = nil
        pendingLine = nil
        pendingEnd = atEnd
        pan = (0, 0)
        loadArticle()
        return true
    }

    private func changeWidth(by delta: Int) {
        let wanted = Self.clampWidth(textWidth + delta)
        guard wanted != textWidth else {
            message = "Text width \(textWidth) (\(Self.textWidths.lowerBound)–\(Self.textWidths.upperBound) columns)"
            return
        }
        textWidth = wanted
        preferences.textWidth = wanted
        prepareText()
        message = "Text width \(wanted) columns" + (wanted > size.width - 4 ? " (the window shows \(columnWidth))" : "")
    }

    // MARK: Loading and layout

    func loadArticle() {
        document = nil
        keptAnchor = nil
        pending = nil
        firstPartShare = 1
        text = nil
        loadError = nil
        guard content.readingOrder.indices.contains(article) else { loadError = "This issue has no articles."; return }
        if isComic { return }
        let resource = content.readingOrder[article]
        do {
            let (data, kind) = try ArticleDocument.read(resource, in: root)
            if let first = ArticleDocument.firstPart(of: data, kind) {
                document = ArticleDocument.parse(first, kind)
                firstPartShare = Double(first.count) / Double(max(1, data.count))
                let redraw = painter.readyFlag
                pending = PendingDocument(data: data, kind: kind) { redraw.set() }
            } else {
                document = ArticleDocument.parse(data, kind)
            }
        } catch {
            loadError = "cannot read \(resource.path): \(error)"
        }
    }

    /// Switches to an article already read and laid out (where a search found its query).
    func show(article index: Int, laidOut: ArticleText) {
        article = index
        top = 0
        pan = (0, 0)
        pendingAnchor = nil
        pendingLine = nil
        pendingEnd = false
        keptAnchor = nil
        pending = nil
        firstPartShare = 1
        loadError = nil
        document = laidOut.document
        text = laidOut
    }

    /// Takes in the whole of a long article once read (with `wait`, waits for it), keeping
    /// the same text on screen. True when it did.
    @discardableResult
    func adoptWholeDocument(wait: Bool) -> Bool {
        guard let pending, let whole = pending.document(wait: wait) else { return false }
        self.pending = nil
        firstPartShare = 1
        pendingAnchor = topAnchor
        document = whole
        text = nil
        matchCache = nil
        return true
    }

    /// Waits for the whole article when the first part's end is in reach.
    private func needsWholeArticle(beyond line: Int) -> Bool {
        guard pending != nil, let text, text.isComplete, line >= text.lines.count else { return false }
        return adoptWholeDocument(wait: true)
    }

    /// The article laid out at the current column width. A new width keeps the same text
    /// at the top of the screen (not the same line number).
    @discardableResult
    func prepareText() -> ArticleText? {
        adoptWholeDocument(wait: pending != nil && (pendingLine != nil || pendingEnd
                                                     || (pendingAnchor.map { $0.block >= (document?.blocks.count ?? 0) - 1 } ?? false)))
        guard let document else { return nil }
        let column = columnWidth
        if let text, text.width == column { return text }
        let place = topAnchor
        let fresh = ArticleText(document: document, width: column)
        text = fresh
        if let place {
            top = fresh.line(for: place)
            keptAnchor = (place, article, top)
        } else if let pendingLine {
            fresh.ensureLines(pendingLine + 1)
            top = min(pendingLine, max(0, fresh.lines.count - 1))
        }
        pendingAnchor = nil
        pendingLine = nil
        if pendingEnd {
            pendingEnd = false
            fresh.layoutAll()
            top = max(0, fresh.lines.count - visibleRows)
        }
        fresh.ensureLines(top + visibleRows + 1)
        return fresh
    }

    /// The place at the top of the screen, independent of the width.
    var topAnchor: TextAnchor? {
        if let kept = keptAnchor, kept.article == article, kept.top == top { return kept.anchor }
        guard let text, !text.lines.isEmpty else { return pendingAnchor }
        return text.anchor(ofLine: top)
    }

    var articleTitle: String {
        if let title = document?.title, !title.isEmpty { return title }
        let path = content.readingOrder.indices.contains(article) ? content.readingOrder[article].path : ""
        return content.tableOfContents.first { $0.path.split(separator: "#").first.map(String.init) == path }?.title ?? ""
    }

    // MARK: Status and keys

    /// What the app's status line shows while reading: the prompt or a message on the left,
    /// the progress through the issue on the right.
    var statusLine: (text: String?, isError: Bool, right: String) {
        let percent = Int((issueProgress * 100).rounded(.down))
        let text: String? = mode == .searchPrompt ? "/" + prompt + "▏" : message
        return (text, messageIsError, "read \(percent)% ")
    }

    var hints: String {
        switch mode {
        case .contents: return "↑↓ choose  Enter open  q/Esc back"
        case .searchPrompt: return "type what to find  Enter search  Esc cancel"
        case .reading:
            return isComic
                ? "Space/Bksp page  +/- zoom  arrows pan  t contents  g/G first/last  ? help  q back"
                : "↑↓ scroll  Space page  ←→ article  t contents  / search  n/N match  +/- width  q back  ? help"
        }
    }

    /// The reader's part of the `?` help.
    static let helpLines: [(String, String)] = [
        ("↑↓ j k, Enter", "scroll a line"),
        ("Space PgDn, b PgUp", "page down, up (on into the next article)"),
        ("← → h l [ ]", "previous, next article"),
        ("g G", "start, end of the article"),
        ("t", "table of contents (Enter jumps, q back)"),
        ("/", "search this article, then the next ones"),
        ("n N", "next, previous match"),
        ("+ -", "text width, \(textWidths.lowerBound)–\(textWidths.upperBound) columns"),
        ("Comics:", ""),
        ("Space PgDn, Bksp PgUp", "next, previous page (manga: ← is next)"),
        ("+ - z Z", "zoom in, out"),
        ("←↓↑→ hjkl", "pan when zoomed, else turn the page"),
        ("q, Esc", "back to the store; the place is kept"),
    ]

    // MARK: Drawing

    func draw(into canvas: inout Canvas, theme: Theme) {
        size = (canvas.width, canvas.height)
        let width = canvas.width
        let height = canvas.height
        let paper = Cell(glyph: " ", style: theme.readerText)
        canvas.fill(Rect(x: 0, y: 0, width: width, height: height - 2), with: paper)
        let header = Sanitizer.clean(content.metadata.title ?? issue.title)
        canvas.fill(Rect(x: 0, y: 0, width: width, height: 1), with: Cell(glyph: " ", style: theme.statusLine))
        canvas.put(" " + DisplayWidth.truncate(header, to: width / 2), x: 0, y: 0, style: theme.statusLine.with(.bold))

        if let loadError {
            canvas.put(loadError, x: 2, y: 2, style: theme.error, limit: width - 2)
            return
        }
        if mode == .contents {
            drawPlace("contents", into: &canvas)
            drawContents(into: &canvas)
            return
        }
        if isComic {
            let zoom = zoomIndex > 0 ? " · zoom \(Int(Self.zoomLevels[zoomIndex] * 100))%" : ""
            drawPlace("page \(article + 1) of \(articleCount)\(zoom)", into: &canvas)
            drawPage(into: &canvas)
            return
        }
        drawPlace("article \(article + 1) of \(articleCount)", into: &canvas)
        guard let text = prepareText() else { return }
        let column = text.width
        let left = (width - column) / 2
        text.ensureLines(top + visibleRows)
        for row in 0..<visibleRows {
            let index = top + row
            guard index < text.lines.count else { break }
            drawLine(text.lines[index], x: left, y: 2 + row, width: column, topOfScreen: row == 0, into: &canvas)
        }
        drawMatches(left: left, into: &canvas)
    }

    private func drawPlace(_ text: String, into canvas: inout Canvas) {
        canvas.put(text, x: max(0, canvas.width - DisplayWidth.of(text) - 1), y: 0, style: theme.statusLine)
    }

    private func drawLine(_ line: LayoutLine, x: Int, y: Int, width: Int, topOfScreen: Bool, into canvas: inout Canvas) {
        switch line.kind {
        case .blank:
            var column = x + line.indent
            for span in line.spans {
                column = canvas.put(span.text, x: column, y: y, style: style(for: span.style), limit: x + width + 1)
            }
        case .rule:
            canvas.put(String(repeating: "─", count: width / 3), x: x + width / 3, y: y, style: theme.readerQuote)
        case .image(let source, let alt, let rows, let row):
            drawImageRow(source: source, alt: alt, rows: rows, row: row, x: x + line.indent, y: y, width: width - line.indent,
                         labelled: row == 0 || topOfScreen, into: &canvas)
        case .text:
            var column = x + line.indent
            for span in line.spans {
                column = canvas.put(span.text, x: column, y: y, style: style(for: span.style), limit: x + width + 1)
            }
        }
    }

    private func style(for textStyle: TextStyle) -> Style {
        var style = theme.readerText
        if textStyle.contains(.heading) { style = theme.readerHeading }
        if textStyle.contains(.quote) { style = theme.readerQuote }
        if textStyle.contains(.code) { style = theme.readerCode }
        if textStyle.contains(.link) { style = theme.readerLink }
        if textStyle.contains(.highlight) { style = theme.readerMatch }
        if textStyle.contains(.bold) { style.attributes.insert(.bold) }
        if textStyle.contains(.italic) { style.attributes.insert(.italic) }
        if textStyle.contains(.underline) { style.attributes.insert(.underline) }
        if textStyle.contains(.strike) { style.attributes.insert(.strike) }
        return style
    }

    /// One row of a picture; `labelled` is the row that shows the description when the
    /// picture cannot be drawn (its first, or the first on screen).
    private func drawImageRow(source: String, alt: String, rows: Int, row: Int, x: Int, y: Int, width: Int, labelled: Bool,
                              into canvas: inout Canvas) {
        let file = imageFile(source)
        guard let file, let picture = painter.picture(file: file, columns: width, rows: rows) else {
            // The description stands in for a picture that cannot be drawn; one still
            // rendering leaves its rows blank for a moment.
            if labelled, file.map({ painter.failed(file: $0, columns: width, rows: rows) }) ?? true {
                canvas.put("[image: \(Sanitizer.clean(alt))]", x: x, y: y, style: theme.readerQuote, limit: x + width)
            }
            return
        }
        guard row < picture.rows else { return }
        // Cells the picture leaves uncoloured show the paper.
        let paper = Style(foreground: theme.readerText.background, background: theme.readerText.background)
        CoverPainter.draw(picture, into: &canvas, x: x + (width - picture.columns) / 2, y: y, behind: paper,
                          part: Rect(x: 0, y: row, width: picture.columns, height: 1))
    }

    /// An image link inside the current article, resolved inside the issue; nil if it
    /// would leave the issue or does not exist.
    private func imageFile(_ source: String) -> URL? {
        guard content.readingOrder.indices.contains(article),
              let file = try? IssueReader.resolve(link: source, from: content.readingOrder[article].path, in: root),
              FileManager.default.fileExists(atPath: file.path) else { return nil }
        return file
    }
}
