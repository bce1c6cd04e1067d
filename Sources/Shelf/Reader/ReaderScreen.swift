import Foundation
import Imaging
import IssueArchive
import NewsstandKit
import Terminal
import TextLayout

/// The reader: an issue, the place in it, and the mode (reading, the contents list, the
/// search prompt) over one pager the content calls for — reflowed text for articles,
/// whole pages for comics, either for a PDF (its pages drawn, or each page's words
/// reflowed; `v` switches, on the same page). A value: everything changes in `update`,
/// which hands back effects (save the place, read an article, leave) instead of touching
/// the library, a file or a worker; what was read comes back as `.loaded`. `view` draws
/// and changes nothing: the pictures it draws are values in the model, prepared by the app
/// after a frame from `wantedPictures` and sent back as `.loaded(.pictures)`.
struct ReaderScreen {
    /// `selecting`: a cursor on the words and what it chooses (`ReaderSelecting.swift`);
    /// `notePrompt`: a highlight's note typed on the status line (`ReaderHighlights.swift`).
    enum Mode: Equatable { case reading, contents, searchPrompt, selecting, notePrompt }

    let issue: Issue
    let content: IssueContent
    let theme: Theme
    /// The text width chosen with + and -: the app's preference when opened, kept by the app when changed.
    private(set) var textWidth: Int?
    /// The comic when it is read from its server rather than installed.
    var streamed: StreamedComic? { pagers.source.stream }
    private let pagers: ReaderPagers
    var pager: any ReaderPager
    /// A PDF issue's view, pages or text; nil for other issues, which have one view.
    private(set) var view: ReaderView?
    /// Pages are fitted to the window's width (`w`), as last kept for the issue.
    private(set) var fitsWidth: Bool
    /// The text view's place when it was left for the pages: back on the same page, the
    /// same words are at the top again.
    private var leftText: Locator?
    var mode: Mode = .reading
    private(set) var frame: ReaderFrame
    /// The status line's note, until the next key.
    var note: ReaderNote?
    /// What is typed after `/`.
    private(set) var prompt = ""
    private(set) var contents: ContentsList?
    /// The highlights `contents` lists, when it lists them (`H`) rather than the contents.
    private var listedHighlights: [Highlight]?
    /// The issue's table of contents, read the first time `t` asks for it (titles of the
    /// articles it leaves out come from their files).
    private var contentsEntries: [ContentsEntry]?
    /// `t` was pressed and the contents are on their way.
    private var contentsWanted = false
    /// Reads the reader itself asks for (the contents), besides its pager's.
    private var requests: [ReaderLoad] = []
    /// A link to open or copy (`o`, `y`), handed out with the next effects.
    private var linkEffects: [ReaderEffect] = []
    /// The issue's highlights (deleted ones left out), as the library last sent them.
    var highlights: [Highlight] = []
    /// Highlights to make or change and words to look up, handed out with the next effects.
    var highlightEffects: [ReaderEffect] = []
    /// A synced place answered or gone back to, handed out with the next effects.
    private var placeEffects: [ReaderEffect] = []
    /// What the note being typed is for, and the note so far.
    var noteTarget: NoteTarget?
    var noteDraft = ""
    /// A word's definition in a panel over the text, until the next key.
    var definition: (word: String, text: Definition)?
    /// Reading saves as it goes, at most once a second, so a closed terminal or a killed
    /// process loses at most a second; the clock is the caller's, so tests need not wait.
    private let clock: () -> Date
    private var lastSave: (locator: Locator, at: Date)?
    /// What the sync servers said of this issue's place, and what was answered (`ReaderPlaces.swift`).
    var places = ReaderPlaces()
    static let saveInterval: TimeInterval = 1

