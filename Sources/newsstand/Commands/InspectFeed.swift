import ArgumentParser
import Feeds
import Foundation
import NewsstandKit

/// `newsstand inspect feed FILE|URL [--json]`: what a feed holds, without touching the library.
struct InspectFeed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Show the publication and issues a feed describes, without subscribing to it.")

    @Argument(help: "A feed file, a file:// URL or an http(s) URL.")
    var source: String

    @Flag(help: "Print the parsed feed as JSON.")
    var json = false

    func run() throws {
        let url = try FeedLocation.url(from: source)
        let data = try FeedFetcher.fetch(url, signedInAs: Paths())
        let document = try FeedParser.parse(data, url: url)
        print(json ? try FeedReport.json(document) : FeedReport.text(document, formatSize: ByteSize.format), terminator: "")
    }
}
