import Foundation
import IssueArchive
import NewsstandKit
import Pictures
import Terminal
import TextLayout

/// Articles as reflowed text: one article at a time, laid out at the chosen width in the
/// window, scrolled by lines and pages, on into the next article. Search is in
/// `TextPager+Search.swift`, drawing in `TextPager+Render.swift`.
struct TextPager: ReaderPager {
    static let defaultTextWidth = 80
    static let textWidths = 30...200
    static let widthStep = 10

    let content: IssueContent
    let root: URL
    let painter: CoverPainter
    let theme: Theme
    /// The width chosen with + and -, kept for the session (not a place: not saved with it).
    let preferences: ReaderPreferences
    /// Each article's share of the issue for the progress figure: its size in bytes.
    let weights: [Double]
    /// Where a PDF page's words come from.
    let texts: DocumentTexts
    /// A PDF issue's pages as plain text, for finding pages that may hold a query; nil for
    /// articles. Its presence makes each "article" a page of the document.
    let pageTexts: DocumentPageTexts?

    private(set) var index = 0
    /// The first line shown, in `text.lines`.
    var top = 0
    var frame = ReaderFrame(width: 80, height: 24)
    var document: TextDocument?
    /// A long article opens from its first part; the whole is read meanwhile, and taken in
    /// (`adoptWholeDocument`) when ready or as soon as something needs all of it.
    var pending: PendingDocument?
    /// The first part's share of the whole article's bytes, while `pending`.
    var firstPartShare = 1.0
    /// The article laid out at the column width (lazily, see `ArticleText`).
    var text: ArticleText?
    private(set) var loadError: String?
    /// Where to put the reader once the article is laid out: a restored place, or its end.
    var pendingAnchor: TextAnchor?
    var pendingEnd = false
    /// The place a re-layout (new width, window or whole article) started from, with where
    /// it put the top: while the reader stays there, the same place is used again, so the
    /// width can change back and forth without the text drifting.
    var keptAnchor: (anchor: TextAnchor, article: Int, top: Int)?

    /// Pictures of this article that cannot be drawn (missing, undecodable), by source as
    /// written: they are laid out as their descriptions.
    var undrawable: Set<String> = []
    /// Pictures of this article as drawn at the column width `drawnPicturesWidth`: the box
    /// each was fitted into first, and the size it took there. Laid out again at that size,
    /// a wide picture takes the rows it needs rather than the rows guessed for it, and is
    /// still drawn from the same box (the renderer gives a shorter box another picture).
    var drawnPictures: [String: (box: CellSize, size: TextLayout.PixelSize)] = [:]
    var drawnPicturesWidth = 0
    /// The link chosen with Tab, on screen (`TextLinks.swift`).
    var chosenLink: LinkPlace?
    /// Where following links started from, the latest last: Backspace goes back to it.
    var linkTrail: [(article: Int, anchor: TextAnchor?)] = []

    // Search (TextPager+Search.swift)
    var query: String?
    /// The query's matches in an article at a width, found in `settle`.
    var found: (article: Int, width: Int, matches: [SearchMatch])?
    var currentMatch: (article: Int, index: Int)?

