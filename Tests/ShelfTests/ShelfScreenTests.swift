import Foundation
import Synchronization
import Imaging
import Pictures
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// The shelf, store and reader, driven through the in-memory terminal: keys in, canvas out.
final class ShelfHarness {
    let root: URL
    let library: Library
    let app: ShelfApp
    var agentStarts = 0
    /// Signalled when a picture the screen waited for is ready (they render on worker threads).
    let pictureReady = ReadySignal()

    static var sampleFeed: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("sample-feed")
    }

    init(width: Int = 120, height: Int = 40, samples: Bool = true, keyBindings: KeyBindings = .defaults,
         clock: @escaping @Sendable () -> Date = Date.init) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-shelf-\(UUID().uuidString)")
        library = try Library(paths: Paths(environment: ["NEWSSTAND_HOME": root.path]))
        if samples { #expect(library.subscriptions.subscribeSamplesOnFirstRun(sampleFeedDirectory: Self.sampleFeed).isEmpty) }
        let starts = Mutex(0)
        var environment = ShelfApp.Environment(
            library: library, theme: .classic, colorMode: .truecolor, symbols: .half,
            coverCache: CoverCache(directory: nil), keyBindings: keyBindings, clock: clock, startAgent: { starts.withLock { $0 += 1 } })
        environment.pictureReady = pictureReady
        app = ShelfApp(environment: environment)
        app.state.width = width
        app.state.height = height
        app.reload()
        _ = app.render()
        agentStarts = 0
        startsProbe = { starts.withLock { $0 } }
    }

    private var startsProbe: () -> Int = { 0 }
    var agentStartCount: Int { startsProbe() }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Sends events, lets background work settle, and returns the screen.
    @discardableResult
    func send(_ events: Event...) -> Canvas {
        for event in events { app.handle(event) }
        return settle()
    }

    func key(_ key: Key) -> Canvas { send(.key(key)) }

    /// Waits for the effects asked for to run and their results, library changes and
    /// finished covers to arrive, then draws.
    func settle() -> Canvas {
        for _ in 0..<20 {
            app.finishEffects()
            if !app.pollChanges() { break }
        }
        return app.render()
    }

    /// Runs the download agent until the queue is empty, on its own connection as the
    /// real agent process would have.
    /// The screen's text once `condition` holds on it (`waitFor`).
    func waitForPictures(until condition: (String) -> Bool) -> String {
        waitFor { condition($0.text) }.text
    }

    func runAgent() throws {
        _ = try Agent(library: Library(paths: library.paths)).run()
        _ = settle()
    }
}

