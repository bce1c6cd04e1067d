import Foundation

/// One page of an OPDS catalog as the catalog screen and `newsstand browse` show it: where it
/// leads (navigation, groups, facets, other pages, search) and the books it lists. Unlike
/// `FeedDocument`, which keeps only what can become an issue, a page keeps every book with
/// every way to get it, so the user sees what a server offers even in formats not read here.
public struct CatalogPage: Codable, Sendable, Equatable {
    public enum Format: String, Codable, Sendable { case opds1, opds2 }

    public var format: Format
    /// The page's own URL (what it was fetched from).
    public var url: URL
    public var title: String
    public var subtitle: String?
    public var id: String?
    /// Links to other catalog pages (a navigation feed's entries, OPDS 2 `navigation`).
    public var navigation: [CatalogLink]
    /// OPDS 2 groups (a title, navigation and books each, with a "more" link).
    public var groups: [CatalogGroup]
    /// Facets (other orders or subsets of this feed), each with its group's title.
    public var facets: [CatalogLink]
    public var books: [CatalogBook]
    public var pages: CatalogPages
    /// How to search this catalog, when it says.
    public var search: CatalogSearch?
    /// What could not be read, one sentence each.
    public var problems: [String]

    public init(format: Format, url: URL, title: String, subtitle: String? = nil, id: String? = nil,
                navigation: [CatalogLink] = [], groups: [CatalogGroup] = [], facets: [CatalogLink] = [],
                books: [CatalogBook] = [], pages: CatalogPages = CatalogPages(), search: CatalogSearch? = nil,
                problems: [String] = []) {
        self.format = format
        self.url = url
        self.title = title
        self.subtitle = subtitle
        self.id = id
        self.navigation = navigation
        self.groups = groups
        self.facets = facets
        self.books = books
        self.pages = pages
        self.search = search
        self.problems = problems
    }

    /// An acquisition feed: it lists books, so it can be subscribed to as a publication.
    public var isAcquisitionFeed: Bool { !books.isEmpty }

    /// Every book on the page: its own list, then each group's.
    public var allBooks: [CatalogBook] { books + groups.flatMap(\.books) }
}

/// A link to another catalog page: a navigation entry, a group's "more", a facet.
public struct CatalogLink: Codable, Sendable, Equatable {
    public var title: String
    public var url: URL
    public var rel: String?
    public var type: String?
    public var summary: String?
    /// How many items the link leads to, when the server says (`thr:count`, `numberOfItems`).
    public var count: Int?
    /// For a facet: the group it belongs to, and whether it is the one this page shows.
    public var facetGroup: String?
    public var active: Bool

    public init(title: String, url: URL, rel: String? = nil, type: String? = nil, summary: String? = nil,
                count: Int? = nil, facetGroup: String? = nil, active: Bool = false) {
        self.title = title
        self.url = url
        self.rel = rel
        self.type = type
        self.summary = summary
        self.count = count
        self.facetGroup = facetGroup
        self.active = active
    }
}

public struct CatalogGroup: Codable, Sendable, Equatable {
    public var title: String
    /// The group's own feed ("more"), when it has one.
    public var url: URL?
    public var navigation: [CatalogLink]
    public var books: [CatalogBook]

    public init(title: String, url: URL? = nil, navigation: [CatalogLink] = [], books: [CatalogBook] = []) {
        self.title = title
        self.url = url
        self.navigation = navigation
        self.books = books
    }
}

/// First, previous, next and last pages of a paged feed, and the catalog's start and parent.
public struct CatalogPages: Codable, Sendable, Equatable {
    public var next: URL?
    public var previous: URL?
    public var first: URL?
    public var last: URL?
    public var start: URL?
    public var up: URL?

    public init(next: URL? = nil, previous: URL? = nil, first: URL? = nil, last: URL? = nil, start: URL? = nil, up: URL? = nil) {
        self.next = next
        self.previous = previous
        self.first = first
        self.last = last
        self.start = start
        self.up = up
    }

    /// Takes a feed-level link's relation, if it is one of these; false otherwise.
    mutating func take(rel: String, url: URL?) -> Bool {
        guard let url else { return false }
        switch rel {
        case "next": next = next ?? url
        case "previous", "prev": previous = previous ?? url
        case "first": first = first ?? url
        case "last": last = last ?? url
        case "start": start = start ?? url
        case "up": up = up ?? url
        default: return false
        }
        return true
    }
}

/// One book (an OPDS catalog entry or OPDS 2 publication).
public struct CatalogBook: Codable, Sendable, Equatable {
    /// The entry's id, else its first acquisition link.
    public var id: String
    public var title: String
    public var authors: [String]
    public var summary: String?
    public var date: Date?
    public var coverURL: URL?
    public var thumbnailURL: URL?
    /// Every acquisition link, in the order given.
    public var acquisitions: [CatalogAcquisition]
    /// OPDS-PSE: the book's pages, one request each.
    public var stream: PageStream?
    /// The book's own (complete) entry, when the feed gives only a partial one.
    public var detailsURL: URL?
    /// Where the server keeps the reader's place in this book as a Readium locator (an OPDS 2
    /// link `http://www.cantook.com/api/progression`, read with GET and written with PUT).
    public var progressionURL: URL?

