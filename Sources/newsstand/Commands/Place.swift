import ArgumentParser
import Foundation
import NewsstandKit

/// `newsstand place ISSUE [--set 42% | --set page:12] [--json]`: an issue's place, for scripts.
struct PlaceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "place",
        abstract: "Print an issue's place (and a place another reader offers), or set it.")

    @Argument(help: "The issue (its name, short name or part of its title).")
    var issue: String

    @Option(help: "The new place: a share of the issue (42%) or a page (page:12).")
    var set: String?

    @Flag(help: "Print the place as JSON.")
    var json = false

    func run() throws {
        let library = try set == nil ? Context.library() : Context.writableLibrary()
        var issue = try library.issue(matching: self.issue)
        if let set {
            let (percentage, page) = try Self.parse(set)
            try library.sync.setPlace(of: issue, percentage: percentage, page: page)
            issue = try library.store.issue(id: issue.id ?? 0) ?? issue
        }
        let place = PlaceDescription(issue: issue, offer: try library.store.placeOffer(for: issue),
                                     history: try library.store.placeHistory(of: issue))
        print(json ? place.json : place.text)
    }

    /// "42%" → 0.42; "page:12" → page 12.
    static func parse(_ text: String) throws -> (Double?, Int?) {
        if text.hasSuffix("%"), let value = Double(text.dropLast()), (0...100).contains(value) { return (value / 100, nil) }
        if text.hasPrefix("page:"), let page = Int(text.dropFirst(5)), page >= 1 { return (nil, page) }
        throw ValidationError("--set takes a share such as 42% or a page such as page:12")
    }
}