@Suite(.serialized) struct ShelfScreenTests {
    @Test func theShelfShowsEveryPublicationWithItsIssueCount() throws {
        let h = try ShelfHarness()
        let screen = h.app.render().text
        #expect(screen.contains("NEWSSTAND"))
        // Four covers a row at 120 columns: a long title is cut to its slot ("The Ferrybridge Couri…").
        for title in ["Tidewater", "The Ferrybridge Couri…", "Rocket Badger", "The Lantern"] { #expect(screen.contains(title), "\(screen)") }
        #expect(screen.contains("4 issues"))
        #expect(screen.contains("q quit"))
    }

    @Test func oneOfAThingIsCountedInTheSingular() throws {
        let h = try ShelfHarness(samples: false)
        let feed = h.root.appendingPathComponent("one.atom")
        try FileManager.default.createDirectory(at: h.root, withIntermediateDirectories: true)
        try """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Single</title><id>urn:single</id>
            <entry><id>only</id><title>The only issue</title><updated>2026-11-01T00:00:00Z</updated>
            <link rel="enclosure" type="application/zip" href="only.zip"/></entry></feed>
            """.write(to: feed, atomically: true, encoding: .utf8)
        _ = try h.library.subscriptions.subscribe(feedURL: feed)
        h.app.reload()
        let shelf = h.settle().text
        #expect(shelf.contains("1 publication") && !shelf.contains("1 publications"), "\(shelf)")
        #expect(shelf.contains("1 issue") && !shelf.contains("1 issues"), "\(shelf)")
        let store = h.key(.enter).text
        #expect(store.contains("1 issue") && !store.contains("1 issues"), "\(store)")
    }

    @Test func enterOpensTheStoreNewestFirstAndQGoesBack() throws {
        let h = try ShelfHarness()
        let store = h.key(.enter).text
        let lines = store.components(separatedBy: "\n")
        let newest = try #require(lines.firstIndex { $0.contains("No. 31") })
        let next = try #require(lines.firstIndex { $0.contains("No. 30") })
        #expect(newest < next)
        #expect(store.contains("TAP TO DOWNLOAD"))
        #expect(h.key(.character("q")).text.contains("NEWSSTAND"))
    }

    /// A tile's cover file is looked up when the tile is drawn: the newest issue's cover,
    /// not the placeholder with its title, stands in the first thumbnail.
    @Test func theStoreDrawsEachVisibleIssuesCover() throws {
        let h = try ShelfHarness()
        _ = h.key(.enter)
        // The newest issue's thumbnail: rows 2 to 8, columns 3 to 14 (covers render in the background).
        func thumbnail(_ screen: Canvas) -> [String] {
            screen.text.components(separatedBy: "\n")[2...8].map { String($0.dropFirst(4).prefix(12)) }
        }
        let screen = h.waitFor { thumbnail($0).joined().contains("▀") }
        #expect(thumbnail(screen).filter { $0.contains("▀") }.count >= 5, "\(screen.text)")
        #expect(!thumbnail(screen).joined().contains("No."), "\(screen.text)")
    }

    @Test func downloadingThenTheCoverAndSashFollowTheReadyIssue() throws {
        let h = try ShelfHarness()
        _ = h.key(.right)                      // The Ferrybridge Courier
        var screen = h.key(.enter)
        #expect(screen.text.contains("Friday 20 November 2026"))
        screen = h.key(.character("d"))        // queue the newest issue (Enter would open it once here)
        #expect(h.agentStartCount == 1)
        #expect(screen.text.contains("WAITING") || screen.text.contains("%"))
        #expect(try h.library.store.issue(named: "courier-2026-11-20")?.status == .downloading)

        try h.runAgent()
        screen = h.settle()
        let tile = screen.text.components(separatedBy: "\n").first { $0.contains("TAP TO READ") } ?? ""
        #expect(tile.contains("NEW"), "\(screen.text)")
        let summary = try #require(try ShelfReader(library: h.library).summaries().first { $0.publication.title.contains("Courier") })
        #expect(summary.unreadCount == 1)
        #expect(summary.coverFile?.lastPathComponent == "courier-2026-11-20.png")

        // The sash colour appears on the shelf (red cells) once there is an unread issue.
        screen = h.key(.character("q"))
        #expect(screen.text.contains("1 new"))
        let sashRed = h.app.env.theme.sash.background
        #expect(screen.cells.contains { $0.style == h.app.env.theme.sash } || screen.cells.contains { $0.background == sashRed })
    }

    @Test func readingClearsNewAndTheReaderRemembersWhereYouWere() throws {
        let h = try ShelfHarness()
        _ = h.key(.enter)
        _ = h.key(.enter)
        try h.runAgent()
        var screen = h.key(.enter)                   // open the reader
        #expect(screen.text.contains("The lamp at Gull Rock burned"))
        #expect(screen.text.contains("article 1 of 3"))
        #expect(try h.library.store.issue(named: "tidewater-2026-11")?.unread == false)
        #expect(h.library.store.currentlyReadingIssue()?.name == "tidewater-2026-11")

        screen = h.key(.right)                       // next article
        #expect(screen.text.contains("article 2 of 3"))
        for _ in 0..<5 { _ = h.key(.down) }
        let before = screen.text
        screen = h.key(.character("q"))              // back to the store: position saved
        #expect(screen.text.contains("TAP TO READ"))
        #expect(!screen.text.contains(" NEW "))
        #expect(screen.text.contains("read "))         // reading progress on the tile

        screen = h.key(.enter)                       // reopen
        #expect(screen.text.contains("article 2 of 3"))
        #expect(screen.text != before)               // scrolled 5 lines down, not at the top
        let stored = try #require(try h.library.store.issue(named: "tidewater-2026-11")?.locator)
        let reopened = try #require(h.app.reader?.pager as? TextPager)
        #expect(stored.resource == reopened.content.readingOrder[1].path)
        #expect(reopened.top == 5)
    }

    /// The newest issue comes with the shelf as read (any state, not only downloaded ones).
    @Test func dOnTheShelfDownloadsThePublicationsNewestIssue() throws {
        let h = try ShelfHarness()
        let screen = h.key(.character("d"))
        #expect(try h.library.store.issue(named: "tidewater-2026-11")?.status == .downloading)
        #expect(h.agentStartCount == 1)
        #expect(screen.text.contains("Downloading “No. 31"), "\(screen.text)")
        #expect(screen.text.contains("NEWSSTAND"))
    }

    @Test func aClickOnATileTapsItAndTheWheelNeverMarksRead() throws {
        let h = try ShelfHarness()
        _ = h.key(.enter)
        let screen = h.app.render()
        let place = try #require(screen.locate("No. 30"))
        _ = h.send(.mouse(.wheelDown, x: place.x, y: place.y))
        #expect(try h.library.store.issue(named: "tidewater-2026-10")?.status == Issue.Status.none)
        _ = h.send(.mouse(.left, x: place.x, y: place.y))
        #expect(try h.library.store.issue(named: "tidewater-2026-10")?.status == .downloading)
        #expect(h.agentStartCount == 1)
    }

    @Test func aTooSmallWindowSaysSoAndResizeKeepsTheSelection() throws {
        let h = try ShelfHarness()
        _ = h.key(.right)
        _ = h.key(.right)
        var screen = h.send(.resize(width: 20, height: 8))
        #expect(screen.text.contains("Too small"))
        #expect(screen.text.split(separator: "\n").allSatisfy { $0.count <= 20 })
        screen = h.send(.resize(width: 300, height: 100))
        #expect(!screen.text.contains("Too small"))
        #expect(h.app.state.shelf.selection == 2)
        let highlighted = screen.cells.filter { $0.style == h.app.env.theme.selection }.map(\.glyph).joined()
        #expect(highlighted == "Rocket Badger")
    }

    @Test func hostileTitlesNeverReachTheScreenAsControls() throws {
        let h = try ShelfHarness(samples: false)
        let hostile = "Evil\u{1B}]52;c;cm0gLXJmIH4=\u{07}\u{1B}[2J Daily\u{9B}31m\u{202E}gnp.exe"
        let publication = try h.library.store.save(Publication(feedURL: "file:///evil.xml", title: hostile))
        var issue = try h.library.store.addIssue(name: "evil-1", date: Date(), publicationID: publication.id, title: "Issue \u{1B}[31mred\u{1B}[0m")
        issue.summary = "bell\u{07} and \u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\"
        try h.library.store.save(issue)
        h.app.reload()
        var screens = [h.app.render()]
        screens.append(h.key(.enter))
        for screen in screens {
            for cell in screen.cells {
                for scalar in cell.glyph.unicodeScalars {
                    #expect(scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value) && !(0x202A...0x202E).contains(scalar.value),
                            "control U+\(String(scalar.value, radix: 16)) reached the canvas")
                }
            }
        }
        #expect(screens[0].text.contains("Evil"))
        #expect(screens[1].text.contains("Issue"))
    }