    /// The link relation of a book's progression (Cantook's, which OPDS 2 servers use).
    public static let progressionRel = "http://www.cantook.com/api/progression"

    public init(id: String, title: String, authors: [String] = [], summary: String? = nil, date: Date? = nil,
                coverURL: URL? = nil, thumbnailURL: URL? = nil, acquisitions: [CatalogAcquisition] = [],
                stream: PageStream? = nil, detailsURL: URL? = nil, progressionURL: URL? = nil) {
        self.id = id
        self.title = title
        self.authors = authors
        self.summary = summary
        self.date = date
        self.coverURL = coverURL
        self.thumbnailURL = thumbnailURL
        self.acquisitions = acquisitions
        self.stream = stream
        self.detailsURL = detailsURL
        self.progressionURL = progressionURL
    }

    /// The formats offered, by short name (`EPUB`, `PDF`, `CBZ`, `MOBI`…), each once, in order.
    public var formats: [String] {
        var seen: [String] = []
        for acquisition in acquisitions {
            let name = acquisition.formatName
            if !seen.contains(name) { seen.append(name) }
        }
        return seen
    }

    /// The book as an issue: its best readable acquisition (an archive, else a PDF), or nil
    /// when it offers none this program reads. `fallbackDate` dates an undated book.
    public func issueEntry(fallbackDate: Date) -> FeedEntry? {
        let links = acquisitions.map { ContentLink(url: $0.url, type: $0.type, length: $0.length.map(String.init)) }
        guard let content = ContentLink.best(links) else { return nil }
        return FeedEntry(name: id, title: title, date: date ?? fallbackDate, summary: summary, coverURL: coverURL ?? thumbnailURL,
                         thumbnailURL: thumbnailURL, contentURL: content.url, contentType: content.type,
                         contentLength: content.length, authors: authors)
    }
}

public struct CatalogAcquisition: Codable, Sendable, Equatable {
    public var url: URL
    public var type: String?
    /// The acquisition relation (`http://opds-spec.org/acquisition/open-access`, `…/borrow`).
    public var rel: String
    public var length: Int64?

    public init(url: URL, type: String?, rel: String, length: Int64? = nil) {
        self.url = url
        self.type = type
        self.rel = rel
        self.length = length
    }

    /// A short name for the format, from the media type, else the file's extension.
    public var formatName: String {
        let base = (type ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if let known = CatalogAcquisition.names[base] { return known }
        let ext = url.pathExtension.lowercased()
        if !ext.isEmpty, ext.count <= 5, base.isEmpty || base.hasSuffix("octet-stream") { return ext.uppercased() }
        if let slash = base.firstIndex(of: "/") {
            let subtype = base[base.index(after: slash)...]
            return String(subtype.split(separator: "+").first ?? subtype).replacingOccurrences(of: "x-", with: "").uppercased()
        }
        return "?"
    }

    static let names: [String: String] = [
        "application/epub+zip": "EPUB", "application/pdf": "PDF", "application/x-pdf": "PDF",
        "application/vnd.comicbook+zip": "CBZ", "application/x-cbz": "CBZ", "application/vnd.cbz": "CBZ", "application/cbz": "CBZ",
        "application/vnd.comicbook-rar": "CBR", "application/x-cbr": "CBR", "application/zip": "ZIP",
        "application/x-mobipocket-ebook": "MOBI", "application/vnd.amazon.ebook": "AZW", "application/x-mobi8-ebook": "AZW3",
        "text/plain": "TXT", "application/fb2+zip": "FB2", "application/x-fictionbook+xml": "FB2",
    ]
}

/// OPDS Page Streaming (OPDS-PSE 1.2): a link template that gives one page of a book as a
/// picture, `{pageNumber}` counted from 0, `{maxWidth}` in pixels.
public struct PageStream: Codable, Sendable, Equatable {
    /// The template as the feed wrote it, resolved against the feed's URL.
    public var template: String
    public var type: String?
    /// How many pages the book has.
    public var count: Int
    /// The last page read, as the server keeps it (counted from 1; 0 when none was read).
    public var lastRead: Int?
    public var lastReadDate: Date?

    public init(template: String, type: String? = nil, count: Int, lastRead: Int? = nil, lastReadDate: Date? = nil) {
        self.template = template
        self.type = type
        self.count = count
        self.lastRead = lastRead
        self.lastReadDate = lastReadDate
    }

    /// Page `index` (from 0) at most `maxWidth` pixels wide; nil outside the book.
    public func url(page index: Int, maxWidth: Int) -> URL? {
        guard index >= 0, index < count else { return nil }
        let expanded = template.replacingOccurrences(of: "{pageNumber}", with: String(index))
            .replacingOccurrences(of: "{maxWidth}", with: String(max(1, maxWidth)))
        return URL(string: expanded)
    }
}

/// How to search a catalog.
public enum CatalogSearch: Codable, Sendable, Equatable {
    /// An OpenSearch description document, to be fetched for its template.
    case description(URL)
    /// A template (`…/search/{searchTerms}`, or OPDS 2's `…{?query}`), relative links
    /// already resolved against `base`.
    case template(String, base: URL)
}
