import Foundation
import Testing
import Terminal
import TextLayout
@testable import NewsstandKit
@testable import Shelf

/// What a new user tripped over on the screens (issue 21): stale status lines, cancelling,
/// small windows, large windows, the words in the hint bars, downloads that retry.
@Suite struct FirstUseScreenTests {
    typealias Fixture = ShelfStateFixture

    static func screen(_ state: ShelfApp.State) -> Canvas { ShelfGoldenTests.screen(state) }

    static func hintBar(_ state: ShelfApp.State) -> String {
        screen(state).text.components(separatedBy: "\n").last ?? ""
    }

    static func downloading(_ id: Int64, _ title: String) -> NewsstandKit.Issue {
        Fixture.issue(id, of: 1, title, status: .downloading)
    }

    // MARK: 2. A stale status line

    @Test func aDownloadsStatusClearsWhenTheLibraryShowsTheIssueAvailable() {
        var state = Fixture.store()
        _ = ShelfApp.update(&state, .key(.enter))
        #expect(state.status == "Downloading “No. 31 · November 2026”…")
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(summaries: Fixture.summaries(), pendingDownloads: [11])))
        #expect(state.status == "Downloading “No. 31 · November 2026”…")
        let done = Fixture.issue(11, of: 1, "No. 31 · November 2026", status: .available, unread: true)
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(summaries: Fixture.summaries(), pendingDownloads: [],
                                                                      finishedDownloads: [done])))
        #expect(state.status == nil)
    }

    @Test func aDownloadsStatusClearsWhenTheStoreReadShowsItAvailableEvenUnwatched() {
        var state = Fixture.store()
        _ = ShelfApp.update(&state, .key(.enter))
        var issues = Fixture.tidewaterIssues()
        issues[0].status = .available
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (1, issues.map { IssueTile(issue: $0, download: nil) }))))
        #expect(state.status == nil)
    }

    @Test func anotherStatusIsNotClearedByTheDownloadEnding() {
        var state = Fixture.store()
        _ = ShelfApp.update(&state, .key(.enter))
        _ = ShelfApp.update(&state, .key(.character("p")))       // a newer status: the pin's
        let done = Fixture.issue(11, of: 1, "No. 31 · November 2026", status: .available, unread: true)
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(summaries: Fixture.summaries(), pendingDownloads: [],
                                                                      finishedDownloads: [done])))
        #expect(state.status == "Pinned “No. 31 · November 2026”: it is never removed to save space.")
    }

    @Test func aRefreshsStatusEndsWithTheRefresh() {
        var state = Fixture.shelf()
        _ = ShelfApp.update(&state, .key(.character("r")))
        #expect(state.status == "Refreshing “Tidewater”…")
        _ = ShelfApp.update(&state, .refreshed(added: 0, failures: []))
        #expect(state.status == "Up to date.")
    }

    // MARK: 4. Cancel

    @Test func xOnADownloadingTileAsksAndYCancels() {
        var issues = Fixture.tidewaterIssues()
        issues[0] = Self.downloading(11, "No. 31 · November 2026")
        var state = Fixture.store(issues: issues)
        #expect(ShelfApp.update(&state, .key(.character("x"))) == [])
        #expect(state.status == "Cancel the download of “No. 31 · November 2026”? (y/n)")
        #expect(ShelfApp.update(&state, .key(.character("y"))) == [.cancelDownload(issueID: 11)])
        #expect(state.status == "Cancelling the download of “No. 31 · November 2026”…")
    }

    @Test func xOnADownloadingTileThenNKeepsTheDownload() {
        var issues = Fixture.tidewaterIssues()
        issues[0] = Self.downloading(11, "No. 31 · November 2026")
        var state = Fixture.store(issues: issues)
        _ = ShelfApp.update(&state, .key(.character("x")))
        #expect(ShelfApp.update(&state, .key(.character("n"))) == [])
        #expect(state.status == "The download goes on.")
        // The next key is an ordinary key again.
        #expect(ShelfApp.update(&state, .key(.character("y"))) == [])
    }

    @Test func theRunnerCancelsThroughTheLibraryAndSaysSo() throws {
        let h = try ShelfHarness()
        let runner = EffectRunner(library: h.library, startAgent: {}, clock: Date.init)
        let issue = try #require(try h.library.store.issue(named: "tidewater-2026-11"))
        let id = try #require(issue.id)
        runner.run(.enqueue(issueID: id))
        runner.finishAll()
        #expect(try h.library.store.issue(id: id)?.status == .downloading)
        _ = runner.mailbox.takeAll()
        runner.run(.cancelDownload(issueID: id))
        runner.finishAll()
        #expect(try h.library.store.issue(id: id)?.status == Issue.Status.none)
        #expect(try h.library.downloads.pendingDownloads().isEmpty)
        guard case .downloadCancelled(let cancelled)? = runner.mailbox.takeAll().last else {
            Testing.Issue.record("cancelling did not say so")
            return
        }
        var state = Fixture.store()
        #expect(ShelfApp.update(&state, .downloadCancelled(cancelled)) == [.readLibrary])
        #expect(state.status == "Cancelled the download of “\(cancelled.title)”.")
    }

    @Test func theHintBarSaysXCancelsOnADownloadingTile() {
        var issues = Fixture.tidewaterIssues()
        issues[0] = Self.downloading(11, "No. 31 · November 2026")
        let state = Fixture.store(issues: issues)
        #expect(Self.hintBar(state).contains("x cancel"))
    }

    // MARK: 9. Small terminals: the hints that matter always fit

    @Test(arguments: [(80, 24), (60, 20), (40, 12)])
    func theShelfAndStoreHintBarsKeepHelpAndQuit(width: Int, height: Int) {
        let shelf = Self.hintBar(Fixture.shelf(width: width, height: height))
        #expect(shelf.contains("? help") && shelf.contains("q quit") && !shelf.contains("…"), "\(shelf)")
        let store = Self.hintBar(Fixture.store(width: width, height: height))
        #expect(store.contains("? help") && store.contains("q back") && !store.contains("…"), "\(store)")
        // The most important of the others stays longest.
        if width >= 80 { #expect(shelf.contains("Enter open") && store.contains("Enter read")) }
    }

    @Test func theReadersOwnHintsKeepHelpAndBackWhenCut() {
        let comic = "Space/Bksp page  +/- zoom  arrows pan  t contents  g/G first/last  ? help  q back"
        let fitted = Chrome.fit(Chrome.Hint.ranked(comic), width: 60)
        #expect(fitted.hasPrefix("Space/Bksp page"))
        #expect(fitted.hasSuffix("? help  q back"))
        #expect(DisplayWidth.of(fitted) <= 60)
        // What fits is left as it was.
        #expect(Chrome.fit(Chrome.Hint.ranked(comic), width: 200) == comic)
    }

    // MARK: 12. Hints name keys and actions

    @Test func hintsSayWhatEnterDoesWithoutTouchScreenWords() {
        let shelf = Self.hintBar(Fixture.shelf())
        #expect(shelf.contains("Enter open"))
        var store = Fixture.store()
        // No. 31 is not downloaded: Enter downloads it and opens it once it is here.
        #expect(Self.hintBar(store).contains("Enter read") && Self.hintBar(store).contains("d download"))
        store.openAfterDownload = false
        #expect(Self.hintBar(store).contains("Enter download"))
        _ = ShelfApp.update(&store, .key(.down))                    // No. 30 is downloaded
        #expect(Self.hintBar(store).contains("Enter read"))
        #expect(!Self.hintBar(store).lowercased().contains("tap"))
        // The tiles keep Newsstand's labels.
        #expect(Self.screen(store).text.contains("TAP TO READ"))
    }

    // MARK: 13. A download that retries says so

    @Test func aRetryingDownloadShowsWhyOnOneLineInsteadOfAnEmptyBar() {
        let issue = Self.downloading(11, "No. 31 · November 2026")
        var download = AssetDownload(id: 1, identifier: "a", issueId: 11, url: "https://unreachable.invalid/x.zip", headers: "{}",
                                     userInfo: "{}", kind: .archive, state: .active, bytesWritten: 0, bytesExpected: nil,
                                     bytesPerSecond: nil, etag: nil, lastModified: nil, attempts: 2,
                                     lastError: "cannot resolve unreachable.invalid", createdAt: Fixture.lastIssueDate, finishedAt: nil)
        download.retryAttempt = 2
        download.retryAttempts = 6
        download.retryReason = "cannot resolve host"
        #expect(IssueLabel(IssueTile(issue: issue, download: download)) == .retrying("retrying (2 of 6) — cannot resolve host"))
        var state = Fixture.shelf()
        _ = ShelfApp.update(&state, .key(.enter))
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (1, [IssueTile(issue: issue, download: download)]))))
        let text = Self.screen(state).text
        #expect(text.contains("retrying (2 of 6) — cannot resolve host"))
        #expect(!text.contains("░"))
        // Bytes flowing again (the library clears the retry): a progress bar.
        download.attempts = 1
        download.lastError = nil
        download.retryAttempt = nil
        download.retryAttempts = nil
        #expect(IssueLabel(IssueTile(issue: issue, download: download)) == .progress(fraction: nil, bytes: 0, bytesPerSecond: nil))
    }

    // MARK: 10. Space

    @Test func at120By40TheShelfUsesItsHeightForMoreRows() {
        let state = Fixture.shelf(of: Fixture.publications(7), width: 120, height: 40)
        let layout = state.shelf.layout(width: state.width, height: state.height)
        let rows = state.shelf.visibleRows(height: state.height, layout)
        #expect(rows.count >= 2)
        #expect(rows.count * layout.perRow >= 7)
        // No more than a shelf's height is left empty below the last row.
        let lastLine = rows.last.map { $0.y + layout.unitHeight } ?? 0
        #expect(state.height - 2 - lastLine < layout.unitHeight)
    }

    @Test func at250By70TheShelfIsCentredAndCoversAreLarger() {
        let wide = Fixture.shelf(width: 250, height: 70)
        let medium = Fixture.shelf(width: 120, height: 40)
        let large = wide.shelf.layout(width: wide.width, height: wide.height)
        #expect(large.coverColumns > medium.shelf.layout(width: medium.width, height: medium.height).coverColumns)
        #expect(large.coverRows == large.coverColumns * 3 / 4)     // 2:3 in square half-block pixels
        // The three covers' boxes stand as far from the left edge as from the right.
        let canvas = Self.screen(wide)
        let coverLine = canvas.text.components(separatedBy: "\n")[3]
        let first = coverLine.firstIndex { $0 == "1" }.map { coverLine.distance(from: coverLine.startIndex, to: $0) } ?? 0
        let leftMargin = ShelfScreen.coverX(slot: 0, large)
        let rightMargin = 250 - (ShelfScreen.coverX(slot: 2, large) + large.coverColumns)
        #expect(first == leftMargin)
        #expect(abs(leftMargin - rightMargin) <= 2, "left \(leftMargin), right \(rightMargin)")
    }
}
