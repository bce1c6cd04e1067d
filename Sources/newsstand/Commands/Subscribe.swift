import ArgumentParser
import Foundation
import NewsstandKit

struct Subscribe: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a publication by its feed URL (file:// and paths too).")

    @Argument(help: "The feed's URL or a local file.")
    var url: String

    func run() throws {
        let library = try Context.libraryWithSamples()
        let feedURL = FeedLocation.url(from: url)
        do {
            let (publication, result) = try library.subscribe(feedURL: feedURL)
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
