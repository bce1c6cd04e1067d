import ArgumentParser
import Feeds
import Foundation
import NewsstandKit

/// `newsstand catalog add|list|remove`: the OPDS catalogs kept in the library (only their
/// addresses and titles; credentials are never stored there).
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Keep OPDS catalogs (calibre, Komga, Kavita…) to browse from the shelf.",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Keep a catalog by the URL of its first page.")

        @Argument(help: "The catalog's URL (http, https, file or a path).")
        var url: String

        func run() throws {
            let library = try Context.writableLibrary()
            let location = try FeedLocation.url(from: url)
            do {
                let (catalog, page, added) = try library.catalogs.addCatalog(url: location)
                let what = page.isAcquisitionFeed ? "\(page.allBooks.count) book(s)" : "\(page.navigation.count + page.groups.count) catalog(s)"
                print(added ? "Added the catalog \(catalog.title): \(what) on its first page."
                            : "The catalog \(catalog.title) is already kept.")
            } catch {
                throw CommandFailure("cannot add the catalog \(url): \(error)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The kept catalogs, numbered.")

        @Flag(help: "Print them as JSON.")
        var json = false

        func run() throws {
            let catalogs = try Context.library().store.catalogs()
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                print(String(decoding: try encoder.encode(catalogs), as: UTF8.self))
                return
            }
            if catalogs.isEmpty { print("No catalogs yet (`newsstand catalog add URL`).") }
            for (index, catalog) in catalogs.enumerated() { print("\(index + 1)  \(catalog.title)  \(catalog.url)") }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Forget a catalog (what was subscribed to or taken from it stays).")

        @Argument(help: "The catalog's number in `catalog list`, its title or its URL.")
        var catalog: String

        func run() throws {
            let library = try Context.writableLibrary()
            let match = try library.catalogs.catalog(matching: catalog)
            try library.store.removeCatalog(match)
            print("Removed the catalog \(match.title).")
        }
    }
}
