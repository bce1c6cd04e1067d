import Foundation
import Terminal
import Testing
@testable import NewsstandKit
@testable import Shelf

/// The storage budget as the store shows it: pins, issues removed to save space, downloads
/// paused by a full disk.
@Suite(.serialized) struct CacheScreenTests {
    /// The tile text of the issue whose title contains `title`: its title line and the lines below.
    static func tile(_ screen: Canvas, _ title: String) -> String {
        let lines = screen.text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.contains(title) }) else { return "" }
        return lines[start..<min(lines.count, start + 6)].joined(separator: "\n")
    }

    @Test func pPinsAndUnpinsTheSelectedIssue() throws {
        let h = try ShelfHarness()
        _ = h.key(.enter)                                   // Tidewater's store, newest selected
        var screen = h.key(.character("p"))
        #expect(try h.library.store.issue(named: "tidewater-2026-11")?.pinned == true)
        #expect(Self.tile(screen, "No. 31").contains("PINNED"), "\(screen.text)")
        #expect(screen.text.contains("Pinned “"))
        #expect(screen.text.contains("p pin"))
        _ = h.key(.down)
        #expect(!Self.tile(h.app.render(), "No. 30").contains("PINNED"))
        _ = h.key(.up)
        screen = h.key(.character("p"))
        #expect(try h.library.store.issue(named: "tidewater-2026-11")?.pinned == false)
        #expect(!Self.tile(screen, "No. 31").contains("PINNED"))
        #expect(screen.text.contains("Unpinned “"))
    }

    @Test func helpExplainsPinning() throws {
        let h = try ShelfHarness()
        let help = h.key(.character("?")).text
        #expect(help.contains("pin / unpin: a pinned issue is never removed to save space"))
    }

    @Test func anIssueRemovedToSaveSpaceDownloadsAgainWhenTapped() throws {
        let h = try ShelfHarness()
        _ = h.key(.enter)
        _ = h.key(.character("d"))                         // download only: the store stays
        try h.runAgent()
        let issue = try #require(try h.library.store.issue(named: "tidewater-2026-11"))
        try h.library.cache.evictContent(of: issue)
        h.app.reload()
        var screen = h.app.render()
        #expect(Self.tile(screen, "No. 31").contains("Removed to save space"))
        #expect(Self.tile(screen, "No. 31").contains("TAP TO DOWNLOAD"))
        let starts = h.agentStartCount
        screen = h.key(.character("d"))                     // download it again, and stay in the store
        #expect(h.agentStartCount == starts + 1)
        #expect(try h.library.store.issue(named: "tidewater-2026-11")?.status == .downloading)
        try h.runAgent()
        screen = h.settle()
        let again = try #require(try h.library.store.issue(named: "tidewater-2026-11"))
        #expect(again.status == .available && !again.evicted)
        #expect(Self.tile(screen, "No. 31").contains("TAP TO READ"))
        #expect(!screen.text.contains("Removed to save space"))
    }

    @Test func aDownloadPausedByAFullDiskSaysWhy() throws {
        let h = try ShelfHarness()
        _ = h.key(.enter)
        let issue = try #require(try h.library.store.issue(named: "tidewater-2026-11"))
        let asset = try #require(try h.library.downloads.enqueue(issue))
        try h.library.downloads.waitForSpace(asset, needed: 3 * 1024 * 1024,
                                   reason: "paused: the disk is full (3 MiB must be free, 1 MiB is); it goes on by itself when there is room")
        h.app.reload()
        let tile = Self.tile(h.app.render(), "No. 31")
        #expect(tile.contains("paused: the disk is full (3 MiB must be free, 1 MiB is)"), "\(tile)")
        #expect(!tile.contains("WAITING"))
    }
}
