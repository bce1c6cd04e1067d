import Foundation
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// Work done in the background fails on the status line, once, and the shelf goes on.
@Suite(.serialized) struct BackgroundErrorTests {
    func statusLine(_ canvas: Canvas) -> String { canvas.text(row: canvas.height - 2) }

    @Test func aDownloadThatFailsInTheAgentIsReportedOnTheStatusLine() throws {
        let h = try ShelfHarness()
        var issue = try #require(try h.library.store.issue(named: "tidewater-2026-10"))
        issue.contentURL = h.root.appendingPathComponent("gone.epub").absoluteString
        issue = try h.library.store.save(issue)
        _ = h.key(.enter)                          // Tidewater's store
        _ = h.key(.down)                           // No. 30
        var screen = h.key(.character("d"))
        #expect(statusLine(screen).contains("Downloading"))
        try h.runAgent()
        screen = h.settle()
        #expect(statusLine(screen).contains("Download of “No. 30 · October 2026” failed:"), "\(statusLine(screen))")
        #expect(screen.text.contains("FAILED"))
        // Said once: moving on does not repeat it after the next change.
        _ = h.key(.character("q"))
        try h.library.store.markOpened(try #require(try h.library.store.issue(named: "tidewater-2026-11")), at: h.library.clock.now())
        screen = h.settle()
        #expect(!statusLine(screen).contains("failed"))
    }

    @Test func aFeedThatFailsToRefreshElsewhereIsReported() throws {
        let h = try ShelfHarness()
        var publication = try #require(try h.library.store.publications().first { $0.title == "Rocket Badger" })
        publication.feedURL = h.root.appendingPathComponent("missing-feed.xml").absoluteString
        publication = try h.library.store.save(publication)
        _ = h.settle()
        // The agent's poll (another connection, as another process) fails.
        #expect(throws: (any Error).self) { try Library(paths: h.library.paths).subscriptions.refresh(publication) }
        let screen = h.settle()
        #expect(statusLine(screen).contains("Refreshing “Rocket Badger” failed:"), "\(statusLine(screen))")
        #expect(screen.text.contains("NEWSSTAND"))
    }

    @Test func refreshingABrokenFeedFromTheShelfSaysWhyAndKeepsGoing() throws {
        let h = try ShelfHarness()
        var publication = try #require(try h.library.store.publications().first)
        publication.feedURL = "file:///nonexistent/feed.xml"
        _ = try h.library.store.save(publication)
        _ = h.settle()
        _ = h.key(.character("r"))
        // `settle` waits for the refresh queue: its failure is in by now.
        let screen = h.settle()
        #expect(statusLine(screen).contains("Tidewater"), "\(statusLine(screen))")
        #expect(!statusLine(screen).contains("Refreshing “Tidewater”…"))
        #expect(h.key(.right).text.contains("NEWSSTAND"))
    }
}