    /// Opens the issue as read (`ReaderLoader.source`) at its saved place: the locator,
    /// else a place saved by older versions, else the start; a streamed comic at the page
    /// after the one the server says was read last. `view` is a PDF issue's view as last
    /// kept (pages when never chosen), its pages fitted to the width when `fitsWidth`.
    /// Nothing is read or drawn until `start`.
    init(_ source: ReaderSource, theme: Theme, textWidth: Int? = nil,
         size: (width: Int, height: Int) = (80, 24), clock: @escaping () -> Date = Date.init, view: ReaderView? = nil,
         fitsWidth: Bool = false, highlights: [Highlight] = []) {
        issue = source.issue
        content = source.content
        self.theme = theme
        self.textWidth = textWidth
        self.clock = clock
        self.fitsWidth = fitsWidth
        frame = ReaderFrame(width: size.width, height: size.height)
        pagers = ReaderPagers(source: source, theme: theme)
        self.view = pagers.view(preferring: view)
        let order = source.content.readingOrder.map(\.path), weights = source.weights
        let start = source.stream.map { StreamedPages.start(of: $0, at: clock()) }
            ?? Self.startingPlace(of: issue, in: source.content).map { Self.placed($0, in: order, weights: weights) }
        pager = Self.fitted(pagers.make(self.view, frame: frame, at: start, textWidth: textWidth, articles: source.articles),
                            toWidth: fitsWidth)
        receiveHighlights(highlights)
    }

    var clockNow: Date { clock() }

    /// Pages fitted to the width when that is how the issue was last read.
    private static func fitted(_ pager: any ReaderPager, toWidth fits: Bool) -> any ReaderPager {
        guard fits, var pages = pager as? PagePager else { return pager }
        pages.fitWidth = true
        return pages
    }

    /// The first frame's work: lays out the page and asks for what it needs read.
    mutating func start() -> [ReaderEffect] {
        pager.settle()
        return pager.takeRequests().map(ReaderEffect.load) + askForSync()
    }

    /// `v`: the other view of a PDF, on the same page (and, back in text, at its top), the
    /// search going on there.
    mutating func switchView() -> ReaderNote {
        guard let view else { return ReaderNote(text: "This issue has one view.") }
        let here = pager.locator(updated: clock())
        self.view = view == .pages ? .text : .pages
        if view == .text { leftText = here }
        let samePage = leftText.map { $0.resource == here.resource } ?? false
        let match = pager.matchHere
        remakePager(at: self.view == .text && samePage ? leftText
                        : Locator(resource: here.resource, progression: 0, totalProgression: here.totalProgression,
                                  page: pager.index, updated: here.updated))
        // The search goes on from the match stepped to in the other view.
        if let match { pager.goOn(fromMatch: match) }
        return ReaderNote(text: self.view == .text ? "Text view: the page's words, reflowed (v for the pages)"
                                                   : "Pages view (v for the text)")
    }

    /// A new pager in the view at `place`, with the pictures, search and highlights of the
    /// one it replaces.
    mutating func remakePager(at place: Locator?) {
        let asked = pager.takeRequests()
        let pictures = pager.pictures
        let query = pager.query
        pager = Self.fitted(pagers.make(view, frame: frame, at: place, textWidth: textWidth,
                                        articles: (pager as? TextPager)?.articles ?? [:]),
                            toWidth: fitsWidth)
        pager.pictures = pictures
        pager.query = query
        pager.highlights = highlights
        requests += asked   // still read: the new pager asks for what it lacks itself
    }

    /// Each article's share of the issue (its bytes), as the pagers weigh them.
    var pagerWeights: [Double] { pagers.source.weights }

    /// A place saved by the reader itself (not by `saveIfMoved`).
    mutating func markSaved(_ place: Locator) { lastSave = (place, clock()) }

    static func startingPlace(of issue: Issue, in content: IssueContent) -> Locator? {
        issue.locator?.resolved(in: content.readingOrder.map(\.path))
    }

    /// Where the reader is now.
    var locator: Locator { pager.locator(updated: clock()) }

    // MARK: Update

