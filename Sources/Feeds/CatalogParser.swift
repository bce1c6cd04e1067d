import Foundation
import Markup

/// Reads one page of an OPDS catalog (OPDS 1.x Atom or OPDS 2.0 JSON) into a `CatalogPage`.
/// Pure: no I/O. The XML goes through `MarkupParser` (no DTDs, no entity expansion, depth
/// capped), every string through `FeedText`, every link through `FeedLinks`.
public enum CatalogParser {
    public static func parse(_ data: Data, url: URL) throws -> CatalogPage {
        var start = data.startIndex
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < data.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(data[start]) { start += 1 }
        guard start < data.endIndex else { throw FeedError.unreadable(url, "it is empty") }
        if data[start] == UInt8(ascii: "{") {
            guard let root = JSONReaders.object(data[start...]) else { throw FeedError.unreadable(url, "its JSON is not valid") }
            guard JSONReaders.isOPDS2(root) else { throw notACatalog(url) }
            return CatalogJSONReader.page(Loose(root), url: url)
        }
        let xml = MarkupParser.parse(data)
        guard let root = xml.root else {
            if let error = xml.error, data[start] == UInt8(ascii: "<") { throw FeedError.unreadable(url, error) }
            throw notACatalog(url)
        }
        guard root.localName == "feed" else {
            if root.localName == "entry" { return CatalogAtomReader(url: url, root: root).entryPage() }
            throw notACatalog(url)
        }
        var page = CatalogAtomReader(url: url, root: root).page()
        var notes = xml.warnings
        if let error = xml.error { notes.append("the catalog is not well-formed (\(error)); what could be read was kept") }
        page.problems = notes + page.problems
        return page
    }

    static func notACatalog(_ url: URL) -> FeedError {
        FeedError("\(url.absoluteString) is not an OPDS catalog (OPDS 1 Atom or OPDS 2 JSON)")
    }
}

enum PSE {
    static let namespace = "http://vaemendis.net/opds-pse/ns"
    static let streamRel = "http://vaemendis.net/opds-pse/stream"
}

extension FeedLinks {
    /// A link template (`/search/{searchTerms}`, `/pages/{pageNumber}`) made absolute against
    /// `base` without parsing it as a URL (its braces are not URL characters); nil for a
    /// scheme a feed may not point at.
    static func resolveTemplate(_ href: String?, against base: LinkBase) -> String? {
        guard let href = FeedText.line(href) else { return nil }
        let absolute = base.absolute(href)
        let scheme = absolute.prefix { $0 != ":" }.lowercased()
        switch scheme {
        case "http", "https": return absolute.hasPrefix(scheme + "://") && absolute.count > scheme.count + 3 ? absolute : nil
        case "file": return base.url.isFileURL ? absolute : nil
        default: return nil
        }
    }
}

/// OPDS 1.x: an Atom feed whose entries are navigation links or books.
struct CatalogAtomReader {
    let url: URL
    let root: XMLElement
    let base: LinkBase

    init(url: URL, root: XMLElement) {
        self.url = url
        self.root = root
        base = root.base(inside: LinkBase(url))
    }

    static let opdsNamespace = "http://opds-spec.org/2010/catalog"
    static let threading = "http://purl.org/syndication/thread/1.0"

