import Foundation

/// The kind of document a feed was recognised as, from its content (never from its URL).
public enum FeedFormat: String, Codable, Sendable {
    case newsstandAtom, atom, rss2, rss1, opds1, opds2, jsonFeed, plist
}

/// A link to another catalog: an OPDS navigation entry, listed so the user can pick it.
public struct NavigationLink: Codable, Sendable, Equatable {
    public var title: String
    public var url: URL
    public var rel: String?
    public var type: String?
    public var summary: String?

    public init(title: String, url: URL, rel: String? = nil, type: String? = nil, summary: String? = nil) {
        self.title = title
        self.url = url
        self.rel = rel
        self.type = type
        self.summary = summary
    }
}

/// What a feed says about the publication itself.
public struct PublicationInfo: Codable, Sendable, Equatable {
    public var title: String
    public var subtitle: String?
    public var id: String?
    /// The default cover, shown while no issue's content is on disk.
    public var coverURL: URL?
    /// `magazine` or `newspaper`, when the feed says (`<nst:binding type=...>`).
    public var bindingType: String?
    /// `left`, `right` or `bottom`, when the feed says (`<nst:binding edge=...>`).
    public var bindingEdge: String?
    /// A server-sent-events URL that announces new issues (`<nst:push href=...>`).
    public var pushURL: URL?
    /// OPDS navigation: sub-catalogs the user can pick.
    public var links: [NavigationLink]
    /// The next page of a paged feed (OPDS, RFC 5005, JSON Feed `next_url`).
    public var nextPage: URL?
    /// The publication's web site (RSS `<channel><link>`, Atom `<link rel="alternate">`,
    /// JSON Feed `home_page_url`), when it is an http(s) page.
    public var siteURL: URL?

    public init(title: String, subtitle: String? = nil, id: String? = nil, coverURL: URL? = nil,
                bindingType: String? = nil, bindingEdge: String? = nil, pushURL: URL? = nil,
                links: [NavigationLink] = [], nextPage: URL? = nil, siteURL: URL? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.id = id
        self.coverURL = coverURL
        self.bindingType = bindingType
        self.bindingEdge = bindingEdge
        self.pushURL = pushURL
        self.links = links
        self.nextPage = nextPage
        self.siteURL = Self.webPage(siteURL)
    }

    /// The URL when it is a web site's (http or https), else nil.
    public static func webPage(_ url: URL?) -> URL? {
        url.flatMap { ["http", "https"].contains($0.scheme?.lowercased() ?? "") && $0.host?.isEmpty == false ? $0 : nil }
    }
}

/// One issue as a feed describes it.
public struct FeedEntry: Codable, Sendable, Equatable {
    /// The stable unique issue name: the entry's id, else its content URL.
    public var name: String
    public var title: String
    public var date: Date
    public var summary: String?
    public var coverURL: URL?
    public var thumbnailURL: URL?
    /// The issue's content (zip, EPUB, CBZ or PDF).
    public var contentURL: URL?
    public var contentType: String?
    public var contentLength: Int64?
    /// Lower-case hex SHA-256 of the content, when the feed gives one.
    public var sha256: String?
    /// When the issue stops being current (`news:end_date`).
    public var endDate: Date?
    /// The issue's author(s) as the feed names them (an OPDS catalog's books), in order.
    public var authors: [String]

    public init(name: String, title: String, date: Date, summary: String? = nil, coverURL: URL? = nil,
                thumbnailURL: URL? = nil, contentURL: URL? = nil, contentType: String? = nil,
                contentLength: Int64? = nil, sha256: String? = nil, endDate: Date? = nil, authors: [String] = []) {
        self.name = name
        self.authors = authors
        self.title = title
        self.date = date
        self.summary = summary
        self.coverURL = coverURL
        self.thumbnailURL = thumbnailURL
        self.contentURL = contentURL
        self.contentType = contentType
        self.contentLength = contentLength
        self.sha256 = sha256
        self.endDate = endDate
    }
}

/// A parsed feed: the publication, its issues in feed order, and what could not be read.
public struct FeedDocument: Codable, Sendable {
    public var format: FeedFormat
    public var publication: PublicationInfo
    public var entries: [FeedEntry]
    /// Entries without an issue archive, in feed order: the articles editions are made of
    /// (none in a newsstand feed, whose every entry is an issue).
    public var articles: [FeedArticle]
    /// Entries or parts that could not be read, one sentence each.
    public var problems: [String]

    public init(format: FeedFormat, publication: PublicationInfo, entries: [FeedEntry], articles: [FeedArticle] = [],
                problems: [String] = []) {
        self.format = format
        self.publication = publication
        self.entries = entries
        self.articles = articles
        self.problems = problems
    }

    /// Adds the entries of the next page of this feed (those whose name is not already here)
    /// and takes over its `nextPage`, so a fetcher can follow pages up to `FeedParser.maxPages`.
    public mutating func append(page: FeedDocument) {
        var seen = Set(entries.map(\.name))
        for entry in page.entries where seen.insert(entry.name).inserted { entries.append(entry) }
        var seenArticles = Set(articles.map(\.name))
        for article in page.articles where seenArticles.insert(article.name).inserted { articles.append(article) }
        publication.links += page.publication.links.filter { !publication.links.contains($0) }
        problems += page.problems
        publication.nextPage = page.publication.nextPage
    }
}

/// Why a feed could not be read at all. (A feed with some unreadable entries is not an
/// error: its `problems` say what was skipped.)
public struct FeedError: Error, CustomStringConvertible, Equatable {
    public let message: String
    /// For a web page instead of a feed: the feeds it announces (`<link rel="alternate">`),
    /// which a subscriber can offer or follow.
    public var alternates: [URL] = []

    public init(_ message: String, alternates: [URL] = []) {
        self.message = message
        self.alternates = alternates
    }

    public var description: String { message }

    public static func notAFeed(_ url: URL) -> FeedError {
        FeedError("feed at \(url.absoluteString) is not a newsstand, OPDS, Atom, RSS or JSON feed")
    }

    public static func webPage(_ url: URL, feeds: [URL]) -> FeedError {
        let list = feeds.map(\.absoluteString).joined(separator: ", ")
        return FeedError("\(url.absoluteString) is a web page, not a feed; it announces \(feeds.count == 1 ? "a feed" : "feeds") at \(list)",
                         alternates: feeds)
    }

    public static func unreadable(_ url: URL, _ reason: String) -> FeedError {
        FeedError("feed at \(url.absoluteString) could not be read: \(reason)")
    }
}