    mutating func update(_ message: ReaderMessage) -> [ReaderEffect] {
        let viewBefore = view
        var effects = handle(message)
        if case .leave = message {} else { effects += syncIfDue() }
        effects += (requests + pager.takeRequests()).map(ReaderEffect.load) + linkEffects + highlightEffects + placeEffects
        requests = []
        placeEffects = []
        linkEffects = []
        highlightEffects = []
        if let width = pager.chosenTextWidth, width != textWidth {
            textWidth = width
            effects.append(.keepTextWidth(width))
        }
        if let fits = (pager as? PagePager)?.fitWidth, fits != fitsWidth {
            fitsWidth = fits
            effects.append(.keepFitWidth(fits))
        }
        guard let view, view != viewBefore else { return effects }
        return effects + [.keepView(view)]
    }

    private mutating func handle(_ message: ReaderMessage) -> [ReaderEffect] {
        switch message {
        case .resize(let width, let height):
            frame = ReaderFrame(width: width, height: height)
            pager.resize(to: frame)
            contents?.fitScroll(rows: ContentsList.rows(in: frame))
            pager.settle()
            return []
        case .backgroundReady:
            pager.settle()
            return []
        case .leave:
            let locator = self.locator
            lastSave = (locator, clock())
            return [.save(locator)] + (syncsPlace ? [.syncPlace(leaving: true)] : []) + [.leave]
        case .showHighlight(let highlight):
            guard mode == .reading else { return [] }
            showHighlight(highlight)
        case .click(let x, let y):
            guard mode == .reading || mode == .selecting, var text = pager as? TextPager else { return [] }
            definition = nil
            if text.click(x: x, y: y) { mode = .selecting; note = nil }
            pager = text
        case .drag(let x, let y):
            guard mode == .selecting, var text = pager as? TextPager else { return [] }
            _ = text.drag(x: x, y: y)
            pager = text
        case .scroll(let steps):
            guard mode == .reading else { return [] }
            if let said = pager.wheel(steps) { note = said }
        case .key(let key):
            definition = nil
            switch mode {
            case .contents: openChosenEntry(key)
            case .searchPrompt: editPrompt(key)
            case .selecting: choose(key)
            case .notePrompt: editNote(key)
            case .reading: read(key)
            }
        case .loaded(.pictures(let pictures)):
            pager.pictures = pictures
            pager.settle()
            return []
        case .loaded(.highlights(let list)):
            receiveHighlights(list)
            pager.settle()
            return []
        case .loaded(.placeSynced(let synced)):
            return receiveSynced(synced)
        case .loaded(.definition(let word, let text)):
            definition = (word, text)
            note = nil
            return []
        case .loaded(.contents(let entries)):
            contentsEntries = entries
            if contentsWanted && mode == .reading { showContents() }
            contentsWanted = false
        case .loaded(let loaded):
            if let said = pager.receive(loaded) { note = said }
            // What arrives moves the place only for keys that waited for it: saved once
            // the reader has been moved at all.
            guard lastSave != nil else { pager.settle(); return [] }
        }
        pager.settle()
        return mode == .reading || mode == .selecting ? saveIfMoved() : []
    }

    /// Escape cancels before it leaves: a search's marked matches go first.
    var takesEscape: Bool { mode != .reading || pager.showsMatches || answersOffer }

    private mutating func read(_ key: Key) {
        note = nil
        if answersOffer, key == .enter || key == .escape {
            placeEffects += answerOffer(key)
            return
        }
        switch key {
        case .character("u"): placeEffects += stepBackThroughHistory()
        case .character("t"):
            guard contentsEntries != nil else {
                if !contentsWanted { requests.append(.contents) }
                contentsWanted = true
                return
            }
            showContents()
        case .character("/") where pager.canSearch:
            mode = .searchPrompt
            prompt = ""
        case .escape where pager.showsMatches: pager.clearSearch()
        case .character("v"): note = switchView()
        case .character("H"): showHighlights()
        case .character("s"): startSelecting()
        case .character("/"), .character("n"): note = pager.findNext(forward: true)
        case .character("N"): note = pager.findNext(forward: false)
        case .character("o") where pager.chosenOutsideLink != nil:
            let link = pager.chosenOutsideLink ?? ""
            linkEffects.append(.openLink(link))
            note = ReaderNote(text: "Opening in the browser: \(link)")
        case .character("y") where pager.chosenOutsideLink != nil:
            let link = pager.chosenOutsideLink ?? ""
            linkEffects.append(.copyLink(link))
            note = ReaderNote(text: "Copied to the clipboard: \(link)")
        default: note = pager.handle(key)
        }
    }

