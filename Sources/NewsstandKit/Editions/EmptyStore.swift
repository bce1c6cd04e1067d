import Foundation

/// What a publication with no issues says instead of an empty list: why it has none.
public enum EmptyStore {
    /// One line: the last refresh's error, a refresh not yet made, or a feed that lists
    /// neither issue archives nor articles.
    public static func reason(for publication: Publication?) -> String {
        guard let publication else { return "This publication has no issues yet. Press r to refresh." }
        if let error = publication.lastError {
            return "The last refresh failed: \(error). Press r to try again."
        }
        guard publication.lastRefresh != nil else { return "Its feed has not been read yet. Press r to refresh." }
        return "Its feed lists neither issue archives nor articles: nothing to read until it does."
    }
}
