import ArgumentParser
import NewsstandKit

struct Unsubscribe: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unsubscribe", abstract: "Remove a publication; downloaded issues stay unless --remove-issues.")

    @Argument(help: "The publication's title, id or feed URL.")
    var publication: String

    @Flag(help: "Also delete the publication's issues and their content.")
    var removeIssues = false

    func run() throws {
        let library = try Context.writableLibrary()
        let match = try library.publication(matching: publication)
        try library.removePublication(match, removeIssues: removeIssues)
        print("Unsubscribed from \(match.title).")
    }
}
