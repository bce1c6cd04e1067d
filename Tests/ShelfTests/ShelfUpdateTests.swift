import Foundation
import Synchronization
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// The screens' decisions, with no library: a state and a message in, the new state and
/// the effects out.
@Suite struct ShelfUpdateTests {
    typealias Fixture = ShelfStateFixture

    @Test func pInAStorePinsTheSelectedIssueAndSaysSo() {
        var state = Fixture.store()
        _ = ShelfApp.update(&state, .key(.down))                 // No. 30, not pinned
        #expect(ShelfApp.update(&state, .key(.character("p"))) == [.setPinned(issueID: 12, true)])
        #expect(state.status == "Pinned “No. 30 · October 2026”: it is never removed to save space.")
        _ = ShelfApp.update(&state, .key(.down))                 // No. 29, pinned
        #expect(ShelfApp.update(&state, .key(.character("p"))) == [.setPinned(issueID: 13, false)])
        #expect(state.status == "Unpinned “No. 29 · September 2026”.")
    }

    @Test func keysTypedIntoAStoreBeforeItsIssuesArriveActOnThemInOrder() {
        var state = Fixture.shelf()
        #expect(ShelfApp.update(&state, .key(.enter)) == [.readStore])
        // Typed at once, as a fast typist or a script does: nothing to act on yet.
        #expect(ShelfApp.update(&state, .key(.down)) == [])
        #expect(ShelfApp.update(&state, .key(.character("p"))) == [])
        #expect(ShelfApp.update(&state, .key(.down)) == [])
        #expect(ShelfApp.update(&state, .key(.character("p"))) == [])
        let tiles = Fixture.tidewaterIssues().map { IssueTile(issue: $0, download: nil) }
        let effects = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (1, tiles))))
        #expect(effects == [.setPinned(issueID: 12, true), .setPinned(issueID: 13, false)])
        #expect(state.store?.selection == 2)
        #expect((state.store?.keysAwaiting ?? []).isEmpty)
        // Once read, a key acts at once.
        #expect(ShelfApp.update(&state, .key(.character("p"))) == [.setPinned(issueID: 13, false)])
    }

    @Test func keysTypedAheadThroughTwoStoresWaitForEachInTurn() {
        var state = Fixture.shelf()
        _ = ShelfApp.update(&state, .key(.enter))
        for key: Key in [.character("q"), .right, .enter, .character("p")] { _ = ShelfApp.update(&state, .key(key)) }
        let tidewater = Fixture.tidewaterIssues().map { IssueTile(issue: $0, download: nil) }
        // Tidewater's issues arrive: q leaves, → and Enter open the Courier, whose issues are not read yet.
        #expect(ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (1, tidewater)))) == [.readStore])
        #expect(state.storePublicationID == 2)
        #expect(state.store?.keysAwaiting == [.character("p")])
        let friday = Fixture.issue(21, of: 2, "Friday", status: .available, unread: true)
        #expect(ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (2, [IssueTile(issue: friday, download: nil)]))))
                == [.setPinned(issueID: 21, true)])
    }

    @Test func aStoreWhoseReadFailsStillTakesTheKeysTypedAhead() {
        var state = Fixture.shelf()
        _ = ShelfApp.update(&state, .key(.enter))
        _ = ShelfApp.update(&state, .key(.character("q")))
        #expect(state.screen == .store)
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(error: "disk I/O error")))
        // The read ended (badly): the q typed meanwhile went back to the shelf.
        #expect(state.screen == .shelf)
        #expect((state.store?.keysAwaiting ?? []).isEmpty)
    }

    @Test func dOnTheShelfQueuesTheNewestIssueAsReadWithTheShelf() {
        var state = Fixture.shelf()
        #expect(ShelfApp.update(&state, .key(.character("d"))) == [.enqueue(issueID: 11), .startAgent])
        #expect(state.status == "Downloading “No. 31 · November 2026”…")
        #expect(state.screen == .shelf)
        // The Courier's newest is downloaded already: nothing to do but say so.
        _ = ShelfApp.update(&state, .key(.right))
        #expect(ShelfApp.update(&state, .key(.character("d"))) == [])
        #expect(state.status == "“Friday” is already downloaded.")
        // Rocket Badger has no issue at all.
        _ = ShelfApp.update(&state, .key(.right))
        #expect(ShelfApp.update(&state, .key(.character("d"))) == [])
    }

    @Test func tappingAnIssueNotDownloadedQueuesItAndStartsTheAgent() {
        var state = Fixture.store()
        #expect(ShelfApp.update(&state, .key(.enter)) == [.enqueue(issueID: 11), .startAgent])
        #expect(state.status == "Downloading “No. 31 · November 2026”…")
        #expect(!state.statusIsError)
    }

    /// Tidewater's issues as read, No. 31 (id 11) with this status.
    static func tidewaterTiles(newest status: NewsstandKit.Issue.Status) -> [IssueTile] {
        var issues = Fixture.tidewaterIssues()
        issues[0].status = status
        return issues.map { IssueTile(issue: $0, download: nil) }
    }

    @Test func enterOnAnIssueNotDownloadedOpensItOnceItIsHereIfStillChosen() {
        var state = Fixture.store()
        #expect(ShelfApp.update(&state, .key(.enter)) == [.enqueue(issueID: 11), .startAgent])
        let downloading = ShelfApp.LibraryRead(store: (1, Self.tidewaterTiles(newest: .downloading)))
        #expect(!ShelfApp.update(&state, .libraryRead(downloading)).contains { if case .markOpened = $0 { true } else { false } })
        let here = Self.tidewaterTiles(newest: .available)
        #expect(ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (1, here)))) == [.markOpened(here[0].issue)])
        // Once only: the next read does not open it again.
        #expect(ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (1, here)))) == [])
    }

    @Test func anIssueNoLongerChosenOrTheSettingOffOnlyDownloads() {
        var state = Fixture.store()
        _ = ShelfApp.update(&state, .key(.enter))
        _ = ShelfApp.update(&state, .key(.down))
        let here = Self.tidewaterTiles(newest: .available)
        #expect(ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (1, here)))) == [])
        // Chosen again later: it was forgotten when the selection moved.
        _ = ShelfApp.update(&state, .key(.up))
        #expect(ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (1, here)))) == [])

        var kept = Fixture.store()
        kept.openAfterDownload = false
        #expect(ShelfApp.update(&kept, .key(.enter)) == [.enqueue(issueID: 11), .startAgent])
        #expect(ShelfApp.update(&kept, .libraryRead(ShelfApp.LibraryRead(store: (1, here)))) == [])
        // `d` never opens what it downloads.
        var downloaded = Fixture.store()
        _ = ShelfApp.update(&downloaded, .key(.character("d")))
        #expect(ShelfApp.update(&downloaded, .libraryRead(ShelfApp.LibraryRead(store: (1, here)))) == [])
    }

    @Test func openAfterDownloadIsOnUnlessConfigSaysFalse() throws {
        #expect(try Config.parse("", file: "c").openAfterDownload)
        #expect(try Config.parse("open_after_download = false", file: "c").openAfterDownload == false)
        #expect {
            try Config.parse("open_after_download = \"no\"", file: "config.toml")
        } throws: { error in
            (error as? ConfigError)?.description == "config.toml: open_after_download must be true or false"
        }
    }

    @Test func vShowsTheStoreAsAListKeptForThatPublication() {
        var state = Fixture.store(width: 120, height: 40)
        #expect(StoreScreen.visibleTiles(height: 40) == 4)
        #expect(ShelfApp.update(&state, .key(.character("v"))) == [.saveStoreView(publicationID: 1, asList: true)])
        #expect(state.store?.asList == true)
        #expect(state.store?.visibleCount(height: 40) == 35)
        // A line each: a click on the third line chooses the third issue.
        _ = ShelfApp.update(&state, .mouse(.left, x: 10, y: 4))
        #expect(state.store?.selection == 2)
        // Back on the shelf and in again: still a list; another publication's store has tiles.
        func reopen(_ move: Key?) {
            _ = ShelfApp.update(&state, .key(.character("q")))
            if let move { _ = ShelfApp.update(&state, .key(move)) }
            _ = ShelfApp.update(&state, .key(.enter))
            let id = state.storePublicationID ?? 0
            _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (id, id == 1 ? Self.tidewaterTiles(newest: .none) : []))))
        }
        reopen(nil)
        #expect(state.store?.asList == true)
        reopen(.right)
        #expect(state.store?.asList == false)
        reopen(.left)
        #expect(ShelfApp.update(&state, .key(.character("v"))) == [.saveStoreView(publicationID: 1, asList: false)])
        #expect(state.storesShownAsList.isEmpty)
    }

    @Test func thePictureAdviceIsSaidOnceWhenAScreenWouldDrawPicturesAndWhole() {
        let advice = TmuxPassthrough.advice
        var state = Fixture.shelf(width: 80, height: 24)
        state.pictureAdvice = ShelfApp.PictureAdvice(text: advice, shelfDrawsPictures: false)
        // Half-block covers on the shelf: nothing to say yet.
        #expect(ShelfApp.update(&state, .resize(width: 80, height: 24)) == [])
        #expect(state.status == nil)
        #expect(ShelfApp.update(&state, .key(.enter)) == [.readStore, .keepPictureAdviceGiven])
        #expect(state.status == advice)
        // Whole, on three lines above the hints.
        let lines = ShelfGoldenTests.screen(state).text.components(separatedBy: "\n")[20...22]
        #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == advice, "\(lines)")
        // Once.
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (1, Self.tidewaterTiles(newest: .none)))))
        _ = ShelfApp.update(&state, .key(.character("q")))
        #expect(ShelfApp.update(&state, .key(.enter)) == [.readStore])
        // Pixel covers on the shelf need it at once.
        var pixels = Fixture.shelf()
        pixels.pictureAdvice = ShelfApp.PictureAdvice(text: advice, shelfDrawsPictures: true)
        #expect(ShelfApp.update(&pixels, .resize(width: 120, height: 40)) == [.keepPictureAdviceGiven])
    }

    @Test func tappingADownloadedIssueOpensItThroughTheLibraryFirst() {
        var state = Fixture.store()
        _ = ShelfApp.update(&state, .key(.down))
        let issue = Fixture.tidewaterIssues()[1]
        #expect(ShelfApp.update(&state, .key(.enter)) == [.markOpened(issue)])
        #expect(ShelfApp.update(&state, .issueOpened(issue)) == [.openReader(issue)])
        #expect(ShelfApp.update(&state, .issueGone(issue)) == [.readLibrary])
        #expect(state.status == "“No. 30 · October 2026” was removed to save space; tap to download it again.")
        #expect(state.statusIsError)
        #expect(state.screen == .store)
    }

    @Test func xAsksFirstAndRemovesOnlyOnY() {
        var state = Fixture.store()
        _ = ShelfApp.update(&state, .key(.down))
        #expect(ShelfApp.update(&state, .key(.character("x"))) == [])
        #expect(state.status == "Remove the downloaded content of “No. 30 · October 2026”? (y/n)")
        #expect(ShelfApp.update(&state, .key(.character("n"))) == [])
        #expect(state.status == "Kept.")
        _ = ShelfApp.update(&state, .key(.character("x")))
        #expect(ShelfApp.update(&state, .key(.character("y"))) == [.evictContent(issueID: 12)])
        #expect(state.store?.confirmRemoval == nil)
        #expect(ShelfApp.update(&state, .contentRemoved(Fixture.tidewaterIssues()[1])) == [.readLibrary])
        #expect(state.status == "Removed the content of “No. 30 · October 2026”; tap to download it again.")
        // An issue not downloaded has nothing to remove: x does not ask.
        _ = ShelfApp.update(&state, .key(.up))
        _ = ShelfApp.update(&state, .key(.character("x")))
        #expect(state.store?.confirmRemoval == nil)
    }

    @Test func theStoreScrollsOnlyAsFarAsTheSelectionNeeds() {
        let many = (0..<20).map { Fixture.issue(Int64(100 + $0), of: 1, "No. \($0)", daysBefore: $0) }
        var state = Fixture.store(height: 40, issues: many)     // (40 - 4) / 9: four tiles on screen
        for _ in 0..<3 { _ = ShelfApp.update(&state, .key(.down)) }
        #expect(state.store?.selection == 3 && state.store?.scroll == 0)
        _ = ShelfApp.update(&state, .key(.down))
        #expect(state.store?.selection == 4 && state.store?.scroll == 1)
        _ = ShelfApp.update(&state, .key(.end))
        #expect(state.store?.selection == 19 && state.store?.scroll == 16)
        _ = ShelfApp.update(&state, .key(.up))
        #expect(state.store?.scroll == 16)
        _ = ShelfApp.update(&state, .resize(width: 120, height: 22))   // two tiles on screen
        #expect(state.store?.selection == 18 && state.store?.scroll == 17)
        _ = ShelfApp.update(&state, .key(.home))
        #expect(state.store?.selection == 0 && state.store?.scroll == 0)
        // The view draws the tiles the state says, without changing it.
        let before = state.store?.scroll
        _ = ShelfApp.view(state, ShelfApp.ViewContext(theme: .classic, covers: KnownCovers()))
        #expect(state.store?.scroll == before)
    }

    @Test func refreshAsksTheRunnerAndItsResultReachesTheStatusLine() {
        var state = Fixture.shelf()
        _ = ShelfApp.update(&state, .key(.right))
        #expect(ShelfApp.update(&state, .key(.character("r"))) == [.refresh([Fixture.publication(2, "The Ferrybridge Courier")])])
        #expect(state.status == "Refreshing “The Ferrybridge Courier”…")
        #expect(ShelfApp.update(&state, .refreshed(added: 2, failures: [])) == [.readLibrary])
        #expect(state.status == "2 new issues." && !state.statusIsError)
        #expect(ShelfApp.update(&state, .refreshed(added: 0, failures: [])) == [.readLibrary])
        #expect(state.status == "Up to date.")
        _ = ShelfApp.update(&state, .refreshed(added: 0, failures: ["Tidewater: offline"]))
        #expect(state.status == "Tidewater: offline" && state.statusIsError)
        #expect(ShelfApp.update(&state, .key(.character("R"))) == [.refresh(Fixture.summaries().map(\.publication))])
        #expect(state.status == "Refreshing all publications…")
        #expect(ShelfApp.update(&state, .refreshing(done: 12, of: 28)) == [])
        #expect(state.status == "Refreshing 12/28…" && !state.statusIsError)
        _ = ShelfApp.update(&state, .refreshed(added: 1, failures: []))
        #expect(state.status == "1 new issue.")
    }

    @Test func aClickSelectsACoverAndASecondOpensItsStore() {
        var state = Fixture.shelf()
        let layout = state.shelf.layout(width: state.width, height: state.height)
        let courierX = ShelfScreen.coverX(slot: 1, layout) + 1
        #expect(ShelfApp.update(&state, .mouse(.left, x: courierX, y: 3)) == [])
        #expect(state.shelf.selection == 1)
        #expect(ShelfApp.update(&state, .mouse(.left, x: courierX, y: 3)) == [.readStore])
        #expect(state.screen == .store && state.storePublicationID == 2)
        // The wall between the covers and the bars are nothing to click.
        var shelf = Fixture.shelf()
        #expect(ShelfApp.update(&shelf, .mouse(.left, x: 0, y: 0)) == [] && shelf.shelf.selection == 0)
    }

    @Test func aClickOnATileSelectsItASecondTapsItAndTheWheelOnlyMoves() {
        var state = Fixture.store()
        // A tile takes nine rows from the one above its cover (row 1): row 12 is the second, row 30 the fourth.
        #expect(ShelfApp.update(&state, .mouse(.wheelDown, x: 30, y: 12)) == [])
        #expect(state.store?.selection == 1)
        #expect(ShelfApp.update(&state, .mouse(.left, x: 30, y: 30)) == [])
        #expect(state.store?.selection == 3)
        #expect(ShelfApp.update(&state, .mouse(.left, x: 30, y: 30)) == [.enqueue(issueID: 14), .startAgent])
    }

    @Test func whatTheLibraryReadReplacesTheListsAndKeepsTheSelection() {
        var state = Fixture.shelf()
        _ = ShelfApp.update(&state, .key(.right))
        var summaries = Fixture.summaries()
        summaries.insert(PublicationSummary(publication: Fixture.publication(4, "Almanac"), issueCount: 1, unreadCount: 0,
                                            newestAvailable: nil, cover: nil), at: 0)
        #expect(ShelfApp.update(&state, .libraryChanged) == [.readLibrary])
        #expect(ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(summaries: summaries, pendingDownloads: []))) == [.takeAlert])
        #expect(state.summaries.count == 4)
        #expect(state.shelf.selectedSummary?.publication.title == "The Ferrybridge Courier")
        #expect(ShelfApp.update(&state, .alert("Storm warning")) == [])
        #expect(state.status == "▶ Storm warning")
    }

    @Test func aWatchedDownloadThatFailedIsReportedOnce() {
        var state = Fixture.shelf()
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(summaries: Fixture.summaries(), pendingDownloads: [11])))
        #expect(state.watchedDownloads == [11])
        let failed = Fixture.issue(11, of: 1, "No. 31 · November 2026", error: "the server said 500")
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(summaries: Fixture.summaries(), pendingDownloads: [],
                                                                      finishedDownloads: [failed])))
        #expect(state.status == "Download of “No. 31 · November 2026” failed: the server said 500" && state.statusIsError)
        #expect(state.watchedDownloads.isEmpty)
    }

    @Test func readingFromTheCommandLineOpensTheIssueWithItsStoreBehind() {
        var state = Fixture.shelf()
        let issue = Fixture.tidewaterIssues()[2]
        #expect(ShelfApp.update(&state, .startReading(issue)) == [.readStore, .markOpened(issue)])
        #expect(state.screen == .store && state.storePublicationID == 1)
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (1, Fixture.tidewaterIssues().map { IssueTile(issue: $0, download: nil) }))))
        #expect(state.store?.selectedTile?.issue.id == 13)
    }

    @Test func filterEscapeAndQuitOnTheShelf() {
        var state = Fixture.shelf()
        for key in [Key.character("/"), .character("c"), .character("o"), .enter] { _ = ShelfApp.update(&state, .key(key)) }
        #expect(state.summaries.map(\.publication.title) == ["The Ferrybridge Courier"])
        _ = ShelfApp.update(&state, .key(.escape))
        #expect(state.summaries.count == 3 && !state.quit)
        _ = ShelfApp.update(&state, .key(.backspace))
        #expect(!state.quit)
        #expect(ShelfApp.update(&state, .key(.control("z"))) == [.suspend])
        _ = ShelfApp.update(&state, .key(.character("q")))
        #expect(state.quit)
    }
}

