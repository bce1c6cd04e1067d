import Foundation

/// OPDS 2.0 catalogs (JSON): the root and every section. `JSONSerialization` writes every
/// string, so whatever a title holds is escaped as JSON requires.
struct OPDSJSONFeed {
    static let type = "application/opds+json"
    let entries: CatalogEntries

    func root(updated: Date) throws -> Data {
        let navigation = CatalogEntries.sections.map { item in
            ["href": entries.href(item.section), "title": item.title, "type": Self.type, "rel": "subsection"]
        }
        return try document(title: "Newsstand", updated: updated, links: [link("self", entries.root)],
                            extra: ["navigation": navigation])
    }

    func feed(_ listing: ShelfListing, section: ShelfSection) throws -> Data {
        var links = [link("self", entries.href(section, page: listing.page))]
        if listing.pages > 1 {
            links.append(link("first", entries.href(section)))
            links.append(link("last", entries.href(section, page: listing.pages)))
        }
        if listing.page > 1 { links.append(link("previous", entries.href(section, page: listing.page - 1))) }
        if listing.page < listing.pages { links.append(link("next", entries.href(section, page: listing.page + 1))) }
        var extra: [String: Any] = [:]
        if section == .publications {
            extra["navigation"] = listing.publications.compactMap { item -> [String: Any]? in
                guard let id = item.publication.id else { return nil }
                return ["href": entries.href(.publication(id)), "title": item.publication.title, "type": Self.type,
                        "properties": ["numberOfItems": item.issues]]
            }
        } else {
            extra["publications"] = listing.entries.compactMap(entries.entry).map(publication)
        }
        // A feed must hold publications or navigation: an empty section leads back to the root.
        if (extra["navigation"] as? [Any])?.isEmpty != false, (extra["publications"] as? [Any])?.isEmpty != false {
            extra = ["navigation": [["href": entries.root, "title": "Newsstand", "type": Self.type, "rel": "start"]]]
        }
        let count = listing.entries.isEmpty ? listing.publications.count : listing.entries.count
        let paging: [String: Any] = ["currentPage": listing.page, "itemsPerPage": ShelfSections.pageSize,
                                     "numberOfItems": (listing.pages - 1) * ShelfSections.pageSize + count]
        return try document(title: listing.title, updated: listing.updated, links: links, extra: extra, metadata: paging)
    }

    private func document(title: String, updated: Date, links: [[String: Any]], extra: [String: Any],
                          metadata more: [String: Any] = [:]) throws -> Data {
        var metadata: [String: Any] = ["title": title]
        // A shelf with nothing downloaded has no time to give: none rather than year 1.
        if updated > .distantPast { metadata["modified"] = CatalogEntries.timestamp(updated) }
        metadata.merge(more) { a, _ in a }
        var all = links
        all.append(link("start", entries.root))
        all.append(["rel": "search", "href": "\(entries.root)/search{?query}", "type": Self.type, "templated": true])
        var object = extra
        object["metadata"] = metadata
        object["links"] = all
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    private func link(_ rel: String, _ href: String) -> [String: Any] { ["rel": rel, "href": href, "type": Self.type] }

    private func publication(_ entry: CatalogEntries.Entry) -> [String: Any] {
        var metadata: [String: Any] = [
            "@type": "http://schema.org/Periodical", "identifier": entry.id, "title": entry.title,
            "published": CatalogEntries.timestamp(entry.date), "modified": CatalogEntries.timestamp(entry.updated),
        ]
        if !entry.authors.isEmpty { metadata["author"] = entry.authors.map { ["name": $0] } }
        if let summary = entry.summary, !summary.isEmpty { metadata["description"] = summary }
        if let publication = entry.publication { metadata["belongsTo"] = ["series": [["name": publication]]] }
        var links: [[String: Any]] = [["rel": "http://opds-spec.org/acquisition", "href": entry.file, "type": entry.kind.mediaType]]
        if let count = entry.pageCount, count > 0 {
            var properties: [String: Any] = ["numberOfItems": count]
            if let lastRead = entry.lastRead { properties["lastRead"] = lastRead }
            links.append(["rel": "http://vaemendis.net/opds-pse/stream", "href": entry.stream, "type": "image/jpeg",
                          "templated": true, "properties": properties])
        }
        var object: [String: Any] = ["metadata": metadata, "links": links]
        if let type = entry.coverType {
            object["images"] = [["href": entry.cover, "type": type], ["href": entry.thumbnail, "type": type, "rel": "http://opds-spec.org/image/thumbnail"]]
        }
        return object
    }
}
