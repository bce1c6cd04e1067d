import Foundation
import Markup

/// OPDS 1.2 catalogs (Atom): the root and every section as feeds, and the OpenSearch
/// description. Every text from the library goes through `XMLEscaping`.
struct OPDSAtomFeed {
    static let navigationType = "application/atom+xml;profile=opds-catalog;kind=navigation"
    static let acquisitionType = "application/atom+xml;profile=opds-catalog;kind=acquisition"
    let entries: CatalogEntries
    /// When the document is built: Atom requires an `<updated>`, and a shelf with nothing
    /// downloaded has no time of its own to give.
    var built = Date()

    private var searchLink: String {
        #"<link rel="search" href="\#(entries.root)/opensearch.xml" type="application/opensearchdescription+xml" title="Search the shelf"/>"#
    }

    func root(updated: Date) -> String {
        let items = CatalogEntries.sections.map { item in
            let type = item.section == .publications ? Self.navigationType : Self.acquisitionType
            return navigationEntry(id: "urn:newsstand:\(item.section.path)", title: item.title, about: item.about,
                                   href: entries.href(item.section), type: type, updated: updated)
        }
        return feed(id: "urn:newsstand:root", title: "Newsstand", updated: updated,
                    links: [link("self", entries.root, Self.navigationType)], body: items)
    }

    func feed(_ listing: ShelfListing, section: ShelfSection) -> String {
        let kind = section == .publications ? Self.navigationType : Self.acquisitionType
        var links = [link("self", entries.href(section, page: listing.page), kind)]
        if listing.pages > 1 {
            links.append(link("first", entries.href(section), kind))
            links.append(link("last", entries.href(section, page: listing.pages), kind))
        }
        if listing.page > 1 { links.append(link("previous", entries.href(section, page: listing.page - 1), kind)) }
        if listing.page < listing.pages { links.append(link("next", entries.href(section, page: listing.page + 1), kind)) }
        let body: [String]
        if section == .publications {
            body = listing.publications.compactMap { item in
                item.publication.id.map { id in
                    navigationEntry(id: "urn:newsstand:publication:\(id)", title: item.publication.title,
                                    about: item.issues == 1 ? "1 issue" : "\(item.issues) issues",
                                    href: entries.href(.publication(id)), type: Self.acquisitionType, updated: listing.updated)
                }
            }
        } else {
            body = listing.entries.compactMap(entries.entry).map(acquisitionEntry)
        }
        return feed(id: "urn:newsstand:\(section.path)", title: listing.title, updated: listing.updated, links: links, body: body)
    }

    func openSearch() -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
          <ShortName>Newsstand</ShortName>
          <Description>Search the issues on the shelf</Description>
          <InputEncoding>UTF-8</InputEncoding>
          <OutputEncoding>UTF-8</OutputEncoding>
          <Url type="\(XMLEscaping.escaped(Self.acquisitionType))" template="\(entries.root)/search?q={searchTerms}"/>
        </OpenSearchDescription>

        """
    }

    private func feed(id: String, title: String, updated: Date, links: [String], body: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/terms/" xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:pse="http://vaemendis.net/opds-pse/ns">
          <id>\(id)</id>
          <title>\(XMLEscaping.escaped(title))</title>
          <updated>\(CatalogEntries.timestamp(updated > .distantPast ? updated : built))</updated>
          <author><name>Newsstand</name></author>
          \(link("start", entries.root, Self.navigationType))
          \(searchLink)
          \((links).joined(separator: "\n  "))
        \(body.joined())</feed>

        """
    }

    private func link(_ rel: String, _ href: String, _ type: String) -> String {
        #"<link rel="\#(rel)" href="\#(XMLEscaping.escaped(href))" type="\#(XMLEscaping.escaped(type))"/>"#
    }

    private func navigationEntry(id: String, title: String, about: String, href: String, type: String, updated: Date) -> String {
        """
          <entry>
            <title>\(XMLEscaping.escaped(title))</title>
            <id>\(id)</id>
            <updated>\(CatalogEntries.timestamp(updated > .distantPast ? updated : built))</updated>
            <content type="text">\(XMLEscaping.escaped(about))</content>
            \(link("subsection", href, type))
          </entry>

        """
    }

    private func acquisitionEntry(_ entry: CatalogEntries.Entry) -> String {
        var lines = [
            "<title>\(XMLEscaping.escaped(entry.title))</title>",
            "<id>\(entry.id)</id>",
            "<updated>\(CatalogEntries.timestamp(entry.updated))</updated>",
        ]
        lines += entry.authors.map { "<author><name>\(XMLEscaping.escaped($0))</name></author>" }
        lines.append("<dc:issued>\(CatalogEntries.timestamp(entry.date))</dc:issued>")
        if let publication = entry.publication { lines.append("<dc:isPartOf>\(XMLEscaping.escaped(publication))</dc:isPartOf>") }
        if let summary = entry.summary, !summary.isEmpty { lines.append("<summary type=\"text\">\(XMLEscaping.escaped(summary))</summary>") }
        if let type = entry.coverType {
            lines.append(link("http://opds-spec.org/image", entry.cover, type))
            lines.append(link("http://opds-spec.org/image/thumbnail", entry.thumbnail, type))
        }
        lines.append(link("http://opds-spec.org/acquisition", entry.file, entry.kind.mediaType))
        if let count = entry.pageCount, count > 0 {
            let lastRead = entry.lastRead.map { #" pse:lastRead="\#($0)""# } ?? ""
            lines.append(#"<link rel="http://vaemendis.net/opds-pse/stream" href="\#(XMLEscaping.escaped(entry.stream))" type="image/jpeg" pse:count="\#(count)"\#(lastRead)/>"#)
        }
        return "  <entry>\n" + lines.map { "    " + $0 + "\n" }.joined() + "  </entry>\n"
    }
}