/// The runner does what the effects say, on the library, and posts what came of it.
@Suite(.serialized) struct EffectRunnerTests {
    @Test func effectsChangeTheLibraryAndTheirResultsComeBackAsMessages() throws {
        let h = try ShelfHarness()
        let opened = Date(timeIntervalSince1970: 1_800_000_000)
        let starts = Mutex(0)
        let runner = EffectRunner(library: h.library, startAgent: { starts.withLock { $0 += 1 } }, clock: { opened })
        let issue = try #require(try h.library.store.issue(named: "tidewater-2026-11"))
        let id = try #require(issue.id)

        runner.run(.setPinned(issueID: id, true))
        runner.run(.enqueue(issueID: id))
        runner.run(.startAgent)
        runner.finishAll()
        #expect(try h.library.store.issue(id: id)?.pinned == true)
        #expect(try h.library.store.issue(id: id)?.status == .downloading)
        #expect(starts.withLock { $0 } == 1)
        let messages = runner.mailbox.takeAll()
        #expect(messages.count == 2)
        #expect(messages.allSatisfy { if case .libraryChanged = $0 { true } else { false } })

        let place = Locator(resource: "OEBPS/ch2.xhtml", progression: 0.5, totalProgression: 0.25, updated: opened)
        runner.run(.saveReadingPlace(issueID: id, place))
        runner.finishAll()
        #expect(try h.library.store.issue(id: id)?.locator == place)
        #expect(try h.library.store.issue(id: id)?.locator?.totalProgression == 0.25)

        // Opening stamps the issue with the injected clock; still downloading, it is not there to read.
        runner.run(.markOpened(issue))
        runner.finishAll()
        #expect(try h.library.store.issue(id: id)?.lastOpenedAt == opened)
        guard case .issueGone(let gone)? = runner.mailbox.takeAll().last else {
            Issue.record("opening an issue not downloaded did not say it is gone")
            return
        }
        #expect(gone.id == id)
    }