    /// The contents list over the page, on the entry being read.
    private mutating func showContents() {
        contents = ContentsList(entries: contentsEntries ?? [], current: pager.index)
        guard contents != nil else { note = ReaderNote(text: "This issue has no table of contents."); return }
        contents?.fitScroll(rows: ContentsList.rows(in: frame))
        mode = .contents
    }

    /// A list over the page: the contents, or the highlights `listing` (in the list's order).
    mutating func showList(_ list: ContentsList, listing: [Highlight]?) {
        contents = list
        listedHighlights = listing
        mode = .contents
    }

    private mutating func openChosenEntry(_ key: Key) {
        guard var list = contents else { mode = .reading; return }
        let outcome = list.update(key, in: frame)
        contents = list
        switch outcome {
        case .stay: return
        case .close: break
        case .open(let entry):
            if let listed = listedHighlights, listed.indices.contains(list.selection) {
                showHighlight(listed[list.selection])
            } else {
                pager.open(entry)
            }
        }
        mode = .reading
        contents = nil
        listedHighlights = nil
    }

    private mutating func editPrompt(_ key: Key) {
        switch key {
        case .enter:
            mode = .reading
            let wanted = Sanitizer.clean(prompt)
            if !wanted.isEmpty { note = pager.search(for: wanted) }
        case .escape:
            mode = .reading
        case .backspace, .delete:
            if prompt.isEmpty { mode = .reading } else { prompt.removeLast() }
        case .character(let character):
            if prompt.count < 200 { prompt.append(character) }
        case .control("u"):
            prompt = ""
        default:
            break
        }
    }

    /// The place, when it moved and the last save is older than `saveInterval`.
    private mutating func saveIfMoved() -> [ReaderEffect] {
        let now = clock()
        let locator = pager.locator(updated: now)
        if let lastSave {
            if locator.isSamePlace(as: lastSave.locator) || now.timeIntervalSince(lastSave.at) < Self.saveInterval { return [] }
        }
        lastSave = (locator, now)
        return [.save(locator)]
    }

    // MARK: For the app's bars

    /// The page shown is on its way from the server: the app looks for it often rather than
    /// at its idle pace.
    var waitsForStreamedPage: Bool { mode == .reading && pager.waitsForStreamedPage }

    /// The pictures the view draws, and those to prepare ahead or let go: the app prepares
    /// them after the frame and sends what is ready back (`.loaded(.pictures)`).
    var wantedPictures: PictureWants { pager.wantedPictures }

    /// Backspace turns a page back here rather than leaving the reader.
    var takesBackspace: Bool { mode == .reading && pager.takesBackspace }

    /// The prompt or a note on the left, the progress through the issue on the right.
    var statusLine: (text: String?, isError: Bool, right: String) {
        let percent = Int((pager.progress * 100).rounded(.down))
        let text: String? = mode == .searchPrompt ? "/" + prompt + "▏" : mode == .notePrompt ? notePromptLine
            : note?.text ?? (mode == .reading ? places.shown?.line : nil) ?? selectionStatus ?? (mode == .reading ? pager.idleNote : nil)
        return (text, note?.isError ?? false, "read \(percent)% ")
    }

    /// The hint bar; nil while reading text, where the app shows the keys as bound.
    var ownHints: String? {
        switch mode {
        case .contents: return "↑↓ choose  Enter open  q/Esc back"
        case .searchPrompt: return "type what to find  Enter search  Esc cancel"
        case .selecting: return Self.selectionHints
        case .notePrompt: return Self.notePromptHints
        case .reading: return pager.hints
        }
    }

