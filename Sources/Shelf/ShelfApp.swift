import Feeds
import Foundation
import Imaging
import IssueArchive
import NewsstandKit
import Pictures
import Terminal
import TextLayout

/// The interactive program, in the shape of Bubble Tea: all state is one value (`State`:
/// what the screens share, and the stack of screens, each a component with its own state,
/// `update` and `view`); messages change it only in `update` (`App/AppUpdate.swift`), which
/// returns effects as values; `view` turns it into a canvas. Here the run loop feeds messages in and performs
/// the effects: library writes and refreshes on the effect runner, the reads for the
/// screens here, when the library changed (any process) or after the program's own writes.
public final class ShelfApp: RunLoopEffects {
    public struct Environment {
        public var library: Library
        public var theme: Theme
        public var colorMode: ColorMode
        public var symbols: Symbols
        public var coverCache: CoverCache
        /// Starts the download agent if it is not running (detached in real use).
        public var startAgent: @Sendable () -> Void
        public var keyBindings: KeyBindings
        /// Now, for what the app stamps with a time (an issue opened, an alert shown).
        public var clock: @Sendable () -> Date
        /// Pictures in real pixels (comic and PDF pages, pictures in articles), when the
        /// terminal draws them; nil: half blocks.
        public var pixels: PixelSettings?
        /// Signalled, besides the shelf's own flag, whenever a picture that was pending is
        /// ready: for callers (tests) that wait for pictures rather than poll.
        public var pictureReady: ReadySignal?
        /// `open_after_download`: Enter on an issue not downloaded opens it once it is here.
        public var openAfterDownload: Bool
        public init(library: Library, theme: Theme, colorMode: ColorMode, symbols: Symbols, coverCache: CoverCache,
                    keyBindings: KeyBindings = .defaults, clock: @escaping @Sendable () -> Date = { Date() },
                    pixels: PixelSettings? = nil, openAfterDownload: Bool = true, startAgent: @escaping @Sendable () -> Void) {
            self.library = library; self.theme = theme; self.colorMode = colorMode; self.symbols = symbols
            self.coverCache = coverCache; self.keyBindings = keyBindings; self.clock = clock; self.pixels = pixels
            self.openAfterDownload = openAfterDownload
            self.startAgent = startAgent
        }
    }

    /// How pictures are drawn in pixels: the protocol and cell size detection found, and the
    /// tmux pane's place in the terminal around it. The store's thumbnails are in pixels;
    /// the shelf's covers stay half blocks unless `shelfCovers` (`covers = "pixels"`).
    public struct PixelSettings {
        public var writer: PixelPictureWriter
        public var cell: Terminal.PixelSize
        public var origin: (x: Int, y: Int)
        public var shelfCovers: Bool
        /// kitty's pictures as placeholder cells, their ids in these colours; nil: placed at the cursor.
        public var placeholders: KittyPlaceholders.IDColours?
        /// What the screen draws in: the wall a sixel cover's top rows are sent in is the one it shows.
        public var drawing: TerminalColors
        public init(writer: PixelPictureWriter, cell: Terminal.PixelSize, origin: (x: Int, y: Int) = (0, 0), shelfCovers: Bool = false,
                    placeholders: KittyPlaceholders.IDColours? = nil, drawing: TerminalColors = .direct) {
            self.writer = writer; self.cell = cell; self.origin = origin; self.shelfCovers = shelfCovers
            self.placeholders = placeholders; self.drawing = drawing
        }
    }

    let env: Environment
    var state: State
    /// The shelf's pictures over the painter chosen here at start (half-block cells today).
    let painter: CoverPainter
    /// Puts the pictures the canvas places in pixels on screen, after each frame; nil for half blocks.
    let placer: PixelPlacer?
    /// Inside tmux with kitty's pictures: whether tmux shows our pane (see `paneShown`).
    let paneWatch: TmuxPaneWatch?
    let runner: EffectRunner
    /// The newest read asked for and not yet started.
    private let latestRead = Latest<ReadRequest>()
    /// Reads the shelf and the store, issues only when they changed.
    private let reads: LibraryReads
    /// Ctrl-Z: the run loop hands the terminal back to the shell.
    private var suspendRequested = false
    /// `E` on a highlight: the run loop hands the terminal to `$EDITOR` on its note.
    private var noteToEdit: (highlight: Highlight, issueID: Int64, session: Int)?
    /// Bytes for the terminal from an effect (the clipboard's escape), written after the next frame.
    private var terminalWrites: [UInt8] = []
    private var changeToken = -1
    /// Whether the screens have been given the library once (see `run`).
    private var hasReadLibrary = false
    /// The covers the last frame wanted: prepared again when a picture is ready.
    var wantedCovers: [CoverRequest] = []