    /// `R`: the feeds go to the library's refresh of several at once, each one that ends is
    /// counted in order, and the failures come back in the order the feeds were given.
    @Test func refreshingAllCountsEachFeedAsItEnds() throws {
        let h = try ShelfHarness()
        let runner = EffectRunner(library: h.library, startAgent: {}, clock: Date.init)
        let kept = try h.library.store.publications()
        try #require(kept.count >= 2)
        let missing = [Publication(id: 98, feedURL: "file:///nonexistent/a.xml", title: "Nowhere A"),
                       Publication(id: 99, feedURL: "file:///nonexistent/b.xml", title: "Nowhere B")]
        let all = [missing[0]] + kept + [missing[1]]
        runner.run(.refresh(all))
        runner.finishAll()
        let messages = runner.mailbox.takeAll()
        let counted = messages.compactMap { message -> Int? in
            if case .refreshing(let done, let total) = message, total == all.count { return done } else { return nil }
        }
        #expect(counted == Array(1...all.count), "\(messages)")
        guard case .refreshed(_, let failures)? = messages.last else {
            Issue.record("the refresh did not end with its result: \(messages)")
            return
        }
        #expect(failures.map { $0.components(separatedBy: ":")[0] } == ["Nowhere A", "Nowhere B"], "\(failures)")
    }

