import Feeds
import FileWrites
import Foundation

/// What importing an OPML list would do, decided before anything is fetched: the feeds to
/// subscribe (each once), those already subscribed, the entries refused (a command is never
/// a feed, and is never run), and the folders, which Newsstand has no notion of.
public struct OPMLImportPlan: Sendable, Equatable {
    public var toSubscribe: [OPMLDocument.Feed] = []
    /// The list's feed, and the title the library already knows it by.
    public var alreadySubscribed: [String] = []
    /// One sentence each: the entry as written and why it is refused.
    public var refused: [String] = []
    /// Every folder path that held a feed ("News/Local"), in the list's order.
    public var folders: [String] = []

    public init(_ document: OPMLDocument, subscribed: [Publication]) {
        let known = Dictionary(subscribed.map { ($0.feedURL, $0.title) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        for feed in document.feeds {
            let folder = feed.folders.joined(separator: "/")
            if !folder.isEmpty, !folders.contains(folder) { folders.append(folder) }
            if let reason = Self.refusal(of: feed.xmlURL) {
                refused.append("\(feed.xmlURL) (\(feed.title ?? "untitled")) is refused: \(reason)")
                continue
            }
            guard let url = URL(string: feed.xmlURL) else { continue }   // refusal() parsed it
            let bare = Library.bareURL(url).url.absoluteString
            guard seen.insert(bare).inserted else { continue }
            if let title = known[bare] { alreadySubscribed.append(title) } else { toSubscribe.append(feed) }
        }
    }

    /// Why an entry's `xmlUrl` is no feed to fetch, or nil when it is one (http, https or file).
    /// newsboat keeps commands in its URL list (`exec:`, `filter:`, `|command`); they are
    /// named, never run.
    static func refusal(of text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("|") { return "it is a command to run (newsboat's `|command`), not a feed, and it was not run" }
        let scheme = trimmed.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        switch scheme {
        case "exec": return "it is a command to run (newsboat's `exec:`), not a feed, and it was not run"
        case "filter", "filtercmd": return "it passes the feed through a command (newsboat's `\(scheme):`), which was not run"
        case "query": return "it is a newsboat query feed, which exists only inside newsboat"
        default: break
        }
        guard let url = URL(string: trimmed), let parsed = url.scheme?.lowercased() else {
            return "it is not a URL"
        }
        return ["http", "https", "file"].contains(parsed) ? nil : "\(parsed): is not a feed's scheme (http, https or file)"
    }
}

extension LibraryStore {
    /// The import plan of an OPML list against what this library already follows.
    public func opmlImportPlan(_ document: OPMLDocument) throws -> OPMLImportPlan {
        OPMLImportPlan(document, subscribed: try publications())
    }

    /// The feeds this library follows, as an OPML list: your own files and books taken from
    /// catalogs are not feeds another reader could follow, and are left out.
    public func opmlExport() throws -> (document: OPMLDocument, leftOut: Int) {
        let all = try publications()
        let feeds = all.filter { !Library.isLocal($0) && !Library.isFromCatalogs($0) }
        let document = OPMLDocument(title: "Newsstand subscriptions",
                                    feeds: feeds.map { OPMLDocument.Feed(title: $0.title, xmlURL: $0.feedURL, htmlURL: $0.siteURL) })
        return (document, all.count - feeds.count)
    }
}

extension OPMLDocument {
    /// Writes the list whole or not at all (an old file stays as it was on failure).
    public func write(to url: URL) throws {
        try AtomicFile.write(written(), to: url)
    }
}
