import Foundation
import Imaging
import IssueArchive
import NewsstandKit
import Pictures
import Terminal
import TextLayout

/// Whole pages (a comic's, a PDF's): one page fitted to the window (or to its width, `w`),
/// zoomed in steps and panned when larger than the window; pages turn in reading order, and
/// the arrows follow a manga's right-to-left. A PDF's pages are searched through their text.
struct PagePager: ReaderPager {
    static let zoomLevels: [Double] = [1, 1.5, 2, 3, 4]

    let pages: [ReaderPage]
    let rightToLeft: Bool
    let theme: Theme
    /// The issue's folder, resolved: pictures of pages inside it that are far from the one shown are let go.
    let folder: String

    private(set) var index = 0
    var frame = ReaderFrame(width: 80, height: 24)
    var zoomIndex = 0
    /// The top-left of the window on a zoomed page, in the page's cells (kept inside it by `settle`).
    var pan = (x: 0, y: 0)
    /// The zoomed page's size once its picture is ready, and meanwhile the size zooming
    /// expects it to have: zooming keeps the middle in place, also when a second step comes
    /// before the first one's picture is ready.
    var zoomedPageSize: (columns: Int, rows: Int)?
    /// The page whose neighbours' pictures are kept.
    private var keptAround: Int?
    /// What `/` looked for last, in the pages' text.
    var query: String?
    /// Where the page shown holds the query, marked over its picture (`PageMatchMarks.swift`).
    var marks: PageMarks?
    /// Which of the marks' matches `n` stepped to, marked apart from the others.
    var currentMark: Int?
    /// The marks asked for last, and not here yet.
    var marksAsked: PageMarks.Key?
    /// Where the page's highlights are, and the ones asked for last and not here yet.
    var highlightMarks: PageHighlightMarks?
    var highlightMarksAsked: PageHighlightMarks.Key?
    /// A search turned to this page: its first mark is brought into view once it is here.
    var revealsMark = false
    /// The page fills the window's width and scrolls down, rather than fitting whole.
    var fitWidth = false
    /// A PDF's pages, searched through the document's text; false for a comic.
    let isDocument: Bool
    /// Reads to ask for, taken by the model after each message.
    var requests: [ReaderLoad] = []
    /// A comic read from its server: each page's picture is there once fetched.
    let isStreamed: Bool
    /// A streamed comic's pages as the reader was last told them (`StreamedPages.states`).
    var streamedPages: [Int: StreamedComic.PageState] = [:]
    var pictures = PreparedPictures()
    /// The issue's highlights: those in the text view's words are marked over the page.
    var highlights: [Highlight] = []

    init(pages: [ReaderPage], rightToLeft: Bool, folder: String, theme: Theme, at start: Locator?,
         isDocument: Bool = false, isStreamed: Bool = false) {
        self.pages = pages
        self.isDocument = isDocument
        self.isStreamed = isStreamed
        self.rightToLeft = rightToLeft
        self.folder = folder
        self.theme = theme
        if let start, !pages.isEmpty {
            let found = pages.firstIndex { $0.resource == start.resource } ?? start.page ?? 0
            index = max(0, min(pages.count - 1, found))
        }
    }

    var loadError: String? { pages.isEmpty ? "This issue has no articles." : nil }
    var isZoomed: Bool { zoomIndex > 0 }
    /// Up and down move over the page rather than turning it.
    var pansDown: Bool { isZoomed || fitWidth }
    var place: String {
        let zoom = isZoomed ? " · zoom \(Int(Self.zoomLevels[zoomIndex] * 100))%" : ""
        return PagePlace.describe(index, of: pages.count, label: pages.indices.contains(index) ? pages[index].label : nil) + zoom
    }
    /// Each page counts the same (`PagePlace.progress`).
    var progress: Double { PagePlace.progress(index, of: pages.count) }
    var canSearch: Bool { isDocument || pages.contains { $0.text != nil } }
    var takesBackspace: Bool { true }
    var hints: String? {
        !isDocument ? "Space/Bksp page  +/- zoom  arrows pan  t contents  g/G first/last  ? help  q back"
            : "Space/Bksp page  v text view  / search  w fit \(fitWidth ? "page" : "width")  +/- zoom  t contents  n/N match  arrows pan  ? help  q back"
    }

    func locator(updated: Date) -> Locator {
        let resource = pages.indices.contains(index) ? pages[index].resource : ""
        // A page is shown whole, so the whole of its resource has been seen.
        return Locator(resource: resource, progression: 1, totalProgression: progress, page: index, updated: updated)
    }

    // MARK: Input