    @Test func aRefreshThatFailsComesBackWithWhy() throws {
        let h = try ShelfHarness()
        let runner = EffectRunner(library: h.library, startAgent: {}, clock: Date.init)
        runner.run(.refresh([Publication(id: 99, feedURL: "file:///nonexistent/feed.xml", title: "Nowhere")]))
        runner.finishAll()
        let messages = runner.mailbox.takeAll()
        let refreshed = messages.compactMap { message -> [String]? in
            if case .refreshed(_, let failures) = message { return failures } else { return nil }
        }
        #expect(refreshed.count == 1 && refreshed[0].first?.hasPrefix("Nowhere: ") == true, "\(refreshed)")
        // One feed is not counted: its own status line says which.
        #expect(!messages.contains { if case .refreshing = $0 { true } else { false } })
    }
}

/// Each screen is a component: its update sees its own state and what the app shares, and
/// says what it asks of the app; the stack holds the values.
@Suite struct ScreenComponentTests {
    typealias Fixture = ShelfStateFixture

    static func shared(width: Int = 120, height: Int = 40) -> ShelfApp.Shared {
        ShelfApp.Shared(keyBindings: .defaults, width: width, height: height, summaries: Fixture.summaries())
    }

    static func runs(_ asked: [ShelfApp.ScreenEffect]) -> [ShelfApp.Effect] {
        asked.compactMap { if case .run(let effect) = $0 { effect } else { nil } }
    }