    @Test func helpListsTheKeysAndOnlyBackClosesIt() throws {
        let h = try ShelfHarness()
        let help = h.key(.character("?")).text
        #expect(help.contains("download"))
        #expect(help.contains("refresh"))
        #expect(h.key(.character("x")).text.contains("Keys"))
        #expect(h.key(.character("q")).text.contains("Tidewater"))
    }
}

@Suite(.serialized) struct ShelfFilterTests {
    @Test func slashFiltersByTitleAndEscapeShowsAllAgain() throws {
        let h = try ShelfHarness()
        _ = h.key(.character("/"))
        for character in "bad" { _ = h.key(.character(character)) }
        var screen = h.key(.enter)
        #expect(screen.text.contains("Rocket Badger"))
        #expect(!screen.text.contains("Tidewater"))
        #expect(!screen.text.contains("Ferrybridge"))
        // Escape shows everything again, and does not quit.
        screen = h.key(.escape)
        #expect(screen.text.contains("Tidewater") && screen.text.contains("Ferrybridge") && screen.text.contains("Rocket Badger"))
        #expect(!h.app.state.quit)

        // A store's filter is its own: filter the shelf, open the one left, see all its issues.
        _ = h.key(.character("/"))
        for character in "TIDE" { _ = h.key(.character(character)) }
        _ = h.key(.enter)
        screen = h.key(.enter)
        #expect(screen.text.contains("No. 31") && screen.text.contains("No. 28"))
        _ = h.key(.character("/"))
        for character in "31" { _ = h.key(.character(character)) }
        screen = h.key(.enter)
        #expect(screen.text.contains("No. 31") && !screen.text.contains("No. 30"))
    }

    @Test func nJumpsToTheNextPublicationWithSomethingNew() throws {
        let h = try ShelfHarness()
        #expect(h.app.state.shelf.selection == 0)
        var screen = h.key(.character("n"))
        #expect(screen.text.contains("Nothing new."))
        let courier = try #require(try h.library.store.issue(named: "courier-2026-11-19"))
        try h.library.downloads.enqueue(courier)
        try h.runAgent()
        _ = h.settle()
        screen = h.key(.character("n"))
        #expect(h.app.state.shelf.selection == 1)
        screen = h.key(.enter)
        _ = h.key(.character("n"))
        #expect(h.app.state.store?.selectedTile?.issue.name == "courier-2026-11-19")
    }
}

