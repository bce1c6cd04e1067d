import ArgumentParser
import Feeds
import Foundation
import NewsstandKit

/// `newsstand browse URL [--search TERMS] [--json]`: one page of an OPDS catalog, for scripts.
struct Browse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Show one page of an OPDS catalog (OPDS 1 or 2): its catalogs, facets, other pages and books.")

    @Argument(help: "The page's URL (http, https, file or a path), or a kept catalog (its number, title or URL in `newsstand catalog list`).")
    var source: String

    @Option(help: "Search the catalog for these words and show the results instead.")
    var search: String?

    @Flag(help: "Print the page as JSON.")
    var json = false

    func run() throws {
        let library = try Context.library()
        let url = try CatalogLocation.url(from: source, library: library)
        let browser = library.catalogs
        var page: CatalogPage
        do {
            page = try browser.page(at: url)
            if let search { page = try browser.search(page, terms: search) }
        } catch {
            throw CommandFailure("cannot browse \(url.absoluteString): \(error)")
        }
        print(json ? try CatalogReport.json(page) : CatalogReport.text(page), terminator: "")
    }
}

enum CatalogLocation {
    /// A URL or path as given, else a kept catalog's URL.
    static func url(from text: String, library: Library) throws -> URL {
        let looksLikeLocation = text.contains("://") || text.hasPrefix("/") || text.hasPrefix(".")
            || FileManager.default.fileExists(atPath: text)
        if !looksLikeLocation, let kept = try? library.catalogs.catalog(matching: text), let url = URL(string: kept.url) { return url }
        return try FeedLocation.url(from: text)
    }
}
