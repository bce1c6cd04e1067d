import Foundation
import Synchronization

/// Catalog documents as built, kept until the library changes: a device's morning check, and
/// twenty of them at once, cost a dictionary lookup and one `PRAGMA data_version` read rather
/// than reading and writing out the shelf again. Every entry carries the library's change
/// token (`Library.changeToken()`, which moves on any commit, by this process or another) it was
/// built at; a different token empties the cache. The `ETag` is that token with a number drawn
/// when the server starts (a token alone restarts with the process), so a 304 is decided before
/// anything is read or built.
final class CatalogCache: Sendable {
    struct Document: Sendable {
        var body: Data
        var type: String
        var updated: Date?
    }

    /// Past this many documents (searches are many) the cache starts again.
    let capacity: Int
    private let epoch = UInt32.random(in: 1...UInt32.max)
    private let state = Mutex<(token: Int, documents: [String: Document])>((token: Int.min, documents: [:]))

    init(capacity: Int = 512) { self.capacity = capacity }

    /// The `ETag` of every catalog document while the library stays at `token`.
    func tag(_ token: Int) -> String { "\"c\(String(epoch, radix: 16))-\(token)\"" }

    /// Whether the document for `key` is held at `token` (so it exists, and a 304 for it needs nothing read).
    func holds(_ key: String, token: Int) -> Bool {
        state.withLock { $0.token == token && $0.documents[key] != nil }
    }

    /// The document for `key` at `token`, built by `build` when not held; nil when `build` finds nothing.
    func document(_ key: String, token: Int, build: () throws -> Document?) rethrows -> Document? {
        if let held = state.withLock({ $0.token == token ? $0.documents[key] : nil }) { return held }
        guard let built = try build() else { return nil }
        state.withLock { state in
            if state.token != token { state = (token: token, documents: [:]) }
            if state.documents.count >= capacity { state.documents.removeAll(keepingCapacity: true) }
            state.documents[key] = built
        }
        return built
    }
}