    func page() -> CatalogPage {
        var page = CatalogPage(format: .opds1, url: url,
                               title: FeedText.fromHTML(child(root, "title")?.allText) ?? url.lastPathComponent,
                               subtitle: FeedText.fromHTML(child(root, "subtitle")?.allText),
                               id: FeedText.line(child(root, "id")?.text))
        for link in root.children where isAtom(link) && link.localName == "link" {
            let rel = FeedText.line(link.attribute("rel")) ?? "alternate"
            let type = FeedText.line(link.attribute("type"))
            let linkBase = link.base(inside: base)
            if rel == "search" {
                if page.search == nil { page.search = Self.search(link, base: linkBase) }
                continue
            }
            if rel == "http://opds-spec.org/facet" {
                if let href = FeedLinks.resolve(link.attribute("href"), against: linkBase) {
                    page.facets.append(CatalogLink(
                        title: FeedText.line(link.attribute("title")) ?? href.absoluteString, url: href, rel: rel, type: type,
                        count: link.attribute("count").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) },
                        facetGroup: FeedText.line(link.attribute("facetGroup")),
                        active: link.attribute("activeFacet")?.trimmingCharacters(in: .whitespaces).lowercased() == "true"))
                }
                continue
            }
            _ = page.pages.take(rel: rel, url: FeedLinks.resolve(link.attribute("href"), against: linkBase))
        }
        for entry in root.children where isAtom(entry) && entry.localName == "entry" {
            read(entry, into: &page)
        }
        return page
    }

    /// A complete catalog entry document on its own (`…;type=entry`): a page of one book.
    func entryPage() -> CatalogPage {
        var page = CatalogPage(format: .opds1, url: url, title: FeedText.fromHTML(child(root, "title")?.allText) ?? url.lastPathComponent)
        read(root, into: &page)
        return page
    }

    static func search(_ link: XMLElement, base: LinkBase) -> CatalogSearch? {
        let type = (link.attribute("type") ?? "").lowercased()
        if type.hasPrefix("application/opensearchdescription+xml") {
            return FeedLinks.resolve(link.attribute("href"), against: base).map(CatalogSearch.description)
        }
        guard let template = FeedLinks.resolveTemplate(link.attribute("href"), against: base), template.contains("{") else {
            // A search link without a template and of another type: most servers mean a
            // description document by it.
            return FeedLinks.resolve(link.attribute("href"), against: base).map(CatalogSearch.description)
        }
        return .template(template, base: base.url)
    }

    private func read(_ entry: XMLElement, into page: inout CatalogPage) {
        let entryBase = entry.base(inside: base)
        let title = FeedText.fromHTML(child(entry, "title")?.allText)
        let id = FeedText.line(child(entry, "id")?.text)
        let summary = FeedText.fromHTML(child(entry, "summary")?.allText ?? child(entry, "content")?.allText)
        var acquisitions: [CatalogAcquisition] = []
        var cover: URL?, thumbnail: URL?, details: URL?, progression: URL?
        var catalog: (url: URL, rel: String, type: String?, count: Int?)?
        var stream: PageStream?
        for link in entry.children where link.localName == "link" && isAtom(link) {
            let rel = FeedText.line(link.attribute("rel")) ?? "alternate"
            let type = FeedText.line(link.attribute("type"))
            let linkBase = link.base(inside: entryBase)
            if rel == PSE.streamRel {
                if stream == nil { stream = Self.stream(link, base: linkBase) }
                continue
            }
            guard let href = FeedLinks.resolve(link.attribute("href"), against: linkBase) else { continue }
            if rel.hasPrefix("http://opds-spec.org/acquisition") {
                let length = link.attribute("length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 ? $0 : nil }
                acquisitions.append(CatalogAcquisition(url: href, type: type?.lowercased(), rel: rel, length: length))
            } else if rel == CatalogBook.progressionRel {
                progression = progression ?? href
            } else if AtomReader.imageRels.contains(rel) {
                cover = cover ?? href
            } else if AtomReader.thumbnailRels.contains(rel) {
                thumbnail = thumbnail ?? href
            } else if (type ?? "").lowercased().contains("type=entry") {
                details = details ?? href
            } else if catalog == nil, AtomReader.isCatalog(rel: rel, type: type) {
                let count = link.attribute("count").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                catalog = (href, rel, type, count)
            }
        }
        if acquisitions.isEmpty, stream == nil, details == nil, let catalog {
            page.navigation.append(CatalogLink(title: title ?? catalog.url.absoluteString, url: catalog.url, rel: catalog.rel,
                                               type: catalog.type, summary: summary, count: catalog.count))
            return
        }
        guard !acquisitions.isEmpty || stream != nil || details != nil else {
            if let title { page.problems.append("entry \"\(title)\" has neither a catalog link nor a way to get the book; skipped") }
            return
        }
        let authors = entry.children.filter { $0.localName == "author" && isAtom($0) }
            .compactMap { AtomReader.name(of: $0) }
        let dates = ["published", "issued", "updated"].lazy.compactMap { name in FeedDates.parse(self.child(entry, name)?.text) }
        let dcDate = entry.children.first { $0.localName == "issued" && ($0.namespaceURI == NS.dcTerms || $0.namespaceURI == NS.dc) }
        page.books.append(CatalogBook(
            id: id ?? acquisitions.first?.url.absoluteString ?? details?.absoluteString ?? stream?.template ?? "\(url.absoluteString)#\(title ?? "")",
            title: title ?? "Untitled", authors: authors, summary: summary,
            date: FeedDates.parse(dcDate?.text) ?? dates.first,
            coverURL: cover, thumbnailURL: thumbnail, acquisitions: acquisitions, stream: stream, detailsURL: details,
            progressionURL: progression))
    }

    static func stream(_ link: XMLElement, base: LinkBase) -> PageStream? {
        guard let template = FeedLinks.resolveTemplate(link.attribute("href"), against: base),
              let count = link.attribute("count").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), count > 0 else { return nil }
        return PageStream(template: template, type: FeedText.line(link.attribute("type")), count: min(count, 100_000),
                          lastRead: link.attribute("lastRead").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) },
                          // OPDS-PSE 1.2 names it lastReadUpdate; some servers write lastReadDate.
                          lastReadDate: FeedDates.parse(link.attribute("lastReadUpdate") ?? link.attribute("lastReadDate")))
    }

    /// An element of this feed's Atom vocabulary (or unqualified in a feed without a namespace).
    private func isAtom(_ element: XMLElement) -> Bool {
        if let uri = element.namespaceURI { return NS.atomVariants.contains(uri) || uri == root.namespaceURI }
        return element.name == element.localName
    }

    private func child(_ element: XMLElement, _ name: String) -> XMLElement? {
        element.children.first { $0.localName == name && isAtom($0) }
    }
}

