import ArgumentParser
import Foundation
import NewsstandKit

struct Subscribe: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "subscribe", abstract: "Add a publication by its feed URL (file:// and paths too).")

    @Argument(help: "The feed's URL or a local file.")
    var url: String

    @Option(help: "A server-sent-events URL that announces new issues (overrides the feed's own).")
    var push: String?

    @Flag(help: "Download new issues by themselves when a push or a poll announces them (at most one a day).")
    var autoDownload = false

    func run() throws {
        let library = try Context.writableLibrary(withSamples: true)
        let feedURL = try FeedLocation.url(from: url)
        var pushURL: URL?
        if let push {
            guard let parsed = URL(string: push), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "") else {
                throw CommandFailure("--push must be an http or https URL, not \(push)")
            }
            pushURL = parsed
        }
        let existing = try library.publications().first { $0.feedURL == feedURL.absoluteString }
        if let existing, pushURL == nil, !autoDownload {
            print("Already subscribed to \(existing.title) (`newsstand refresh` fetches its feed again).")
            return
        }
        do {
            let (publication, result) = try library.subscribe(feedURL: feedURL, pushURL: pushURL, autoDownload: autoDownload ? true : nil)
            let news = "\(result.added.count) new issue(s)"
            print(existing == nil ? "Subscribed to \(publication.title): \(news)." : "Already subscribed to \(publication.title): settings updated, \(news).")
        } catch {
            throw CommandFailure("cannot subscribe to \(url): \(error)")
        }
    }
}

enum FeedLocation {
    /// A URL as given, or a local path made absolute. A URL of another scheme (`ftp://…`)
    /// is refused for its scheme, not looked for as a file.
    static func url(from text: String) throws -> URL {
        if let url = URL(string: text), let scheme = url.scheme {
            if ["http", "https", "file"].contains(scheme.lowercased()) { return url }
            if text.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression) != nil {
                throw CommandFailure("\(text): \(scheme.lowercased()):// is not supported; a feed is an http, https or file URL, or a local path")
            }
        }
        return URL(fileURLWithPath: text).standardizedFileURL
    }
}
