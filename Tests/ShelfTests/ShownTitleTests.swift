import Foundation
import Terminal
import Testing
@testable import NewsstandKit
@testable import Shelf

/// The store shows an issue by the title it shows everywhere (`Issue.shownTitle`): a file
/// added without a title in its feed goes by the title inside it, not by its file name.
@Suite struct ShownTitleTests {
    typealias Fixture = ShelfStateFixture

    /// A file of one's own: its entry was named after the file; the book inside names itself.
    static func ownFile() -> NewsstandKit.Issue {
        var issue = Fixture.issue(11, of: 1, "the-spring-number", status: .available, unread: true)
        issue.contentURL = "file:///home/reader/magazines/the-spring-number.pdf"
        issue.contentTitle = "The Spring Number"
        return issue
    }

    func storeScreen(_ issues: [NewsstandKit.Issue]) -> String {
        let state = Fixture.store(issues: issues)
        return ShelfApp.view(state, ShelfApp.ViewContext(theme: .classic, covers: KnownCovers())).text
    }

    @Test func aTileShowsTheTitleInsideTheFileNotTheFileName() {
        let screen = storeScreen([Self.ownFile()])
        #expect(screen.contains("The Spring Number"))
        #expect(!screen.contains("the-spring-number"))
    }

    @Test func theFeedsOwnTitleStillWins() {
        var issue = Self.ownFile()
        issue.title = "Spring, as the feed calls it"
        let screen = storeScreen([issue])
        #expect(screen.contains("Spring, as the feed calls it"))
        #expect(!screen.contains("The Spring Number"))
    }

    @Test func theStoresMessagesNameTheShownTitle() {
        var state = Fixture.store(issues: [Self.ownFile()])
        _ = ShelfApp.update(&state, .key(.character("p")))
        #expect(state.status == "Pinned “The Spring Number”: it is never removed to save space.")
    }
}

/// An empty store says why it is empty rather than always "Press r".
@Suite struct EmptyStoreLineTests {
    typealias Fixture = ShelfStateFixture

    func emptyStore(_ change: (inout Publication) -> Void) -> String {
        var summaries = Fixture.summaries()
        change(&summaries[0].publication)
        var state = Fixture.shelf(of: summaries)
        _ = ShelfApp.update(&state, .key(.enter))
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (1, []))))
        return ShelfApp.view(state, ShelfApp.ViewContext(theme: .classic, covers: KnownCovers())).text
    }

    @Test func aFeedReadWithNothingToReadSaysSo() {
        let screen = emptyStore { $0.lastRefresh = Fixture.lastIssueDate }
        #expect(screen.contains("Its feed lists neither issue archives nor articles"))
        #expect(!screen.contains("Press r"))
    }

    @Test func aFailedRefreshSaysWhatFailed() {
        let screen = emptyStore { publication in
            publication.lastRefresh = Fixture.lastIssueDate
            publication.lastError = "the server said 404"
        }
        #expect(screen.contains("The last refresh failed: the server said 404. Press r to try again."))
    }
}
