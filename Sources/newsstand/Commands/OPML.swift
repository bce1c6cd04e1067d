import ArgumentParser
import Feeds
import Foundation
import NewsstandKit

/// `newsstand opml import|export`: the subscription list other feed readers exchange.
struct OPMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opml",
        abstract: "Import feeds from another reader's OPML list, or export yours as OPML 2.0.",
        subcommands: [OPMLImport.self, OPMLExport.self]
    )
}

struct OPMLImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Subscribe to every feed of an OPML list (newsboat, NetNewsWire, Miniflux, …); feeds already followed are left as they are.")

    @Argument(help: "The OPML file, or its http(s) URL.")
    var source: String

    func run() throws {
        let library = try Context.writableLibrary()
        let url = try FeedLocation.url(from: source)
        let data: Data
        do { data = try FeedFetcher.fetch(url, signedInAs: library.paths) } catch { throw CommandFailure("cannot read \(source): \(error)") }
        let document: OPMLDocument
        do { document = try OPMLDocument.parse(data) } catch { throw CommandFailure("\(source) \(error)") }
        let plan = try library.store.opmlImportPlan(document)

        for refusal in plan.refused { printProblem(refusal) }
        if !plan.folders.isEmpty {
            print("Newsstand has no folders or tags: the feeds of \(plan.folders.joined(separator: ", ")) join the shelf with the others.")
        }
        if !plan.alreadySubscribed.isEmpty {
            print("Already subscribed to \(plan.alreadySubscribed.count): \(plan.alreadySubscribed.joined(separator: ", ")).")
        }
        var failed = 0
        for feed in plan.toSubscribe {
            guard let feedURL = URL(string: feed.xmlURL) else { continue }
            do {
                let (publication, result) = try library.subscriptions.subscribe(feedURL: feedURL, siteURL: feed.htmlURL.flatMap(URL.init(string:)))
                print(SubscribeReport.line(publication, result, library: library, alreadySubscribed: false))
            } catch {
                failed += 1
                printProblem("cannot subscribe to \(Library.bareURL(feedURL).url.absoluteString): \(error)")
            }
        }
        print("Imported \(plan.toSubscribe.count - failed) of the \(document.feeds.count) feed(s) in \(source).")
        if failed > 0 { throw ExitCode.failure }
    }
}

struct OPMLExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the feeds you follow as OPML 2.0, which newsboat, NetNewsWire and Miniflux import.")

    @Argument(help: "The file to write (replaced whole); standard output when none is given.")
    var file: String?

    func run() throws {
        let library = try Context.library()
        let (document, leftOut) = try library.store.opmlExport()
        if leftOut > 0 {
            printProblem("\(leftOut) publication(s) of your own files or from catalogs are not feeds, and are not in the list")
        }
        guard let file else {
            FileHandle.standardOutput.write(document.written())
            return
        }
        let url = URL(fileURLWithPath: file)
        do { try document.write(to: url) } catch { throw CommandFailure("cannot write \(file): \(error)") }
        print("Wrote \(document.feeds.count) feed(s) to \(file).")
    }
}
