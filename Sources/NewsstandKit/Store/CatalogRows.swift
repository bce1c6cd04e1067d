import Foundation
import GRDB

/// The catalogs repository: the OPDS catalogs the user keeps.
extension LibraryStore {
    /// The catalogs, in the order they were added.
    public func catalogs() throws -> [Catalog] {
        try read { db in try Catalog.order(Column("addedAt"), Column("id")).fetchAll(db) }
    }

    /// Keeps a catalog; returns it with its id.
    func insert(_ catalog: Catalog) throws -> Catalog {
        try write { db in
            var catalog = catalog
            try catalog.insert(db)
            return catalog
        }
    }

    public func removeCatalog(_ catalog: Catalog) throws {
        _ = try write { db in try Catalog.deleteOne(db, key: catalog.id) }
    }
}