@Suite(.serialized) struct ShelfRemovalTests {
    @Test func xAsksThenRemovesTheContentButKeepsThePlaceRead() throws {
        let h = try ShelfHarness()
        _ = h.key(.enter)
        _ = h.key(.enter)
        try h.runAgent()
        _ = h.key(.enter)                          // read
        for _ in 0..<3 { _ = h.key(.down) }
        _ = h.key(.character("q"))
        var screen = h.key(.character("x"))
        #expect(screen.text.contains("(y/n)"))
        screen = h.key(.character("n"))            // anything but y keeps it
        #expect(screen.text.contains("TAP TO READ"))
        _ = h.key(.character("x"))
        screen = h.key(.character("y"))
        let issue = try #require(try h.library.store.issue(named: "tidewater-2026-11"))
        #expect(issue.status == .none)
        #expect(!issue.evicted)                    // the user removed it, not the cache
        #expect(issue.locator.map { $0.text != nil && $0.text != Locator.TextPlace(block: 0, offset: 0) } == true)
        #expect(!FileManager.default.fileExists(atPath: h.library.downloads.contentDirectory(for: issue).path))
        let tile = screen.text.components(separatedBy: "\n").first { $0.contains("No. 31") } ?? ""
        #expect(!tile.isEmpty)
        #expect(!screen.text.contains("Removed to save space"))
        #expect(screen.text.contains("TAP TO DOWNLOAD"))
    }

    @Test func enterOnTapToDownloadOpensTheIssueOnceItIsHere() throws {
        let h = try ShelfHarness()
        _ = h.key(.enter)
        var screen = h.key(.enter)             // tap: queue the newest issue, to read it once here
        #expect(screen.text.contains("WAITING") || screen.text.contains("%"))
        try h.runAgent()
        screen = h.settle()
        #expect(h.app.state.screen == .reader, "\(screen.text)")
        #expect(screen.text.contains("Tidewater — No. 31 · November 2026"), "\(screen.text)")
    }

    @Test func aStoreShownAsAListStaysOneFromOneStartToTheNext() throws {
        let h = try ShelfHarness()
        _ = h.key(.enter)
        _ = h.key(.character("v"))
        let screen = h.settle()
        #expect(screen.text.contains("No. 31 · November 2026") && screen.text.contains("not downloaded"), "\(screen.text)")
        let id = try #require(h.app.state.storePublicationID)
        #expect(try Library(paths: h.library.paths).store.storesShownAsList == [id])
        let again = ShelfApp(environment: h.app.env)
        #expect(again.state.storesShownAsList == [id])
    }

    @Test func thePictureAdviceIsGivenOnceNotOnEveryStart() throws {
        let h = try ShelfHarness()
        h.app.advisePictures(TmuxPassthrough.advice, shelfDrawsPictures: false)
        _ = h.key(.enter)
        #expect(h.settle().text.contains("allow-passthrough on"))
        #expect(h.library.store.pictureAdviceGiven)
        let next = ShelfApp(environment: h.app.env)
        next.advisePictures(TmuxPassthrough.advice, shelfDrawsPictures: false)
        #expect(next.state.pictureAdvice == nil)
    }

    @Test func evictionToSaveSpaceSaysSoOnTheTile() throws {
        let h = try ShelfHarness()
        _ = h.key(.enter)
        _ = h.key(.character("d"))
        try h.runAgent()
        try h.library.cache.evictContent(of: try #require(try h.library.store.issue(named: "tidewater-2026-11")))
        h.app.reload()
        let screen = h.app.render()
        #expect(screen.text.contains("Removed to save space"))
        #expect(try h.library.store.issue(named: "tidewater-2026-11")?.evicted == true)
    }
}

@Suite(.serialized) struct ReaderPictureTests {
    @Test func anArticlesPictureIsDrawnInline() throws {
        let h = try ShelfHarness()
        _ = h.key(.enter)
        _ = h.key(.enter)
        try h.runAgent()
        _ = h.key(.enter)                          // "Ninety-One Nights Alone" has gull-rock.png
        func pictureCells(_ canvas: Canvas) -> Int {
            canvas.cells.filter { $0.glyph == "▀" && $0.foreground != h.app.env.theme.readerText.foreground }.count
        }
        let screen = h.waitFor { pictureCells($0) >= 100 }
        #expect(pictureCells(screen) >= 100, "\(screen.text)")
        #expect(!screen.text.contains("[image:"))
    }
}