/// OPDS 2.0: navigation, publications, groups and facets in JSON.
enum CatalogJSONReader {
    static func page(_ feed: Loose, url: URL) -> CatalogPage {
        let base = LinkBase(url)
        let metadata = feed["metadata"]
        var page = CatalogPage(format: .opds2, url: url,
                               title: FeedText.line(metadata["title"].text) ?? url.lastPathComponent,
                               subtitle: FeedText.line(metadata["subtitle"].text),
                               id: FeedText.line(metadata["identifier"].string))
        for link in feed["links"].array {
            let rels = link["rel"].strings
            if rels.contains("search") {
                if page.search == nil { page.search = search(link, base: base) }
                continue
            }
            let href = FeedLinks.resolve(link["href"].string, against: base)
            for rel in rels where page.pages.take(rel: rel, url: href) { break }
        }
        page.navigation = navigation(feed["navigation"], base: base)
        page.books = publications(feed["publications"], base: base, problems: &page.problems)
        for group in feed["groups"].array {
            let more = group["links"].array.first { $0["rel"].strings.contains("self") }
            page.groups.append(CatalogGroup(
                title: FeedText.line(group["metadata"]["title"].text) ?? "Untitled",
                url: FeedLinks.resolve(more?["href"].string, against: base),
                navigation: navigation(group["navigation"], base: base),
                books: publications(group["publications"], base: base, problems: &page.problems)))
        }
        for facet in feed["facets"].array {
            let name = FeedText.line(facet["metadata"]["title"].text)
            for link in facet["links"].array {
                guard let href = FeedLinks.resolve(link["href"].string, against: base) else { continue }
                let count = link["properties"]["numberOfItems"].string.flatMap { Int($0) }
                page.facets.append(CatalogLink(title: FeedText.line(link["title"].text) ?? href.absoluteString, url: href,
                                               rel: link["rel"].strings.first, type: FeedText.line(link["type"].string),
                                               count: count, facetGroup: name, active: link["rel"].strings.contains("self")))
            }
        }
        return page
    }

