import Foundation
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// Pushes as the shelf shows them: an alert on the status line, a throttled automatic
/// download on its store tile.
@Suite(.serialized) struct PushOnShelfTests {
    @Test func anAlertFromTheAgentAppearsOnTheStatusLineOnce() throws {
        let h = try ShelfHarness()
        // Delivered on a connection of its own, as the agent process would.
        let agentSide = try Library(paths: h.library.paths)
        let publication = try #require(try agentSide.store.publications().first)
        let delivery = PushDelivery(library: agentSide, config: Config(), isShelfOpen: { true })
        delivery.deliver(try PushPayload.parse(#"{"aps":{"alert":"Storm \u001b[31mwarning for the harbour"}}"#), to: publication)

        let screen = h.settle().text
        let statusLine = screen.components(separatedBy: "\n")[h.app.state.height - 2]
        #expect(statusLine.contains("Storm warning for the harbour"))
        #expect(!screen.contains("\u{1B}"))
        #expect(try h.library.store.takeUnshownAlert() == nil)
    }

    @Test func aThrottledAutomaticDownloadIsShownOnItsTile() throws {
        let h = try ShelfHarness()
        var publication = try #require(try h.library.store.publications().first)
        publication.autoDownload = true
        publication = try h.library.store.save(publication)
        let issues = try h.library.store.issues(publicationID: publication.id ?? -1)
        try #require(issues.count >= 2)
        let start = Date()
        let delivery = PushDelivery(library: h.library, config: Config(), now: { start }, isShelfOpen: { true })
        #expect(delivery.deliver(.newContent, to: publication).autoDownload == .queued(issues[0].name))
        let older = PushPayload(contentAvailable: true, issueName: issues[1].name)
        let later = PushDelivery(library: h.library, config: Config(), now: { start.addingTimeInterval(3600) }, isShelfOpen: { true })
        guard case .throttled? = later.deliver(older, to: publication).autoDownload else {
            Issue.record("the second automatic download of the day was not throttled")
            return
        }
        h.app.reload()
        let store = h.key(.enter).text
        #expect(store.contains("Auto-download paused until " + Format.dayAndTime(start.addingTimeInterval(24 * 3600))))
    }
}
