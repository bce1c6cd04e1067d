import Foundation

/// How `newsstand browse` prints a catalog page: as text for people, JSON for scripts.
public enum CatalogReport {
    public static func json(_ page: CatalogPage) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(page), as: UTF8.self) + "\n"
    }

    public static func text(_ page: CatalogPage) -> String {
        var lines = ["\(page.title)  (\(page.format.rawValue), \(page.isAcquisitionFeed ? "acquisition feed: `newsstand subscribe` takes it" : "navigation"))"]
        if let subtitle = page.subtitle { lines.append("  \(subtitle)") }
        lines.append("  url       \(page.url.absoluteString)")
        let pages: [(String, URL?)] = [("previous", page.pages.previous), ("next", page.pages.next), ("up", page.pages.up), ("start", page.pages.start)]
        for (name, url) in pages { if let url { lines.append("  \(name.padding(toLength: 9, withPad: " ", startingAt: 0)) \(url.absoluteString)") } }
        switch page.search {
        case let .description(url)?: lines.append("  search    \(url.absoluteString) (OpenSearch)")
        case let .template(template, _)?: lines.append("  search    \(template)")
        case nil: break
        }
        if !page.navigation.isEmpty {
            lines.append("")
            lines.append("Catalogs (\(page.navigation.count)):")
            lines += page.navigation.map(line)
        }
        if !page.facets.isEmpty {
            lines.append("")
            lines.append("Facets (\(page.facets.count)):")
            for facet in page.facets {
                lines.append("  \(facet.active ? "*" : " ") \(facet.facetGroup.map { "\($0): " } ?? "")\(facet.title)\(facet.count.map { " (\($0))" } ?? "")  \(facet.url.absoluteString)")
            }
        }
        if !page.books.isEmpty {
            lines.append("")
            lines.append("Books (\(page.books.count)):")
            lines += page.books.flatMap(bookLines)
        }
        for group in page.groups {
            lines.append("")
            lines.append("\(group.title)\(group.url.map { "  (more: \($0.absoluteString))" } ?? ""):")
            lines += group.navigation.map(line)
            lines += group.books.flatMap(bookLines)
        }
        if !page.problems.isEmpty {
            lines.append("")
            lines.append("Problems (\(page.problems.count)):")
            lines += page.problems.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func line(_ link: CatalogLink) -> String {
        "  \(link.title)\(link.count.map { " (\($0))" } ?? "")  \(link.url.absoluteString)"
    }

    private static func bookLines(_ book: CatalogBook) -> [String] {
        var lines = ["  \(book.title)\(book.authors.isEmpty ? "" : " — " + book.authors.joined(separator: ", "))  [\(book.id)]"]
        if !book.formats.isEmpty { lines.append("      formats  \(book.formats.joined(separator: ", "))") }
        for acquisition in book.acquisitions { lines.append("      get      \(acquisition.url.absoluteString)") }
        if let stream = book.stream {
            lines.append("      pages    \(stream.count), streamed\(stream.lastRead.map { "; last read: page \($0)" } ?? "")")
        }
        if let summary = book.summary {
            lines.append("      \(summary.count > 160 ? String(summary.prefix(159)) + "…" : summary)")
        }
        return lines
    }
}