    init(content: IssueContent, root: URL, painter: CoverPainter, theme: Theme, preferences: ReaderPreferences, at start: Locator?,
         texts: DocumentTexts = .shared, pageTexts: DocumentPageTexts? = nil) {
        self.content = content
        self.root = root
        self.painter = painter
        self.theme = theme
        self.preferences = preferences
        self.texts = texts
        self.pageTexts = pageTexts
        // A document's pages count the same; an article counts by its size.
        weights = pageTexts != nil ? content.readingOrder.map { _ in 1 } : content.readingOrder.map { resource in
            let file = try? IssueReader.resolve(resource.path, in: root)
            let size = file.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber }
            return max(1, size?.doubleValue ?? 1)
        }
        if let start, !content.readingOrder.isEmpty {
            index = start.index(in: content.readingOrder)
            pendingAnchor = start.text.map { TextAnchor(block: $0.block, offset: $0.offset) }
        }
        loadArticle()
    }

    static func clampWidth(_ width: Int) -> Int { max(textWidths.lowerBound, min(textWidths.upperBound, width)) }

    var textWidth: Int { Self.clampWidth(preferences.textWidth ?? Self.defaultTextWidth) }
    var articleCount: Int { content.readingOrder.count }
    var visibleRows: Int { frame.visibleRows }
    var columnWidth: Int { frame.column(textWidth) }
    var place: String {
        guard pageTexts != nil, content.readingOrder.indices.contains(index) else { return "article \(index + 1) of \(articleCount)" }
        return PagePlace.describe(index, of: articleCount, label: content.readingOrder[index].label)
    }
    /// A document page without words: the line that says so, and offers the page view.
    var pageWithoutText: String? {
        guard pageTexts != nil, loadError == nil, pending == nil, document?.blocks.isEmpty == true else { return nil }
        return "Page \(index + 1) has no text layer: v shows the page."
    }
    var canSearch: Bool { true }
    /// Backspace goes back from a followed link, and leaves the reader otherwise.
    var takesBackspace: Bool { !linkTrail.isEmpty }
    var hints: String? {
        if chosenLink != nil { return "Enter follow link  Tab next link  Shift-Tab previous  ? help  q back" }
        return pageTexts == nil ? nil
            : "v pages view  / search  t contents  Space page  ←→ page  ↑↓ scroll  n/N match  +/- width  ? help  q back"
    }

    // MARK: Place

    func locator(updated: Date) -> Locator {
        let resource = content.readingOrder.indices.contains(index) ? content.readingOrder[index].path : ""
        let anchor = topAnchor
        // A document's page is a page, in either view.
        return Locator(resource: resource, progression: withinArticle, totalProgression: progress,
                       page: pageTexts == nil ? nil : index, text: anchor.map { Locator.TextPlace(block: $0.block, offset: $0.offset) }, updated: updated)
    }

    /// How much of this article has been shown, 0…1.
    private var withinArticle: Double {
        guard let text, !text.lines.isEmpty else { return document?.blocks.isEmpty == true ? 1 : 0 }
        var within = min(1, Double(top + visibleRows) / Double(max(1, text.estimatedLineCount)))
        if text.isComplete && top + visibleRows >= text.lines.count { within = 1 }
        return within * firstPartShare
    }

    /// The articles before this one by size, and of this one what has been shown; nothing
    /// at the start of the issue (its first screen is not yet read) unless all of it is there.
    var progress: Double {
        guard weights.indices.contains(index) else { return 0 }
        if index == 0, top == 0, !isWholeIssueOnScreen { return 0 }
        let total = weights.reduce(0, +)
        let before = weights[..<index].reduce(0, +)
        return total > 0 ? min(1, (before + weights[index] * withinArticle) / total) : 0
    }

    private var isWholeIssueOnScreen: Bool {
        guard articleCount == 1, let text else { return false }
        return text.isComplete && pending == nil && text.lines.count <= visibleRows
    }

    /// The place at the top of the screen, independent of the width.
    var topAnchor: TextAnchor? {
        if let kept = keptAnchor, kept.article == index, kept.top == top { return kept.anchor }
        guard let text, !text.lines.isEmpty else { return pendingAnchor }
        return text.anchor(ofLine: top)
    }

    // MARK: Input

    mutating func resize(to frame: ReaderFrame) {
        self.frame = frame
    }

    mutating func handle(_ key: Key) -> ReaderNote? {
        switch key {
        case .enter where chosenLink != nil: return followChosenLink()
        case .down, .character("j"), .enter: scroll(by: 1)
        case .tab: return chooseLink(forward: true)
        case .backTab: return chooseLink(forward: false)
        case .backspace: return goBack()
        case .up, .character("k"): scroll(by: -1)
        case .pageDown, .character(" "), .character("f"): return pageForward()
        case .pageUp, .character("b"): pageBackward()
        case .character("g"), .home: top = 0
        case .character("G"), .end: goToEnd()
        case .right, .character("l"), .character("]"): goTo(article: index + 1)
        case .left, .character("h"), .character("["): goTo(article: index - 1)
        case .character("+"), .character("="): return changeWidth(by: Self.widthStep)
        case .character("-"): return changeWidth(by: -Self.widthStep)
        default: break
        }
        return nil
    }

    mutating func wheel(_ steps: Int) -> ReaderNote? {
        scroll(by: steps)
        return nil
    }

    mutating func scroll(by delta: Int) {
        guard var text = prepareText() else { return }
        let target = max(0, top + delta)
        text.ensureLines(target + visibleRows + 1)
        if needsWholeArticle(beyond: target + visibleRows), let whole = prepareText() {
            text = whole
            text.ensureLines(target + visibleRows + 1)
        }
        top = min(target, max(0, text.lines.count - visibleRows))
    }

    private mutating func pageForward() -> ReaderNote? {
        guard var text = prepareText() else { goTo(article: index + 1); return nil }
        text.ensureLines(top + 2 * visibleRows + 1)
        if needsWholeArticle(beyond: top + 2 * visibleRows), let whole = prepareText() {
            text = whole
            text.ensureLines(top + 2 * visibleRows + 1)
        }
        if top + visibleRows >= text.lines.count && text.isComplete {
            if !goTo(article: index + 1) { return ReaderNote(text: "The end of the issue.") }
        } else {
            scroll(by: max(1, visibleRows - 1))
        }
        return nil
    }

    private mutating func pageBackward() {
        if top == 0 {
            goTo(article: index - 1, atEnd: true)
        } else {
            scroll(by: -max(1, visibleRows - 1))
        }
    }

    private mutating func goToEnd() {
        adoptWholeDocument(wait: true)
        guard let text = prepareText() else { return }
        text.layoutAll()
        top = max(0, text.lines.count - visibleRows)
    }

    /// Opens another article; false when there is none.
    @discardableResult
    mutating func goTo(article next: Int, atEnd: Bool = false) -> Bool {
        guard next >= 0, next < articleCount, next != index else { return false }
        index = next
        top = 0
        pendingAnchor = nil
        pendingEnd = atEnd
        loadArticle()
        return true
    }

    /// Steps from the width in use, never past what the window shows, and says the width
    /// that is shown (a wider choice the window cut would change nothing on screen).
    private mutating func changeWidth(by delta: Int) -> ReaderNote {
        let wanted = Self.clampWidth(columnWidth + delta)
        let shown = frame.column(wanted)
        let limitedByWindow = shown < wanted
        guard shown != columnWidth else {
            if delta > 0 && limitedByWindow {
                return ReaderNote(text: "Text width \(shown) columns: as wide as the window allows")
            }
            return ReaderNote(text: "Text width \(shown) (\(Self.textWidths.lowerBound)–\(Self.textWidths.upperBound) columns)")
        }
        preferences.textWidth = Self.clampWidth(shown)
        prepareText()
        return ReaderNote(text: "Text width \(shown) columns" + (limitedByWindow ? ": as wide as the window allows" : ""))
    }

    mutating func open(_ entry: ContentsEntry) {
        if entry.article != index {
            goTo(article: entry.article)
        } else {
            top = 0
        }
        guard let fragment = entry.fragment else { return }
        if document?.anchors[fragment] == nil { adoptWholeDocument(wait: true) }
        guard let block = document?.anchors[fragment] else { return }
        pendingAnchor = nil
        if let text = prepareText(), let line = text.firstLine(ofBlock: block) {
            top = line
            text.ensureLines(top + visibleRows + 1)
        }
    }

    mutating func settle() {
        guard var text = prepareText() else { return }
        text.ensureLines(top + visibleRows + 1)
        // Pictures found undrawable on screen give way to their descriptions, and drawn ones
        // take the rows they need, until nothing on screen changes.
        while case let found = picturesToLayOutAgain(in: text), !found.lost.isEmpty || !found.drawn.isEmpty {
            undrawable.formUnion(found.lost)
            drawnPictures.merge(found.drawn) { old, _ in old }
            let atEnd = top > 0 && text.isComplete && top + visibleRows >= text.lines.count
            guard let fresh = relayout(at: topAnchor) else { return }
            text = fresh
            if atEnd {
                // The end stays in view (after G), though the article grew shorter.
                text.layoutAll()
                top = max(0, text.lines.count - visibleRows)
            }
            text.ensureLines(top + visibleRows + 1)
        }
        if let chosen = chosenLink, !(top..<(top + visibleRows)).contains(chosen.line) { chosenLink = nil }
        if query != nil { _ = currentMatches() }
    }

    /// Pictures on screen to lay out again: those that cannot be drawn (the file is missing
    /// or the painter failed), and drawn ones at least two rows shorter than the rows kept
    /// for them, with their size as drawn (a cell is two pixels tall in the layout's terms).
    private func picturesToLayOutAgain(in text: ArticleText)
        -> (lost: Set<String>, drawn: [String: (box: CellSize, size: TextLayout.PixelSize)]) {
        var lost: Set<String> = []
        var drawn: [String: (box: CellSize, size: TextLayout.PixelSize)] = [:]
        for line in text.lines[min(top, text.lines.count)..<min(text.lines.count, top + visibleRows)] {
            guard case .image(let source, _, let rows, _) = line.kind, !undrawable.contains(source) else { continue }
            guard let picture = pictureSource(source) else { lost.insert(source); continue }
            let box = pictureBox(of: line, width: text.width)
            switch painter.state(of: picture, fittedIn: box) {
            case .failed: lost.insert(source)
            case .ready(let size) where size.rows + 2 <= rows && drawnPictures[source] == nil:
                drawn[source] = (box, TextLayout.PixelSize(width: max(1, size.columns), height: max(1, size.rows) * 2))
            default: break
            }
        }
        return (lost, drawn)
    }

    /// Lays the article out again (pictures became descriptions, a link led back), with
    /// `anchor` at the top.
    @discardableResult
    mutating func relayout(at anchor: TextAnchor?) -> ArticleText? {
        text = nil
        keptAnchor = nil
        found = nil
        pendingAnchor = anchor
        return prepareText()
    }

    // MARK: Loading and layout

    mutating func loadArticle() {
        document = nil
        keptAnchor = nil
        undrawable = []
        drawnPictures = [:]
        pending = nil
        firstPartShare = 1
        text = nil
        loadError = nil
        guard content.readingOrder.indices.contains(index) else { loadError = "This issue has no articles."; return }
        let resource = content.readingOrder[index]
        do {
            let (data, kind) = try ArticleDocument.read(resource, in: root, texts: texts)
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
    mutating func show(article: Int, laidOut: ArticleText) {
        index = article
        top = 0
        pendingAnchor = nil
        pendingEnd = false
        keptAnchor = nil
        pending = nil
        firstPartShare = 1
        loadError = nil
        undrawable = []
        drawnPictures = [:]
        chosenLink = nil
        document = laidOut.document
        text = laidOut
    }

    /// Takes in the whole of a long article once read (with `wait`, waits for it), keeping
    /// the same text on screen. True when it did.
    @discardableResult
    mutating func adoptWholeDocument(wait: Bool) -> Bool {
        guard let pending, let whole = pending.document(wait: wait) else { return false }
        self.pending = nil
        firstPartShare = 1
        pendingAnchor = topAnchor
        document = whole
        text = nil
        found = nil
        return true
    }

    /// Waits for the whole article when the first part's end is in reach.
    private mutating func needsWholeArticle(beyond line: Int) -> Bool {
        guard pending != nil, let text, text.isComplete, line >= text.lines.count else { return false }
        return adoptWholeDocument(wait: true)
    }

    /// The article laid out at the current column width (the whole article taken in when
    /// it is ready). A new width keeps the same text at the top of the screen (not the
    /// same line number).
    @discardableResult
    mutating func prepareText() -> ArticleText? {
        adoptWholeDocument(wait: pending != nil && (pendingEnd
                                                    || (pendingAnchor.map { $0.block >= (document?.blocks.count ?? 0) - 1 } ?? false)))
        guard let document else { return nil }
        let column = columnWidth
        if let text, text.width == column { return text }
        let place = topAnchor
        if column != drawnPicturesWidth { (drawnPictures, drawnPicturesWidth) = ([:], column) }
        let fresh = ArticleText(document: document.describingPictures(undrawable), width: column,
                                pictureSizes: drawnPictures.mapValues(\.size))
        text = fresh
        chosenLink = nil
        if let place {
            top = fresh.line(for: place)
            keptAnchor = (place, index, top)
        }
        pendingAnchor = nil
        if pendingEnd {
            pendingEnd = false
            fresh.layoutAll()
            top = max(0, fresh.lines.count - visibleRows)
        }
        fresh.ensureLines(top + visibleRows + 1)
        return fresh
    }
}