    static func statuses(_ asked: [ShelfApp.ScreenEffect]) -> [String?] {
        asked.compactMap { if case .status(let text, _, _) = $0 { text } else { nil } }
    }

    @Test func aStoreOnItsOwnAsksBeforeRemovingAndClosesItself() {
        var store = StoreScreen(publicationID: 1, issueToSelect: 12)
        store.read(Fixture.tidewaterIssues().map { IssueTile(issue: $0, download: nil) })
        store.applyFilter()
        #expect(store.selectedTile?.issue.id == 12)
        let asked = store.update(.character("x"), Self.shared())
        #expect(Self.runs(asked).isEmpty && store.confirmRemoval == 12)
        #expect(Self.statuses(asked) == ["Remove the downloaded content of “No. 30 · October 2026”? (y/n)"])
        #expect(Self.runs(store.update(.character("y"), Self.shared())) == [.evictContent(issueID: 12)])
        #expect(store.confirmRemoval == nil)
        let back = store.update(.character("q"), Self.shared())
        #expect(back.contains { if case .close = $0 { true } else { false } })
    }

    @Test func aShelfOnItsOwnFiltersAndOpensAStoreValue() {
        var shelf = ShelfScreen()
        shelf.show(Fixture.summaries())
        for key in [Key.character("/"), .character("c"), .character("o"), .enter] { _ = shelf.update(key, Self.shared()) }
        #expect(shelf.summaries.map(\.publication.title) == ["The Ferrybridge Courier"])
        let asked = shelf.update(.enter, Self.shared())
        #expect(Self.runs(asked) == [.readStore])
        let opened = asked.compactMap { if case .open(.store(let store)) = $0 { store.publicationID } else { nil } }
        #expect(opened == [2])
        // The filter belongs to the shelf: it goes as the store opens, the selection stays on the Courier.
        #expect(shelf.filter.text.isEmpty && shelf.selectedSummary?.publication.id == 2 && shelf.summaries.count == 3)
    }