    mutating func resize(to frame: ReaderFrame) {
        self.frame = frame
    }

    mutating func handle(_ key: Key) -> ReaderNote? {
        let forwardArrow: Key = rightToLeft ? .left : .right
        let view = frame.pageView
        let stepX = max(1, view.width / 4)
        let stepY = max(1, view.height / 4)
        switch key {
        case .character(" "), .pageDown, .enter, .character("f"):
            if fitWidth, let size = zoomedPageSize, pan.y + view.height < size.rows { pan.y += max(1, view.height - 1); return nil }
            return turnPage(forward: true)
        case .backspace, .pageUp, .character("b"):
            if fitWidth, pan.y > 0 { pan.y = max(0, pan.y - max(1, view.height - 1)); return nil }
            return turnPage(forward: false)
        case .character("w"):
            fitWidth.toggle()
            zoomedPageSize = nil
            pan = (0, 0)
            revealsMark = marks != nil
            return ReaderNote(text: fitWidth ? "Fit width — ↑↓ move down the page" : "Fit page")
        case .character("+"), .character("="), .character("z"): return zoom(by: 1)
        case .character("-"), .character("Z"): return zoom(by: -1)
        case .left, .character("h"):
            if isZoomed { pan.x -= stepX } else { return turnPage(forward: forwardArrow == .left) }
        case .right, .character("l"):
            if isZoomed { pan.x += stepX } else { return turnPage(forward: forwardArrow == .right) }
        case .up, .character("k"):
            if pansDown { pan.y -= stepY } else { return turnPage(forward: false) }
        case .down, .character("j"):
            if pansDown { pan.y += stepY } else { return turnPage(forward: true) }
        case .character("]"): return turnPage(forward: !rightToLeft)
        case .character("["): return turnPage(forward: rightToLeft)
        case .character("g"), .home: goTo(page: 0)
        case .character("G"), .end: goTo(page: pages.count - 1)
        default: break
        }
        return nil
    }

    mutating func wheel(_ steps: Int) -> ReaderNote? {
        turnPage(forward: steps > 0)
    }

    mutating func open(_ entry: ContentsEntry) {
        goTo(page: entry.article)
    }

    // MARK: Search

    /// A new search starts on the page shown.
    mutating func search(for query: String) -> ReaderNote {
        self.query = query
        marks = nil
        currentMark = nil
        return find(forward: true, from: 0)
    }

    /// The next match on the page shown, else the next page that holds the query.
    mutating func findNext(forward: Bool) -> ReaderNote {
        if isDocument, let note = stepMark(forward: forward) { return note }
        return find(forward: forward, from: 1)
    }

    /// The next page (or this one, from step 0) whose text holds the query, round the issue.
    private mutating func find(forward: Bool, from firstStep: Int) -> ReaderNote {
        guard canSearch else { return ReaderNote(text: "A comic's pages have no text to search.", isError: true) }
        guard let query else { return ReaderNote(text: "Nothing to find yet: press / and type.") }
        let count = pages.count
        if isDocument {
            // The document's text is read on the reader I/O queue.
            requests.append(.findPage(query: query, from: index, forward: forward, firstStep: firstStep))
            return ReaderNote(text: "Searching…")
        }
        for step in firstStep...count {
            let candidate = ((forward ? index + step : index - step) % count + count) % count
            guard let found = matches(of: query, onPage: candidate), found > 0 else { continue }
            if candidate != index { goTo(page: candidate) }
            return ReaderNote(text: "“\(query)”: \(found) on page \(candidate + 1)")
        }
        return ReaderNote(text: "No match for “\(query)”.", isError: true)
    }

    /// How often a page's own words hold the query.
    private func matches(of query: String, onPage page: Int) -> Int? {
        guard let text = pages[page].text, Search.mayContain(text, query) else { return 0 }
        return ArticleText(document: text, width: frame.column(TextPager.defaultTextWidth)).matches(of: query).count
    }

    /// The search through the document's text answered, or a streamed page's state changed.
    mutating func receive(_ loaded: ReaderLoaded) -> ReaderNote? {
        if case .streamedPages(let states) = loaded { streamedPages = states; return nil }
        if case .matchBoxes(let query, let page, let boxes) = loaded { take(boxes, of: query, on: page); return nil }
        if case .highlightBoxes(let page, let quotes, let boxes) = loaded { take(highlightBoxes: boxes, of: quotes, on: page); return nil }
        guard case .pageFound(let query, let forward, let page, let count, let matches) = loaded, query == self.query else { return nil }
        guard let page, pages.indices.contains(page) else { return ReaderNote(text: "No match for “\(query)”.", isError: true) }
        // Round the document: past its end (start), or back to this page from one of its matches.
        let wrapped = forward ? page < index : page > index
        let wrappedHere = page == index && currentMark != nil
        if page != index { goTo(page: page) }
        revealsMark = true
        guard !matches.isEmpty else { return ReaderNote(text: "“\(query)”: \(count) on page \(page + 1)") }
        let found = PageMarks(key: PageMarks.Key(page: page, query: query), matches: matches)
        marks = found
        var note = choose(forward ? 0 : matches.count - 1, of: found)
        if wrapped || wrappedHere { note.text += forward ? " (from the start of the issue)" : " (from the end of the issue)" }
        return note
    }

