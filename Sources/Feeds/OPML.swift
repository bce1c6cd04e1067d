import Foundation
import Markup

/// A subscription list in OPML, as feed readers exchange them (newsboat, NetNewsWire,
/// Miniflux, …): read through Markup like every other XML, and written as OPML 2.0.
public struct OPMLDocument: Sendable, Equatable {
    /// One feed of the list: `xmlUrl` as written (not yet judged), and the folders it sat in,
    /// outermost first.
    public struct Feed: Sendable, Equatable {
        public var title: String?
        public var xmlURL: String
        public var htmlURL: String?
        public var folders: [String]

        public init(title: String?, xmlURL: String, htmlURL: String? = nil, folders: [String] = []) {
            self.title = title; self.xmlURL = xmlURL; self.htmlURL = htmlURL; self.folders = folders
        }
    }

    public var title: String?
    public var feeds: [Feed]

    public init(title: String?, feeds: [Feed]) {
        self.title = title; self.feeds = feeds
    }

    /// Why some bytes are not a list of feeds, in one sentence.
    public enum ReadError: Error, CustomStringConvertible, Equatable {
        case notXML(String)
        case notOPML(root: String)
        case noBody

        public var description: String {
            switch self {
            case let .notXML(reason): "is not OPML: it is not XML (\(reason))"
            case let .notOPML(root): "is not OPML: its root element is <\(root)>, not <opml>"
            case .noBody: "is OPML without a <body>, so it lists no feeds"
            }
        }
    }

    /// The feeds of an OPML file in document order. An outline with an `xmlUrl` is a feed;
    /// one without, holding outlines, is a folder (its `text`, else its `title`).
    public static func parse(_ data: Data) throws -> OPMLDocument {
        let document = MarkupParser.parse(data)
        guard let root = document.root else { throw ReadError.notXML(document.error ?? "nothing in it") }
        guard root.localName.lowercased() == "opml" else { throw ReadError.notOPML(root: FeedText.line(root.name) ?? "?") }
        guard let body = root.children.first(where: { $0.localName.lowercased() == "body" }) else { throw ReadError.noBody }
        let head = root.children.first { $0.localName.lowercased() == "head" }
        let title = head?.children.first { $0.localName.lowercased() == "title" }.flatMap { FeedText.line($0.allText) }
        var feeds: [Feed] = []
        collect(body, folders: [], into: &feeds)
        return OPMLDocument(title: title, feeds: feeds)
    }

    private static func collect(_ element: XMLElement, folders: [String], into feeds: inout [Feed]) {
        for outline in element.children where outline.localName.lowercased() == "outline" {
            let text = FeedText.line(attribute(outline, "text")) ?? FeedText.line(attribute(outline, "title"))
            if let xmlURL = FeedText.line(attribute(outline, "xmlUrl")) {
                let title = FeedText.line(attribute(outline, "title")) ?? text
                feeds.append(Feed(title: title, xmlURL: xmlURL, htmlURL: FeedText.line(attribute(outline, "htmlUrl")), folders: folders))
            } else {
                collect(outline, folders: text.map { folders + [$0] } ?? folders, into: &feeds)
            }
        }
    }

    /// OPML's attribute names are camel case by the specification; some writers lower them.
    private static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attribute(name) ?? element.attributeList.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// OPML 2.0 with one `<outline type="rss">` a feed, in the shape newsboat, NetNewsWire and
    /// Miniflux import: `text` and `title` both the feed's title, `xmlUrl`, and `htmlUrl` when known.
    public func written() -> Data {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n"
        out += "    <title>\(XMLEscaping.escaped(title ?? "Subscriptions"))</title>\n  </head>\n  <body>\n"
        for feed in feeds {
            let title = XMLEscaping.escaped(feed.title ?? feed.xmlURL)
            out += "    <outline type=\"rss\" text=\"\(title)\" title=\"\(title)\" xmlUrl=\"\(XMLEscaping.escaped(feed.xmlURL))\""
            if let html = feed.htmlURL { out += " htmlUrl=\"\(XMLEscaping.escaped(html))\"" }
            out += "/>\n"
        }
        out += "  </body>\n</opml>\n"
        return Data(out.utf8)
    }
}