    public init(environment: Environment) {
        env = environment
        state = State(keyBindings: environment.keyBindings)
        state.openAfterDownload = environment.openAfterDownload
        state.storesShownAsList = environment.library.store.storesShownAsList
        state.readerPreferences = ReaderPreferences(textWidth: environment.library.store.readerTextWidth)
        if let pixels = environment.pixels, pixels.writer.graphics.drawsPixels {
            let flag = AtomicFlag()
            let ready = environment.pictureReady
            let halfBlocks = HalfBlockPainter(cache: environment.coverCache, colorMode: environment.colorMode,
                                              symbols: environment.symbols) { flag.set(); ready?.onReady() }
            let pixelPainter = PixelPainter(cell: pixels.cell, graphics: pixels.writer.graphics,
                                            placeholders: pixels.placeholders, sixelLimit: pixels.writer.sixelLimit,
                                            wall: environment.theme.wall.background, colors: pixels.drawing) { flag.set(); ready?.onReady() }
            painter = CoverPainter(pictures: pixelPainter, covers: halfBlocks, readyFlag: flag, pixels: pixelPainter,
                                   shelfInPixels: pixels.shelfCovers)
            placer = PixelPlacer(painter: pixelPainter, throughTmux: pixels.writer.throughTmux, origin: pixels.origin)
            paneWatch = pixels.writer.throughTmux && pixels.writer.graphics == .kitty ? TmuxPaneWatch() : nil
        } else {
            painter = CoverPainter(cache: environment.coverCache, colorMode: environment.colorMode, symbols: environment.symbols,
                                   ready: environment.pictureReady)
            placer = nil
            paneWatch = nil
        }
        reads = LibraryReads(library: environment.library)
        runner = EffectRunner(library: environment.library, startAgent: environment.startAgent, clock: environment.clock)
        runner.loop = self
    }

    /// Starts in the reader on an issue (`newsstand read ISSUE`); the first q leaves the program.
    /// Before the first frame, so it waits for the issue to open.
    public func startReading(_ issue: Issue) {
        reload()
        send(.startReading(issue))
        // Until the reader is open (or said why not): what the library reads after that
        // arrives in the run loop, not before the first frame.
        finishEffects(until: { $0.reader != nil })
    }

    /// What pictures need of the terminal (tmux's passthrough): said once, ever, when a
    /// screen that would draw pictures in pixels first shows (the shelf only when its
    /// covers are pixels, `covers = "pixels"`).
    public func advisePictures(_ text: String, shelfDrawsPictures: Bool) {
        guard !env.library.store.pictureAdviceGiven else { return }
        // Said at the first message (the run loop's first is the window's size) on such a screen.
        state.pictureAdvice = PictureAdvice(text: text, shelfDrawsPictures: shelfDrawsPictures)
    }

    // MARK: Running

