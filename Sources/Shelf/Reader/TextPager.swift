import Foundation
import IssueArchive
import NewsstandKit
import Pictures
import Terminal
import TextLayout

/// Articles as reflowed text: one article at a time, laid out at the chosen width in the
/// window, scrolled by lines and pages, on into the next article. Articles arrive as
/// messages (`receive`) after the pager asked for them (`takeRequests`): it reads nothing
/// itself. Search is in `TextSearch.swift`, drawing in `TextRender.swift`, links in
/// `TextLinks.swift`.
struct TextPager: ReaderPager {
    static let defaultTextWidth = 80
    static let textWidths = 30...200
    static let widthStep = 10

    let content: IssueContent
    let theme: Theme
    /// The layouts, memoised outside the pager by `LayoutKey`.
    let layouts: ArticleLayouts
    /// The width chosen with + and -, nil until then (a preference, not a place).
    private(set) var chosenTextWidth: Int?
    /// Each article's share of the issue for the progress figure: its size in bytes.
    let weights: [Double]
    /// The reading order is a PDF's pages: each "article" is a page of the document.
    let isDocument: Bool

    private(set) var index = 0
    /// The first line shown, in `text.lines`.
    var top = 0
    var frame = ReaderFrame(width: 80, height: 24)
    /// Articles as read: the one shown and the ones next to it, read ahead.
    var articles: [Int: LoadedArticle] = [:]
    /// Articles asked for and not here yet (or, for a long one, not whole yet).
    var asked: Set<Int> = []
    /// Reads to ask for, taken by the model after each message.
    var requests: [ReaderLoad] = []
    /// What was asked while the article (or the whole of a long one) was still on its
    /// way, done again in order when it arrives.
    var waiting: [Postponed] = []
    /// The layout shown: the article at the column width.
    var textKey: LayoutKey?
    private(set) var loadError: String?
    /// Where to put the reader once the article is laid out: a restored place (`anchor`), or
    /// how far through the article it is when that is all a place says (`share`:
    /// `Locator.progression` without `text`; the screen that ends there); or its end.
    enum PendingPlace: Equatable { case anchor(TextAnchor), share(Double) }
    var pendingPlace: PendingPlace?
    var pendingEnd = false
    var pendingAnchor: TextAnchor? { if case .anchor(let anchor) = pendingPlace { anchor } else { nil } }
    var pendingShare: Double? { if case .share(let share) = pendingPlace { share } else { nil } }
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
    /// The pictures as prepared after the last frame (`wantedPictures`).
    var pictures = PreparedPictures()
    /// The link chosen with Tab, on screen (`TextLinks.swift`).
    var chosenLink: LinkPlace?
    /// Where following links started from, the latest last: Backspace goes back to it.
    var linkTrail: [(article: Int, anchor: TextAnchor?)] = []

    // Search (TextSearch.swift)
    var query: String?
    /// The query's matches in an article at a width, found in `settle`.
    var found: (article: Int, width: Int, matches: [SearchMatch])?
    var currentMatch: (article: Int, index: Int)?
    /// A search beyond this article is on its way (`ReaderLoad.findArticle`).
    var searching = false

    /// The words being chosen (`TextSelection.swift`).
    var selection: TextSelection?
    /// The issue's highlights, and those of the article shown found again (`TextHighlights.swift`).
    var highlights: [Highlight] = []
    var marks: [HighlightMark] = []
    var marksKey: MarksKey?
    var painted = PaintedText()

    /// What waits for an article to arrive.
    enum Postponed {
        case key(Key)
        case search(String)
        case findNext(forward: Bool)
        /// The match `v` carried from the page view.
        case match(Int)
        case open(ContentsEntry)
        case highlight(Highlight)
    }

    init(content: IssueContent, theme: Theme, layouts: ArticleLayouts, textWidth: Int?, weights: [Double],
         isDocument: Bool, articles: [Int: LoadedArticle], at start: Locator?) {
        self.content = content
        self.theme = theme
        self.layouts = layouts
        chosenTextWidth = textWidth
        self.weights = weights
        self.isDocument = isDocument
        self.articles = articles
        if let start, !content.readingOrder.isEmpty {
            index = start.index(in: content.readingOrder)
            if let place = start.text {
                pendingPlace = .anchor(TextAnchor(block: place.block, offset: place.offset))
            } else if !isDocument, start.progression > 0 {
                pendingPlace = .share(start.progression)
            }
        }
        loadArticle()
    }

