import Foundation
import Imaging
import Pictures
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// Shelves and stores built in memory, for the screens' update and view without a library.
enum ShelfStateFixture {
    static let day: TimeInterval = 86_400
    /// 20 Nov 2026 00:00 UTC.
    static let lastIssueDate = Date(timeIntervalSince1970: 1_795_132_800)

    static func publication(_ id: Int64, _ title: String) -> Publication {
        Publication(id: id, feedURL: "https://example.org/\(id).xml", title: title, addedAt: Date(timeIntervalSince1970: 0))
    }

    static func issue(_ id: Int64, of publicationID: Int64, _ title: String, daysBefore: Int = 0, status: Issue.Status = .none,
                      unread: Bool = false, pinned: Bool = false, progress: Double? = nil, error: String? = nil) -> Issue {
        var issue = Issue(id: id, publicationId: publicationID, name: "issue-\(id)",
                          date: lastIssueDate.addingTimeInterval(-Double(daysBefore) * day), title: title)
        issue.status = status
        issue.unread = unread
        issue.pinned = pinned
        issue.locator = progress.map { Locator(resource: "OEBPS/ch1.xhtml", progression: 0, totalProgression: $0, updated: lastIssueDate) }
        issue.lastError = error
        return issue
    }

    /// Three publications: Tidewater with four issues (the newest not downloaded), The
    /// Ferrybridge Courier with one unread, Rocket Badger with none.
    static func summaries() -> [PublicationSummary] {
        [
            PublicationSummary(publication: publication(1, "Tidewater"), issueCount: 4, unreadCount: 0,
                               newestAvailable: nil, cover: nil, newestIssue: tidewaterIssues()[0]),
            PublicationSummary(publication: publication(2, "The Ferrybridge Courier"), issueCount: 2, unreadCount: 1,
                               newestAvailable: issue(21, of: 2, "Friday", status: .available, unread: true), cover: nil,
                               newestIssue: issue(21, of: 2, "Friday", status: .available, unread: true)),
            PublicationSummary(publication: publication(3, "Rocket Badger"), issueCount: 0, unreadCount: 0,
                               newestAvailable: nil, cover: nil),
        ]
    }

    static func tidewaterIssues() -> [Issue] {
        [
            issue(11, of: 1, "No. 31 · November 2026"),
            issue(12, of: 1, "No. 30 · October 2026", daysBefore: 30, status: .available, unread: true, progress: 0.4),
            issue(13, of: 1, "No. 29 · September 2026", daysBefore: 61, status: .available, pinned: true),
            issue(14, of: 1, "No. 28 · August 2026", daysBefore: 91, error: "the server said 404"),
        ]
    }

    /// "Publication 1" to "Publication N", the nth with n issues.
    static func publications(_ count: Int) -> [PublicationSummary] {
        (1...count).map { n in
            PublicationSummary(publication: publication(Int64(n), "Publication \(n)"), issueCount: n, unreadCount: 0,
                               newestAvailable: nil, cover: nil, newestIssue: nil)
        }
    }

    /// The shelf as read, at a window size.
    static func shelf(of summaries: [PublicationSummary] = summaries(), width: Int = 120, height: Int = 40) -> ShelfApp.State {
        var state = ShelfApp.State(width: width, height: height)
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(summaries: summaries, pendingDownloads: [])))
        return state
    }

    /// Tidewater's store, opened from the shelf and read.
    static func store(width: Int = 120, height: Int = 40, issues: [Issue] = tidewaterIssues()) -> ShelfApp.State {
        var state = shelf(width: width, height: height)
        _ = ShelfApp.update(&state, .key(.enter))
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (1, issues.map { IssueTile(issue: $0, download: nil) }))))
        return state
    }
}

/// Covers of known cells: a publication's is its id's digit on every cell, so a screen
/// says which cover stands where; issues show the placeholder with their title.
struct KnownCovers: CoverSource {
    func shelfRequest(_ summary: PublicationSummary, size: CellSize) -> CoverRequest? {
        guard summary.issueCount > 0 else { return nil }
        return CoverRequest(source: .file(URL(fileURLWithPath: "/known/\((summary.publication.id ?? 0) % 10)")), size: size,
                            dress: .plain, inPixels: false)
    }

    func tileRequest(_ tile: IssueTile, size: CellSize) -> CoverRequest? { nil }

    func art(for request: CoverRequest) -> CoverArt? {
        guard case .file(let file) = request.source, let digit = file.lastPathComponent.first else { return nil }
        return CoverArt(cells: CellPicture(columns: request.size.columns, rows: request.size.rows,
                                           filledWith: PictureCell(glyph: digit, foreground: .rgb(200, 200, 200), background: .rgb(40, 40, 40))))
    }
}