    mutating func takeRequests() -> [ReaderLoad] {
        defer { requests = [] }
        return requests
    }

    /// A PDF's pages mark where they hold the query.
    var showsMatches: Bool { isDocument && query != nil }
    mutating func clearSearch() {
        query = nil
        marks = nil
        currentMark = nil
        revealsMark = false
    }

    @discardableResult
    mutating func goTo(page: Int) -> Bool {
        guard page >= 0, page < pages.count, page != index else { return false }
        index = page
        currentMark = nil
        pan = (0, 0)
        zoomedPageSize = nil
        return true
    }

    /// Next or previous page in reading order; a new page starts at its top-left (top-right
    /// for manga) at the same zoom.
    mutating func turnPage(forward: Bool) -> ReaderNote? {
        guard goTo(page: index + (forward ? 1 : -1)) else {
            return ReaderNote(text: forward ? "The last page." : "The first page.")
        }
        zoomedPageSize = nil
        pan = (rightToLeft ? Int.max / 4 : 0, 0)
        return nil
    }

    /// Steps the zoom, keeping the middle of the window on the same part of the page.
    mutating func zoom(by step: Int) -> ReaderNote {
        let wanted = max(0, min(Self.zoomLevels.count - 1, zoomIndex + step))
        guard wanted != zoomIndex else { return ReaderNote(text: step > 0 ? "Zoomed in as far as it goes." : "The whole page.") }
        let view = frame.pageView
        let ratio = Self.zoomLevels[wanted] / Self.zoomLevels[zoomIndex]
        let old = zoomedPageSize ?? (view.width, view.height)
        let centreX = old.columns <= view.width ? Double(old.columns) / 2 : Double(pan.x) + Double(view.width) / 2
        let centreY = old.rows <= view.height ? Double(old.rows) / 2 : Double(pan.y) + Double(view.height) / 2
        pan = (Int(centreX * ratio) - view.width / 2, Int(centreY * ratio) - view.height / 2)
        zoomIndex = wanted
        zoomedPageSize = (Int(Double(old.columns) * ratio), Int(Double(old.rows) * ratio))
        return ReaderNote(text: "Zoom \(Int(Self.zoomLevels[wanted] * 100))%" + (wanted > 0 ? " — arrows or hjkl pan" : ""))
    }

    // MARK: Pictures

    /// Where page `index` is drawn from: the issue's picture, or a streamed page once fetched.
    private func picture(ofPage index: Int) -> ImageSource? {
        isStreamed ? StreamedPages.picture(streamedPages, page: index) : pages[index].picture
    }

    var waitsForStreamedPage: Bool { isStreamed && pages.indices.contains(index) && streamedPages[index] == nil }

    /// The cells the page's picture is fitted into at the zoom.
    private var zoomedBox: CellSize {
        let view = frame.pageView
        let zoom = Self.zoomLevels[zoomIndex]
        // Fitting the width, the height is no limit: room for a page four times as tall as wide.
        let rows = fitWidth ? view.width * 2 : view.height
        return CellSize(columns: Int(Double(view.width) * zoom), rows: Int(Double(rows) * zoom))
    }

    /// The cells a page is fitted into whole.
    private var fittedBox: CellSize { CellSize(columns: frame.pageView.width, rows: frame.pageView.height) }

    /// The size of the page's picture at the zoom, once prepared.
    private func zoomedSize(ofPage page: Int) -> CellSize? {
        guard let source = picture(ofPage: page), case .ready(let size) = pictures.state(of: source, fittedIn: zoomedBox) else { return nil }
        return size
    }