    static func search(_ link: Loose, base: LinkBase) -> CatalogSearch? {
        let type = (link["type"].string ?? "").lowercased()
        let templated = (link["templated"].value as? Bool) ?? (link["templated"].value as? NSNumber)?.boolValue ?? false
        if templated || (link["href"].string ?? "").contains("{") {
            return FeedLinks.resolveTemplate(link["href"].string, against: base).map { .template($0, base: base.url) }
        }
        guard type.hasPrefix("application/opensearchdescription+xml") || !type.contains("json") else { return nil }
        return FeedLinks.resolve(link["href"].string, against: base).map(CatalogSearch.description)
    }

    static func navigation(_ list: Loose, base: LinkBase) -> [CatalogLink] {
        list.array.compactMap { item in
            guard let href = FeedLinks.resolve(item["href"].string, against: base) else { return nil }
            return CatalogLink(title: FeedText.line(item["title"].text) ?? href.absoluteString, url: href,
                               rel: item["rel"].strings.first, type: FeedText.line(item["type"].string),
                               count: item["properties"]["numberOfItems"].string.flatMap { Int($0) })
        }
    }

    static func publications(_ list: Loose, base: LinkBase, problems: inout [String]) -> [CatalogBook] {
        list.array.compactMap { item in
            let meta = item["metadata"]
            var acquisitions: [CatalogAcquisition] = []
            var cover: URL?, thumbnail: URL?, details: URL?, progression: URL?
            for link in item["links"].array {
                let rels = link["rel"].strings
                guard let href = FeedLinks.resolve(link["href"].string, against: base) else { continue }
                let type = FeedText.line(link["type"].string)?.lowercased()
                if let rel = rels.first(where: { $0.hasPrefix("http://opds-spec.org/acquisition") }) {
                    acquisitions.append(CatalogAcquisition(url: href, type: type, rel: rel,
                                                           length: link["properties"]["length"].string.flatMap { Int64($0) }))
                } else if rels.contains("http://opds-spec.org/image/thumbnail") {
                    thumbnail = thumbnail ?? href
                } else if rels.contains(where: { $0 == "http://opds-spec.org/image" || $0 == "cover" }) {
                    cover = cover ?? href
                } else if rels.contains(CatalogBook.progressionRel) {
                    progression = progression ?? href
                } else if rels.contains("self") || rels.contains("alternate") {
                    details = details ?? href
                }
            }
            let images = item["images"].array.compactMap { image -> (URL, Double)? in
                guard let href = FeedLinks.resolve(image["href"].string, against: base) else { return nil }
                return (href, Double(image["width"].string ?? "") ?? 0)
            }
            if let first = images.first { cover = cover ?? first.0 }
            if images.count > 1, let smallest = images.min(by: { $0.1 < $1.1 }) { thumbnail = thumbnail ?? smallest.0 }
            let title = FeedText.line(meta["title"].text)
            guard title != nil || !acquisitions.isEmpty else {
                problems.append("a publication has neither a title nor a way to get it; skipped")
                return nil
            }
            let authors = JSONReaders.opds2Authors(meta)
            return CatalogBook(
                id: FeedText.line(meta["identifier"].string) ?? acquisitions.first?.url.absoluteString ?? details?.absoluteString ?? "\(base.url.absoluteString)#\(title ?? "")",
                title: title ?? "Untitled", authors: authors,
                summary: FeedText.fromHTML(meta["description"].text ?? meta["subtitle"].text),
                date: meta["published"].date ?? meta["modified"].date,
                coverURL: cover, thumbnailURL: thumbnail, acquisitions: acquisitions, detailsURL: details,
                progressionURL: progression)
        }
    }
}
