import Foundation
import Markup

/// Reads the bytes of a feed, whatever its format, into a `FeedDocument`. Pure: no I/O.
public enum FeedParser {
    /// How many `nextPage`s a fetcher should follow before it stops.
    public static let maxPages = 20

    /// Recognises the format from the content and reads it. Relative links resolve against
    /// `url` (and any `xml:base`). Entries that cannot be read are left out and listed in
    /// `problems`; only a document that is no feed at all throws.
    public static func parse(_ data: Data, url: URL) throws -> FeedDocument {
        try parse(data, url: url, sink: nil)
    }

    /// Reads like `parse(_:url:)`, and hands the entries of an Atom or RSS feed to `deliver`
    /// while the rest is still being read, `batchSize` at a time, in feed order, so a caller
    /// can store them meanwhile. Something later in a feed can still change its entries
    /// (an entry without a date takes the feed's; entries without content count only in a
    /// newsstand feed; a repeated name is dropped): `streamedEntriesAreFinal` is true only
    /// when the entries handed over are exactly `document.entries`. Otherwise, and for the
    /// formats not streamed (JSON, plists), the caller must take `document.entries`.
    public static func parse(_ data: Data, url: URL, batchSize: Int,
                             streaming deliver: ([FeedEntry]) -> Void) throws -> (document: FeedDocument, streamedEntriesAreFinal: Bool) {
        try withoutActuallyEscaping(deliver) { deliver in
            let sink = EntrySink(batchSize: batchSize, deliver: deliver)
            let document = try parse(data, url: url, sink: sink, pipelined: nil)
            return (document, sink.final && sink.delivered == document.entries.count)
        }
    }

    /// Feeds at least this long are tokenized on a thread of their own while their entries are read.
    static let pipelineThreshold = 256 << 10

    /// `pipelined` forces tokenizing on a second thread on or off (for tests); by default
    /// only a feed of `pipelineThreshold` bytes or more is.
    static func parse(_ data: Data, url: URL, sink: EntrySink?, pipelined: Bool? = nil) throws -> FeedDocument {
        var start = data.startIndex
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < data.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(data[start]) { start += 1 }
        guard start < data.endIndex else { throw FeedError.unreadable(url, "it is empty") }

        if data[start] == UInt8(ascii: "{") {
            guard let root = JSONReaders.object(data[start...]) else {
                throw FeedError.unreadable(url, "its JSON is not valid")
            }
            if JSONReaders.isJSONFeed(root) { return JSONReaders.jsonFeed(root, url: url) }
            if JSONReaders.isOPDS2(root) { return JSONReaders.opds2(root, url: url) }
            throw FeedError.notAFeed(url)
        }
        if data[start...].starts(with: Array("bplist".utf8)) {
            guard let plist = PlistReader.binary(Data(data[start...])) else {
                throw FeedError.unreadable(url, "its binary property list is damaged")
            }
            return try PlistReader.read(plist, url: url)
        }

        // Entries and items are read as soon as each one closes, so a long feed is never
        // held as one big tree. A long feed is tokenized on a second thread meanwhile.
        var atom = AtomReader(url: url, sink: sink)
        var rss = RSSReader(url: url, sink: sink)
        func read(_ item: StreamedItem) {
            switch item.kind {
            case .atom: atom.consume(item.element, root: item.root)
            case .rss: rss.consume(item.element, parent: item.parent, root: item.root)
            }
        }
        let xml = pipelined ?? (data.count >= pipelineThreshold)
            ? tokenizeAside(data, read)
            : MarkupParser.parse(data, streaming: StreamedItem.names) { StreamedItem($0).map(read) }
        guard let root = xml.root else {
            let looksLikeXML = data[start] == UInt8(ascii: "<") || data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])
            guard looksLikeXML, let error = xml.error else { throw FeedError.notAFeed(url) }
            throw FeedError.unreadable(url, error)
        }
        var document: FeedDocument
        switch root.localName {
        case "feed": document = atom.finish(root)
        case "rss", "RDF": document = rss.finish(root)
        case "plist": document = try PlistReader.read(PlistReader.value(root), url: url)
        case "html":
            let feeds = announcedFeeds(root, url: url)
            throw feeds.isEmpty ? FeedError.notAFeed(url) : FeedError.webPage(url, feeds: feeds)
        default: throw FeedError.notAFeed(url)
        }
        var notes = xml.warnings
        if let error = xml.error { notes.append("the feed is not well-formed (\(error)); what could be read was kept") }
        document.problems = notes + document.problems
        return document
    }

    /// Tokenizes `data` on a thread of its own and passes the streamed entries and items to
    /// `read` on this one, in document order, a few dozen at a time.
    private static func tokenizeAside(_ data: Data, _ read: (StreamedItem) -> Void) -> XMLDocument {
        let handoff = Handoff<StreamedItem>(capacity: 16)
        let parsed = ParsedDocument()
        let thread = Thread {
            var pending: [StreamedItem] = []
            parsed.document = MarkupParser.parse(data, streaming: StreamedItem.names) { streamed in
                guard let item = StreamedItem(streamed) else { return }
                pending.append(item)
                if pending.count == 64 {
                    handoff.put(pending)
                    pending = []
                }
            }
            handoff.put(pending)
            handoff.close()
        }
        thread.name = "newsstand feed tokenizer"
        thread.start()
        while let batch = handoff.next() { batch.forEach(read) }
        // `close()` came after the document was set, under the handoff's lock.
        return parsed.document!
    }

    /// Feed links a web page announces in its head, in page order.
    static func announcedFeeds(_ html: XMLElement, url: URL) -> [URL] {
        let base = LinkBase(html.descendants("base").first?.attribute("href").flatMap { FeedLinks.resolve($0, against: url) } ?? url)
        let feedTypes: Set<String> = [
            "application/atom+xml", "application/rss+xml", "application/rdf+xml", "application/feed+json",
            "application/json", "application/opds+json",
        ]
        var feeds: [URL] = []
        for link in html.descendants("link") {
            let rels = (link.attribute("rel") ?? "").lowercased().split(separator: " ")
            let type = (link.attribute("type") ?? "").lowercased().split(separator: ";").first.map(String.init) ?? ""
            guard rels.contains("alternate"), feedTypes.contains(type),
                  let href = FeedLinks.resolve(link.attribute("href"), against: base), !feeds.contains(href) else { continue }
            feeds.append(href)
        }
        return feeds
    }
}

/// An entry of an Atom feed or an item of an RSS feed, as the tokenizer hands it over.
struct StreamedItem {
    static let names: Set<String> = ["entry", "item"]
    enum Kind { case atom, rss }
    let kind: Kind
    let element: XMLNode
    let parent: XMLElement
    let root: XMLElement

    /// nil for an element that is neither (an `entry` that is not a child of an Atom feed).
    init?(_ streamed: MarkupParser.Streamed) {
        switch (streamed.root.localName, streamed.element.localName) {
        case ("feed", "entry") where streamed.parent === streamed.root: kind = .atom
        case ("rss", "item"), ("RDF", "item"): kind = .rss
        default: return nil
        }
        element = streamed.element
        parent = streamed.parent
        root = streamed.root
    }
}

/// The document a tokenizer thread leaves behind. Unchecked: written once by that thread
/// before `handoff.close()`, read only after `next()` has returned nil (the handoff's lock orders them).
private final class ParsedDocument: @unchecked Sendable {
    var document: XMLDocument?
}
