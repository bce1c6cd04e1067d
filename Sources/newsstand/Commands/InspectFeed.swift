import ArgumentParser
import Feeds
import Foundation

/// `newsstand inspect feed FILE|URL [--json]`: what a feed holds, without touching the library.
struct InspectFeed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Show the publication and issues a feed describes, without subscribing to it.")

    @Argument(help: "A feed file, or a file:// URL.")
    var source: String

    @Flag(help: "Print the parsed feed as JSON.")
    var json = false

    func run() throws {
        let url = try FeedSource.url(of: source)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw FeedError("cannot read \(url.path): \((error as NSError).localizedDescription)")
        }
        let document = try FeedParser.parse(data, url: url)
        print(json ? try FeedReport.json(document) : FeedReport.text(document), terminator: "")
    }
}

enum FeedSource {
    /// The local URL of a file path or file:// URL. Remote feeds are fetched by NewsstandKit.
    static func url(of source: String) throws -> URL {
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme.count > 1 {
            switch scheme {
            case "file": return url
            case "http", "https":
                // TODO(lead): fetch through NewsstandKit once transfers exist.
                throw FeedError("inspect feed reads local files only for now; save \(source) and pass the file")
            default:
                throw FeedError("unsupported URL scheme \(scheme):; give a file path, a file:// URL or an http(s) URL")
            }
        }
        return URL(fileURLWithPath: source)
    }
}