    /// Runs until the user quits. Never blocks on I/O: covers render on workers, the
    /// library's writes and refreshes run on the effect runner, downloads in the agent.
    public func run(backend: TerminalBackend) {
        let times = FrameTimes()
        let runStart = DispatchTime.now().uptimeNanoseconds
        let size = backend.size
        send(.resize(width: size.width, height: size.height))
        changeToken = env.library.changeToken()   // this first read is current: no second one at the first poll
        // `newsstand read` has read the library already, and a read after the reader opened
        // is on its way: reading again here would first wait for it.
        if !hasReadLibrary { reload() }
        times?.mark("reload")
        let first = render()
        times?.mark("render")
        show(first, on: backend)
        times?.mark("draw")
        times?.frameDrawn(complete: !painter.isWaitingForCovers)
        times?.frameDetails("first", startedAt: runStart)
        while !state.quit {
            let waiting = painter.isWaitingForCovers || reader?.waitsForStreamedPage == true
            let timeout = Self.pollInterval(state, waitingForPictures: waiting, busy: runner.isBusy, refreshing: runner.isRefreshing)
            let event = backend.nextEvent(timeout: timeout)
            let eventTime = DispatchTime.now().uptimeNanoseconds
            var dirty = false
            if let event {
                handle(event)
                times?.mark("handle")
                if case .key(let key) = event, state.isFetching { times?.workStarted(key.label, startedAt: eventTime) }
                dirty = true
            }
            if suspendRequested {
                suspendRequested = false
                placer?.clear(on: backend)
                backend.suspend()
                if placer?.throughTmux == true { TmuxPassthrough.waitForRedraw() }
                dirty = true
            }
            if let edit = noteToEdit {
                noteToEdit = nil
                placer?.clear(on: backend)
                var edited: NoteEditor.Outcome = .unchanged
                let environment = runner.environment
                backend.handOver { edited = NoteEditor.edit(edit.highlight.note, environment: environment) }
                if placer?.throughTmux == true { TmuxPassthrough.waitForRedraw() }
                switch edited {
                case .edited(let note): send(.noteEdited(edit.highlight, note, issueID: edit.issueID, session: edit.session))
                case .unchanged: break
                case .failed(let why): send(.effectFailed(why))
                }
                dirty = true
            }
            if pollChanges() { dirty = true }
            times?.mark("poll")
            if dirty {
                let frame = render()
                times?.mark("render")
                show(frame, on: backend)
                times?.mark("draw")
                if let times, let curses = backend as? CursesBackend {
                    let draw = curses.lastDraw
                    times.annotate("cells=\(draw.cellsWritten) pairs=\(draw.pairsAllocated)\(draw.pairsReset ? " reset" : "")"
                                   + String(format: " copy=%.2f update=%.2f", draw.copySeconds * 1000, draw.updateSeconds * 1000))
                }
                times?.frameDrawn(complete: !painter.isWaitingForCovers)
                if case .key(let key) = event { times?.keyHandled(key.label, startedAt: eventTime) } else { times?.frameDetails("update", startedAt: eventTime) }
            } else {
                times?.discardPhases()
            }
            times?.workProgress(fetching: state.isFetching, settled: !runner.isFetching && !painter.isWaitingForCovers)
        }
        placer?.clear(on: backend)
        send(.quitting)
        runner.finishWrites()
        times?.write()
    }

    /// How long the run loop sleeps when no input comes (input always wakes it at once):
    /// 15 ms while pictures render or a streamed page is on its way, 5 ms while the
    /// runner's work is queued or its results wait, a tenth of a second while something
    /// moves on its own (a refresh, a download on screen or in the status line, the
    /// reader's background work), and otherwise a second, to see another process's changes
    /// (the agent's downloads, a refresh from the command line): an idle shelf wakes once a
    /// second.
    static func pollInterval(_ state: State, waitingForPictures: Bool, busy: Bool, refreshing: Bool) -> Double {
        if waitingForPictures { return 0.015 }
        if busy { return 0.005 }
        if refreshing || state.showsProgress { return 0.1 }
        return 1
    }

    /// A frame on the terminal, and its pictures in pixels over it.
    private func show(_ frame: Canvas, on backend: TerminalBackend) {
        if let placer { placer.draw(frame, on: backend) } else { backend.draw(frame) }
        // Asked while pictures are on screen, or hidden to come back.
        paneWatch?.watch(placer.map { $0.isHidden || !$0.placements.isEmpty } ?? false)
        if let notice = backend.takeUnshowableNotice() { state.setStatus(notice) }
        if !terminalWrites.isEmpty {
            backend.writeDirect(terminalWrites)
            terminalWrites = []
        }
    }

    /// Input from the terminal.
    func handle(_ event: Event) {
        switch event {
        case .key(let key): send(.key(key))
        case .mouse(let button, let x, let y): send(.mouse(button, x: x, y: y))
        case .resize(let width, let height): send(.resize(width: width, height: height))
        }
    }

    /// Feeds a message to `update` and performs what it returns, and so on for the
    /// messages the run loop's own reads produce.
    func send(_ message: Message) {
        perform(Self.update(&state, message))
    }

    private func perform(_ effects: [Effect]) {
        for effect in effects { runner.run(effect) }
    }