    /// The page at the zoom (and, while that renders, fitted whole to stand in); the next
    /// page ahead, so that turning to it is instant; pictures of pages far behind let go.
    var wantedPictures: PictureWants {
        guard pages.indices.contains(index) else { return PictureWants() }
        var wants = PictureWants()
        if let source = picture(ofPage: index) {
            wants.shown.append(PictureRequest(source: source, size: zoomedBox))
            if let dress = markDress(of: source, in: zoomedBox, marks: shownMarks) { wants.shown.append(PictureRequest(source: source, size: zoomedBox, dress: dress)) }
            if pansDown, pictures.state(of: source, fittedIn: zoomedBox) == .pending {
                wants.shown.append(PictureRequest(source: source, size: fittedBox))
            }
        }
        if !isZoomed, pages.indices.contains(index + 1), let next = picture(ofPage: index + 1) {
            wants.ahead.append(PictureRequest(source: next, size: zoomedBox))
        }
        // Keep this page and its neighbours; the cover cache has the rest if needed again.
        let near = Set((index - 1...index + 1).compactMap { pages.indices.contains($0) ? picture(ofPage: $0) : nil })
        wants.release = PictureRelease(folder: folder, kept: near)
        return wants
    }

    /// Keeps the pan inside the zoomed page; a page newly shown asks for what it needs read.
    mutating func settle() {
        guard pages.indices.contains(index) else { return }
        let view = frame.pageView
        if let picture = zoomedSize(ofPage: index) {
            zoomedPageSize = (picture.columns, picture.rows)
            revealMark(in: picture)
            pan = (picture.columns > view.width ? max(0, min(pan.x, picture.columns - view.width)) : 0,
                   picture.rows > view.height ? max(0, min(pan.y, picture.rows - view.height)) : 0)
        }
        if keptAround != index {
            keptAround = index
            if isStreamed { requests.append(.streamedPage(index)) }
            // A PDF page looked at may be switched to the text view next.
            if isDocument { requests.append(.textAhead(index)) }
        }
        askForMarks()
    }

    // MARK: Drawing

    func render(into canvas: inout Canvas) {
        if isStreamed, let line = StreamedPages.waitingLine(streamedPages, page: index, of: pages.count) {
            canvas.put(Sanitizer.clean(line.text), x: 2, y: 2, style: line.isError ? theme.error : theme.readerQuote, limit: canvas.width - 2)
            return
        }
        guard pages.indices.contains(index), let source = picture(ofPage: index) else { return }
        let view = frame.pageView
        // While the larger picture renders, the fitted one stands in.
        var box = zoomedBox
        var state = pictures.state(of: source, fittedIn: box)
        if pansDown, state == .pending {
            let fittedState = pictures.state(of: source, fittedIn: fittedBox)
            if case .ready = fittedState { (box, state) = (fittedBox, fittedState) }
        }
        let picture: CellSize
        switch state {
        case .ready(let size):
            picture = size
        case .pending:
            canvas.put("Drawing the page…", x: 2, y: 2, style: theme.readerQuote)
            return
        case .failed(let reason):
            // The page is skipped over, not waited for: the reader turns past it as usual.
            canvas.put("This page cannot be shown: " + Sanitizer.clean(reason), x: 2, y: 2, style: theme.error, limit: canvas.width - 2)
            return
        }
        // The part of the page the window shows.
        let sourceX = picture.columns > view.width ? max(0, min(pan.x, picture.columns - view.width)) : 0
        let sourceY = picture.rows > view.height ? max(0, min(pan.y, picture.rows - view.height)) : 0
        // In pixels, the page with its marks drawn in once ready; the plain page meanwhile.
        let marks = shownMarks
        let dress = markDress(of: source, in: box, marks: marks).flatMap { dress in
            pictures.state(of: PictureRequest(source: source, size: box, dress: dress)) == state ? dress : nil } ?? .plain
        pictures.paint(source, into: view, of: &canvas,
                       layout: PictureLayout(size: box, column: sourceX, row: sourceY, behind: theme.readerText), dress: dress)
        drawMarks(marks, over: PictureRequest(source: source, size: box), taking: picture, from: (sourceX, sourceY), into: &canvas)
        if picture.columns > view.width || picture.rows > view.height {
            drawPanBar(picture: picture, sourceX: sourceX, sourceY: sourceY, view: view, into: &canvas)
        }
    }

    /// Where the window is on a zoomed page, on the title bar: "◧ 40%→ 10%↓".
    private func drawPanBar(picture: CellSize, sourceX: Int, sourceY: Int, view: Rect, into canvas: inout Canvas) {
        let across = picture.columns > view.width ? sourceX * 100 / max(1, picture.columns - view.width) : 0
        let down = picture.rows > view.height ? sourceY * 100 / max(1, picture.rows - view.height) : 0
        let text = "◧ \(across)%→ \(down)%↓"
        canvas.put(text, x: max(0, (canvas.width - DisplayWidth.of(text)) / 2), y: 0, style: theme.statusLine)
    }
}
