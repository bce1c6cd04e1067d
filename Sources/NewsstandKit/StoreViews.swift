import Foundation

/// Which publications' stores show their issues as a list, one line an issue, rather than
/// as tiles (the store's `v`): a preference of the shelf's, kept as a setting.
extension Library {
    public var storesShownAsList: Set<Int64> {
        Set((setting(.storesShownAsList) ?? "").split(separator: ",").compactMap { Int64($0) })
    }

    public func setStoreShownAsList(publicationID: Int64, _ asList: Bool) throws {
        var ids = storesShownAsList
        if asList { ids.insert(publicationID) } else { ids.remove(publicationID) }
        try setSetting(.storesShownAsList, ids.isEmpty ? nil : ids.sorted().map(String.init).joined(separator: ","))
    }
}
