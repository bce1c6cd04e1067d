import ArgumentParser
import Foundation
import NewsstandKit

struct Subscribe: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a publication by its feed URL (file:// and paths too).")

    @Argument(help: "The feed's URL or a local file.")
    var url: String

    @Option(help: "A server-sent-events URL that announces new issues (overrides the feed's own).")
    var push: String?

    @Flag(help: "Download new issues by themselves when a push or a poll announces them (at most one a day).")
    var autoDownload = false

    func run() throws {
        let library = try Context.writableLibrary(withSamples: true)
        let feedURL = FeedLocation.url(from: url)
        var pushURL: URL?
        if let push {
            guard let parsed = URL(string: push), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "") else {
                throw CommandFailure("--push must be an http or https URL, not \(push)")
            }
            pushURL = parsed
        }
        do {
            let (publication, result) = try library.subscribe(feedURL: feedURL, pushURL: pushURL, autoDownload: autoDownload ? true : nil)
            print("Subscribed to \(publication.title): \(result.added.count) new issue(s).")
        } catch {
            throw CommandFailure("cannot subscribe to \(url): \(error)")
        }
    }
}

enum FeedLocation {
    /// A URL as given, or a local path made absolute.
    static func url(from text: String) -> URL {
        if let url = URL(string: text), let scheme = url.scheme, ["http", "https", "file"].contains(scheme.lowercased()) {
            return url
        }
        return URL(fileURLWithPath: text).standardizedFileURL
    }
}