    /// The reader's part of the `?` help.
    static let helpLines: [(String, String)] = [
        ("↑↓ j k, Enter", "scroll a line"),
        ("Space PgDn, b PgUp", "page down, up (on into the next article)"),
        ("← → h l [ ]", "previous, next article"),
        ("g G", "start, end of the article"),
        ("t", "table of contents (Enter jumps, q back)"),
        ("H", "this issue's highlights and notes (Enter goes to one)"),
        ("u", "back to the place a synced one replaced (again: older)"),
        ("/", "search this article, then the next ones"),
        ("n N", "next, previous match"),
        ("Tab, Shift-Tab", "choose a link or footnote on screen"),
        ("Enter, then Bksp", "follow the chosen link, come back"),
        ("o, y", "a chosen link out of the issue: open in the browser, copy"),
        ("+ -", "text width, \(TextPager.textWidths.lowerBound)–\(TextPager.textWidths.upperBound) columns, as the window allows"),
        ("s", "choose words: a cursor on the first word on screen"),
        ("  w b, ( ), { }, ↑↓", "  move it by word, sentence, paragraph, line"),
        ("  s, Esc", "  the selection starts here and grows as it moves; cancel"),
        ("  a click", "  the cursor on that word (after s: the selection ends there)"),
        ("  Enter, 1–5", "  highlight it: yellow, green, blue, pink, underline (8 colours)"),
        ("  on a highlight", "  1–5 recolour, Enter or n its note, E its note in $EDITOR, x delete"),
        ("  n", "  a note on the status line (Ctrl-O new line, Enter keeps)"),
        ("  d", "  the word in the dictionary (sdcv or dict, when installed)"),
        ("Comics:", ""),
        ("Space PgDn, Bksp PgUp", "next, previous page (manga: ← is next)"),
        ("+ - z Z", "zoom in, out"),
        ("←↓↑→ hjkl", "pan when zoomed, else turn the page"),
        ("PDFs:", ""),
        ("v", "pages view or text view, on the same page (kept for the issue)"),
        ("w", "pages: fit the width (↑↓ move down) or the whole page (kept for the issue)"),
        ("/ n N", "search the whole document, in either view"),
        ("q, Esc", "back to the store; the place is kept"),
    ]

    // MARK: View

    /// Draws the title bar and the page or the contents; reads the model only.
    func view(into canvas: inout Canvas) {
        let width = canvas.width
        canvas.fill(Rect(x: 0, y: 0, width: width, height: canvas.height - 2), with: Cell(glyph: " ", style: theme.readerText))
        let header = Sanitizer.clean(content.metadata.title ?? issue.title)
        canvas.fill(Rect(x: 0, y: 0, width: width, height: 1), with: Cell(glyph: " ", style: theme.statusLine))
        canvas.put(" " + DisplayWidth.truncate(header, to: width / 2), x: 0, y: 0, style: theme.statusLine.with(.bold))
        if let error = pager.loadError {
            canvas.put(error, x: 2, y: 2, style: theme.error, limit: width - 2)
            return
        }
        if mode == .contents, let contents {
            drawPlace(listedHighlights == nil ? "contents" : "highlights", into: &canvas)
            contents.render(into: &canvas, frame: frame, column: frame.column(textWidth ?? TextPager.defaultTextWidth),
                            theme: theme)
            return
        }
        drawPlace(pager.place, into: &canvas)
        pager.render(into: &canvas)
        if let definition { WordPanel(word: definition.word, definition: definition.text).render(into: &canvas, frame: frame, theme: theme) }
    }

    private func drawPlace(_ text: String, into canvas: inout Canvas) {
        canvas.put(text, x: max(0, canvas.width - DisplayWidth.of(text) - 1), y: 0, style: theme.statusLine)
    }
}