    /// Takes the runner's results, library changes and finished covers. True when the
    /// screen must be drawn again.
    func pollChanges() -> Bool {
        var dirty = false
        for message in runner.mailbox.takeAll() {
            send(message)
            dirty = true
        }
        let token = env.library.changeToken()
        if token != changeToken {
            changeToken = token
            send(.libraryChanged)
            dirty = true
        }
        if let shown = paneWatch?.takeChange() {
            paneShown(shown)
            dirty = true
        }
        if painter.readyFlag.take() {
            painter.prepare(wantedCovers)
            send(.coverReady)
            dirty = true
        }
        return dirty
    }

    /// tmux showed another window over our pane (`Ctrl-b c`), or ours again: kitty's
    /// pictures are taken off the terminal past tmux (which drops a hidden pane's
    /// passthrough), frames drawn without them while hidden, and all drawn again when shown.
    func paneShown(_ shown: Bool) {
        guard let placer else { return }
        if shown {
            placer.unhide()
        } else {
            paneWatch?.writeToClients(placer.hide())
        }
    }

    /// Waits until every effect asked for so far has run and its results were taken in, or
    /// until `done` holds.
    func finishEffects(until done: (State) -> Bool = { _ in false }) {
        while !done(state) {
            runner.finishAll()
            let messages = runner.mailbox.takeAll()
            if messages.isEmpty { return }
            for message in messages { send(message) }
        }
    }

    /// Reads what the shelf and the open store show from the library, now: the first frame
    /// (`run`, and `startReading` before it) shows the library, never an empty shelf.
    /// Everything later reads in the background (`readLibrary`).
    func reload() {
        hasReadLibrary = true
        let request = ReadRequest(storePublicationID: state.storePublicationID, watched: state.watchedDownloads)
        send(.libraryRead(runner.reads.sync { reads.read(request) }))
    }

    /// What a read needs from the state, taken on the main thread when it is asked for.
    struct ReadRequest: Sendable {
        var storeOnly = false
        var storePublicationID: Int64?
        var watched: Set<Int64> = []
    }

    /// Reads the library after a change, or a store just opened, on the reads queue, so
    /// that no key waits for SQLite (after a 20,000-entry refresh the shelf's read takes
    /// ~10 ms, more on a busy machine); the result comes back through the mailbox. Changes
    /// that come while a read waits to start are covered by it: it reads what is there when
    /// it runs, the shelf too when any request waiting wanted it.
    func readLibrary(storeOnly: Bool) {
        let request = ReadRequest(storeOnly: storeOnly, storePublicationID: state.storePublicationID, watched: state.watchedDownloads)
        let first = latestRead.replace(with: request) { waiting, new in
            var merged = new
            merged.storeOnly = waiting.storeOnly && new.storeOnly
            return merged
        }
        guard first else { return }
        let (mailbox, latestRead, reads) = (runner.mailbox, latestRead, reads)
        runner.submit(.reads) {
            if let request = latestRead.take() { mailbox.post(.libraryRead(reads.read(request))) }
        }
    }

    /// Ctrl-Z: the run loop hands the terminal to the shell after this message.
    func suspend() { suspendRequested = true }

    func editNote(_ highlight: Highlight, issueID: Int64, session: Int) { noteToEdit = (highlight, issueID, session) }

    func writeToTerminal(_ bytes: [UInt8]) { terminalWrites += bytes }

    /// A book's pages from its server in the reader, `{maxWidth}` the window's width in
    /// pixels (cells × the cell's width when the terminal told it, else 10 px a cell);
    /// each page that arrives wakes the loop as a finished picture does.
    func openStreamed(_ book: CatalogBook) {
        guard let stream = book.stream else { return }
        let flag = painter.readyFlag
        let readerIO = runner.readerIO
        let cellWidth = env.pixels?.cell.width ?? 10
        let comic = env.library.catalogs.streamedComic(stream, title: book.title, maxWidth: max(200, min(4096, state.width * cellWidth)),
                                              onChange: { flag.set(); readerIO.streamedPagesChanged() })
        runner.readerIO.open(streaming: comic, theme: env.theme, preferences: state.readerPreferences,
                             size: (state.width, state.height), clock: env.clock)
    }

    /// Opens the issue in the reader on the reader's I/O queue (`ReaderEffects`), with the
    /// app's painter, theme and the reader's preferences; an encrypted PDF asks for its password.
    func openReader(_ issue: Issue, password: DocumentPassword?) {
        runner.readerIO.open(issue, password: password, library: env.library, theme: env.theme,
                             preferences: state.readerPreferences, size: (state.width, state.height), clock: env.clock)
    }
}