    static func clampWidth(_ width: Int) -> Int { max(textWidths.lowerBound, min(textWidths.upperBound, width)) }

    var textWidth: Int { Self.clampWidth(chosenTextWidth ?? Self.defaultTextWidth) }
    /// The article shown, as read (its first part while the whole is on its way).
    var document: TextDocument? { articles[index]?.document }
    /// Only the first part of a long article is here.
    var pending: Bool { articles[index]?.isWhole == false }
    /// The article shown is on its way.
    var isLoading: Bool { loadError == nil && content.readingOrder.indices.contains(index) && articles[index] == nil }
    /// The first part's share of the whole article's bytes.
    var firstPartShare: Double { articles[index]?.share ?? 1 }
    /// The article laid out at the column width, from the layouts kept outside the pager.
    var text: ArticleText? {
        guard let key = textKey, let article = articles[index] else { return nil }
        return layouts.text(for: key, of: article)
    }
    var articleCount: Int { content.readingOrder.count }
    var visibleRows: Int { frame.visibleRows }
    var columnWidth: Int { frame.column(textWidth) }
    var place: String {
        guard isDocument, content.readingOrder.indices.contains(index) else { return "article \(index + 1) of \(articleCount)" }
        return PagePlace.describe(index, of: articleCount, label: content.readingOrder[index].label)
    }
    /// A document page without words: the line that says so, and offers the page view.
    var pageWithoutText: String? {
        guard isDocument, loadError == nil, !pending, document?.blocks.isEmpty == true else { return nil }
        return "Page \(index + 1) has no text layer: v shows the page."
    }
    var canSearch: Bool { true }
    /// Backspace goes back from a followed link, and leaves the reader otherwise.
    var takesBackspace: Bool { !linkTrail.isEmpty }
    var hints: String? {
        if chosenOutsideLink != nil { return "o open in browser  y copy link  Tab next link  ? help  q back" }
        if chosenLink != nil { return "Enter follow link  Tab next link  Shift-Tab previous  ? help  q back" }
        return !isDocument ? nil
            : "v pages view  / search  t contents  Space page  ←→ page  ↑↓ scroll  n/N match  +/- width  ? help  q back"
    }

    // MARK: Place

    func locator(updated: Date) -> Locator {
        let resource = content.readingOrder.indices.contains(index) ? content.readingOrder[index].path : ""
        let anchor = topAnchor
        // A document's page is a page, in either view.
        return Locator(resource: resource, progression: withinArticle, totalProgression: progress,
                       page: isDocument ? index : nil, text: anchor.map { Locator.TextPlace(block: $0.block, offset: $0.offset) }, updated: updated)
    }

    /// How much of this article has been shown, 0…1: its characters above the screen's
    /// bottom (`ArticleText.share`), whatever has been laid out.
    var withinArticle: Double {
        guard let text, !text.lines.isEmpty else { return pendingShare ?? (document?.blocks.isEmpty == true ? 1 : 0) }
        return text.share(beforeLine: top + visibleRows) * firstPartShare
    }

    /// The articles before this one by size, and of this one what has been shown; nothing
    /// at the start of the issue (its first screen is not yet read) unless all of it is there.
    /// A document's pages count as in the pages view (`PagePlace.progress`): one figure for both.
    var progress: Double {
        guard weights.indices.contains(index) else { return 0 }
        if isDocument { return PagePlace.progress(index, of: articleCount) }
        if index == 0, top == 0, !isWholeIssueOnScreen { return 0 }
        let total = weights.reduce(0, +)
        let before = weights[..<index].reduce(0, +)
        return total > 0 ? min(1, (before + weights[index] * withinArticle) / total) : 0
    }

