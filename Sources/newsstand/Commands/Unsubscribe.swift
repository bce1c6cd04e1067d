import ArgumentParser
import NewsstandKit

struct Unsubscribe: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unsubscribe", abstract: "Remove a publication from the shelf; its issues are kept (subscribing again brings it back whole) unless --remove-issues.")

    @Argument(help: "The publication's title, id or feed URL.")
    var publication: String

    @Flag(help: "Also delete the publication's issues and their content (also of one unsubscribed from before).")
    var removeIssues = false

    func run() throws {
        let library = try Context.writableLibrary()
        // Issues kept by an earlier unsubscribe can still be removed with it.
        let match = try library.store.publication(matching: publication, includingUnsubscribed: removeIssues)
        try library.subscriptions.removePublication(match, removeIssues: removeIssues)
        print(removeIssues ? "Unsubscribed from \(match.title) and removed its issues."
            : "Unsubscribed from \(match.title); its issues are kept, and subscribing to it again brings them back.")
    }
}
