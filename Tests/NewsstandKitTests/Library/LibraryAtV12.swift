import Foundation
import GRDB
@testable import NewsstandKit

/// A library's folder with its database migrated only up to v12, the schema before this
/// round's migrations (kept issues, one place per issue): a test writes what an older
/// version left in it, then opens it as today's `Library` to see it migrated.
struct LibraryAtV12 {
    let root: URL
    let paths: Paths
    let database: DatabaseQueue

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-test-\(UUID().uuidString)", isDirectory: true)
        paths = Paths(environment: ["NEWSSTAND_HOME": root.path])
        try paths.createAll()
        database = try DatabaseQueue(path: paths.database.path)
        try Library.migrator.migrate(database, upTo: "v12-issue-authors-from-feed: the author(s) a catalog's feed names, shown before the download")
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}