    private var isWholeIssueOnScreen: Bool {
        guard articleCount == 1, let text else { return false }
        return text.isComplete && !pending && text.lines.count <= visibleRows
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
        // Keys wait, in order, for the article on its way, and for the whole of a long one
        // where its first part is not enough.
        if isLoading || !waiting.isEmpty || needsWholeArticle(for: key) {
            waiting.append(.key(key))
            return nil
        }
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
        guard let text = prepareText() else { return }
        let target = max(0, top + delta)
        text.ensureLines(target + visibleRows + 1)
        top = min(target, max(0, text.lines.count - visibleRows))
    }

    private mutating func pageForward() -> ReaderNote? {
        // An article that cannot be read is passed over.
        guard let text = prepareText() else { goTo(article: index + 1); return nil }
        text.ensureLines(top + 2 * visibleRows + 1)
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
        pendingPlace = nil
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
        chosenTextWidth = Self.clampWidth(shown)
        prepareText()
        return ReaderNote(text: "Text width \(shown) columns" + (limitedByWindow ? ": as wide as the window allows" : ""))
    }

    mutating func open(_ entry: ContentsEntry) {
        if isLoading || !waiting.isEmpty { waiting.append(.open(entry)); return }
        if entry.article != index {
            goTo(article: entry.article)
        } else {
            top = 0
        }
        guard let fragment = entry.fragment else { return }
        // The place is in a part of the article still on its way: there once it is here.
        if isLoading || (pending && document?.anchors[fragment] == nil) { waiting.append(.open(entry)); return }
        guard let block = document?.anchors[fragment] else { return }
        pendingPlace = nil
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
        findMarks()
        paintOverText()
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
            switch pictures.state(of: picture, fittedIn: box) {
            case .failed: lost.insert(source)
            case .ready(let size) where size.rows + 2 <= rows && drawnPictures[source] == nil:
                drawn[source] = (box, TextLayout.PixelSize(width: max(1, size.columns), height: max(1, size.rows) * 2))
            default: break
            }
        }
        return (lost, drawn)
    }

    /// The pictures on screen, each in the box its line is drawn from.
    var wantedPictures: PictureWants {
        guard let text else { return PictureWants() }
        var wants = PictureWants()
        for line in text.lines[min(top, text.lines.count)..<min(text.lines.count, top + visibleRows)] {
            guard case .image(let source, _, _, _) = line.kind, !undrawable.contains(source), let picture = pictureSource(source) else { continue }
            let request = PictureRequest(source: picture, size: pictureBox(of: line, width: text.width))
            if !wants.shown.contains(request) { wants.shown.append(request) }
        }
        return wants
    }

    /// Lays the article out again (pictures became descriptions, a link led back), with
    /// `anchor` at the top.
    @discardableResult
    mutating func relayout(at anchor: TextAnchor?) -> ArticleText? {
        textKey = nil
        keptAnchor = nil
        found = nil
        pendingPlace = anchor.map(PendingPlace.anchor)
        return prepareText()
    }

    // MARK: Loading and layout

    /// Shows article `index`: as read already, else once it arrives; the articles next to
    /// it are read ahead, so turning to them waits for nothing.
    mutating func loadArticle() {
        keptAnchor = nil
        undrawable = []
        drawnPictures = [:]
        textKey = nil
        loadError = nil
        guard content.readingOrder.indices.contains(index) else { loadError = "This issue has no articles."; return }
        articles = articles.filter { abs($0.key - index) <= 1 }
        for near in [index, index + 1, index - 1] where content.readingOrder.indices.contains(near) { ask(for: near) }
    }

    private mutating func ask(for article: Int) {
        guard articles[article] == nil, !asked.contains(article) else { return }
        asked.insert(article)
        requests.append(.article(article))
    }

    mutating func takeRequests() -> [ReaderLoad] {
        defer { requests = [] }
        return requests
    }

    /// An article arrived (or a search's answer): shown if it is the one wanted, kept if it
    /// is next to it; what waited for it is done now.
    mutating func receive(_ loaded: ReaderLoaded) -> ReaderNote? {
        switch loaded {
        case .article(let article, .success(let read)):
            if read.isWhole { asked.remove(article) }
            guard abs(article - index) <= 1, articles[article]?.isWhole != true else { return nil }
            let wasPending = article == index && pending
            // A share waits for the whole article; any other place is the one on screen now.
            if wasPending, pendingShare == nil { pendingPlace = topAnchor.map(PendingPlace.anchor) }
            articles[article] = read
            guard article == index else { return nil }
            if wasPending {
                // The whole of a long article, taken in with the same text on screen.
                textKey = nil
                found = nil
            }
        case .article(let article, .failure(let error)):
            asked.remove(article)
            guard article == index else { return nil }
            loadError = error.description
            waiting = []
            return nil
        case .articleFound(let query, let forward, let found):
            return foundElsewhere(query, forward: forward, found)
        case .contents, .pageFound, .matchBoxes, .highlightBoxes, .streamedPages, .pictures, .highlights, .definition, .placeSynced:
            return nil
        }
        return doWhatWaited()
    }

    /// Does, in order, what waited for an article; the last note said.
    private mutating func doWhatWaited() -> ReaderNote? {
        let postponed = waiting
        waiting = []
        var said: ReaderNote?
        for step in postponed {
            let note: ReaderNote?
            switch step {
            case .key(let key): note = handle(key)
            case .search(let query): note = search(for: query)
            case .findNext(let forward): note = findNext(forward: forward)
            case .match(let number): goOn(fromMatch: number); note = nil
            case .open(let entry): open(entry); note = nil
            case .highlight(let highlight): show(highlight); note = nil
            }
            if let note { said = note }
        }
        return said
    }

    /// Switches to an article read and laid out elsewhere (where a search found its query).
    mutating func show(_ found: FoundArticle) {
        index = found.article
        top = 0
        pendingPlace = nil
        pendingEnd = false
        keptAnchor = nil
        loadError = nil
        undrawable = []
        drawnPictures = [:]
        chosenLink = nil
        articles = articles.filter { abs($0.key - index) <= 1 }
        articles[index] = found.loaded
        let key = LayoutKey(resource: content.readingOrder[index].path, isWhole: true, width: found.laidOut.width)
        layouts.keep(found.laidOut, for: key)
        textKey = key
        for near in [index + 1, index - 1] where content.readingOrder.indices.contains(near) { ask(for: near) }
    }

    /// A key that goes past the first part of a long article (whose whole is on its way).
    private mutating func needsWholeArticle(for key: Key) -> Bool {
        guard pending else { return false }
        switch key {
        case .down, .character("j"): return reachesPastFirstPart(top + 1 + visibleRows)
        case .enter: return chosenLink == nil && reachesPastFirstPart(top + 1 + visibleRows)
        case .pageDown, .character(" "), .character("f"): return reachesPastFirstPart(top + 2 * visibleRows)
        case .character("G"), .end: return true
        default: return false
        }
    }

    private mutating func reachesPastFirstPart(_ line: Int) -> Bool {
        guard let text = prepareText() else { return false }
        text.ensureLines(line + 1)
        return text.isComplete && line >= text.lines.count
    }

    /// The article laid out at the current column width. A new width keeps the same text
    /// at the top of the screen (not the same line number).
    @discardableResult
    mutating func prepareText() -> ArticleText? {
        guard let article = articles[index] else { return nil }
        let column = columnWidth
        if let text, text.width == column { return text }
        let place = topAnchor
        if column != drawnPicturesWidth { (drawnPictures, drawnPicturesWidth) = ([:], column) }
        let key = LayoutKey(resource: content.readingOrder[index].path, isWhole: !pending, width: column, undrawable: undrawable,
                            pictureSizes: drawnPictures.mapValues(\.size))
        textKey = key
        let fresh = layouts.text(for: key, of: article)
        chosenLink = nil
        if let share = pendingShare {
            // The screen whose bottom is that far through: what `withinArticle` reads back
            // (a share past the first part of a long article waits for the whole).
            if !(pending && share > firstPartShare) {
                pendingPlace = nil
                top = max(0, fresh.line(for: fresh.anchor(atShare: share / firstPartShare)) - visibleRows + 1)
            }
        } else {
            if let place {
                top = fresh.line(for: place)
                keptAnchor = (place, index, top)
            }
            pendingPlace = nil
        }
        if pendingEnd {
            pendingEnd = false
            fresh.layoutAll()
            top = max(0, fresh.lines.count - visibleRows)
        }
        fresh.ensureLines(top + visibleRows + 1)
        return fresh
    }
}