    @Test func backPopsTheStoresValueAndAStoresFilterLeavesTheShelfAlone() {
        var state = Fixture.store()
        _ = ShelfApp.update(&state, .key(.down))
        for key in [Key.character("/"), .character("3"), .character("1"), .enter] { _ = ShelfApp.update(&state, .key(key)) }
        #expect(state.store?.tiles.map(\.issue.id) == [11])
        // The shelf behind it still shows every publication, Tidewater selected.
        #expect(state.shelf.summaries.count == 3 && state.shelf.selectedSummary?.publication.id == 1)
        _ = ShelfApp.update(&state, .key(.escape))       // clears the filter
        _ = ShelfApp.update(&state, .key(.escape))       // leaves
        #expect(state.screens == [.shelf] && state.store == nil)
        // A store opened again starts anew: its own selection and filter.
        _ = ShelfApp.update(&state, .key(.enter))
        #expect(state.store?.selection == 0 && state.store?.filter.text == "" && state.store?.isRead == false)
    }

    @Test func theCatalogsOpenAgainWhereTheyWereLeft() {
        var state = Fixture.shelf()
        _ = ShelfApp.update(&state, .key(.character("c")))
        let catalogs = [Catalog(id: 1, url: "http://a.example/opds", title: "A", addedAt: Date()),
                        Catalog(id: 2, url: "http://b.example/opds", title: "B", addedAt: Date())]
        _ = ShelfApp.update(&state, .catalogsRead(catalogs))
        _ = ShelfApp.update(&state, .key(.down))
        _ = ShelfApp.update(&state, .key(.character("q")))
        #expect(state.screens == [.shelf])
        #expect(ShelfApp.update(&state, .key(.character("c"))) == [.readCatalogs])
        #expect(state.screen == .catalog && state.catalog.listSelection == 1 && state.catalog.catalogs.count == 2)
    }
}
