import Foundation
@testable import NewsstandKit

/// A library in a fresh temporary directory, removed when the test is done with it.
final class TemporaryLibrary: Sendable {
    let root: URL
    let library: Library

    /// `access` nil: the network and config.toml as in use. `inMemory`: the store in memory
    /// (`LibraryStore.inMemory()`), for tests of what is stored that need no second
    /// connection, process or `data_version`; the files (content, covers) still in the folder.
    init(clock: WallClock = .system, access: HTTPAccess? = nil, inMemory: Bool = false) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-test-\(UUID().uuidString)", isDirectory: true)
        let paths = Paths(environment: ["NEWSSTAND_HOME": root.path])
        if inMemory {
            try paths.createAll()
            library = Library(paths: paths, database: try LibraryDatabase.inMemory(), clock: clock, access: access ?? .system(paths: paths))
        } else {
            library = try Library(paths: paths, clock: clock, access: access ?? .system(paths: paths))
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// A publication with one issue whose content is the given file.
    func publicationWithIssue(named name: String = "issue-1", content: URL? = nil, date: Date = Date(timeIntervalSince1970: 1_780_000_000)) throws -> (Publication, Issue) {
        let publication = try library.store.save(Publication(feedURL: "file:///feeds/\(UUID().uuidString).xml", title: "The Test Weekly"))
        var issue = try library.store.addIssue(name: name, date: date, publicationID: publication.id, title: "Issue \(name)")
        issue.contentURL = content?.absoluteString
        issue = try library.store.save(issue)
        return (publication, issue)
    }
}
