import Foundation

/// The shelf's own preferences, kept as settings: which publications' stores show their
/// issues as a list rather than tiles (the store's `v`), and whether the advice pictures
/// need (tmux's passthrough) was given.
extension LibraryStore {
    public var storesShownAsList: Set<Int64> {
        Set(((try? setting(.storesShownAsList)) ?? "").split(separator: ",").compactMap { Int64($0) })
    }

    public func setStoreShownAsList(publicationID: Int64, _ asList: Bool) throws {
        var ids = storesShownAsList
        if asList { ids.insert(publicationID) } else { ids.remove(publicationID) }
        try setSetting(.storesShownAsList, ids.isEmpty ? nil : ids.sorted().map(String.init).joined(separator: ","))
    }

    /// Said once, not on every start.
    public var pictureAdviceGiven: Bool { (try? setting(.pictureAdviceGiven)) != nil }
    public func setPictureAdviceGiven() throws { try setSetting(.pictureAdviceGiven, "1") }
}
