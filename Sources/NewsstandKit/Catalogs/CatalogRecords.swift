import Foundation
import Feeds
import GRDB

/// An OPDS catalog the user keeps (calibre's content server, Komga, Kavita…): its root URL
/// and title. Only the address is kept; pages are fetched when they are shown. Credentials
/// never come here.
public struct Catalog: Codable, Sendable, Equatable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "catalog"
    public var id: Int64?
    public var url: String
    public var title: String
    public var addedAt: Date

    public init(id: Int64? = nil, url: String, title: String, addedAt: Date) {
        self.id = id
        self.url = url
        self.title = title
        self.addedAt = addedAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension LibraryStore {
    /// Its own migration, apart from the others', so branches that add theirs merge.
    static func registerCatalogMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("catalogs: OPDS catalogs the user keeps") { db in
            try db.create(table: "catalog") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("url", .text).notNull().unique()
                t.column("title", .text).notNull()
                t.column("addedAt", .datetime).notNull()
            }
        }
    }
}

extension CatalogBrowser {
    /// Keeps a catalog: its first page is fetched (so a URL that is no catalog is refused
    /// before anything is stored) and gives the title. Adding one already kept returns it.
    @discardableResult
    public func addCatalog(url: URL) throws -> (catalog: Catalog, page: CatalogPage, added: Bool) {
        let url = try access.keepingCredentialsApart(url)
        let page = try page(at: url)
        if let existing = try store.catalogs().first(where: { $0.url == url.absoluteString }) { return (existing, page, false) }
        let catalog = try store.insert(Catalog(url: url.absoluteString, title: page.title, addedAt: clock.now()))
        return (catalog, page, true)
    }

    /// A kept catalog by its number in `catalogs()` (from 1), its URL, or its title (exact,
    /// then a unique case-insensitive prefix). A title that several catalogs share is refused,
    /// naming each with its number and URL, so that one is never taken for another.
    public func catalog(matching text: String) throws -> Catalog {
        let all = try store.catalogs()
        if let index = Int(text), index >= 1, index <= all.count { return all[index - 1] }
        if let byURL = all.first(where: { $0.url == text }) { return byURL }
        let exact = all.filter { $0.title == text }
        let lowered = text.lowercased()
        let candidates = exact.isEmpty ? all.filter { $0.title.lowercased().hasPrefix(lowered) } : exact
        guard candidates.count == 1 else {
            guard !candidates.isEmpty else { throw CatalogError("no catalog '\(text)' (see `newsstand catalog list`)") }
            let numbered = candidates.map { candidate in
                "\((all.firstIndex(of: candidate) ?? 0) + 1)  \(candidate.title)  \(candidate.url)"
            }
            throw CatalogError("'\(text)' could be any of these catalogs; say which by its number or URL:\n"
                               + numbered.map { "  " + $0 }.joined(separator: "\n"))
        }
        return candidates[0]
    }
}
