import ArgumentParser
import NewsstandKit

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove an issue, its downloads and its content.")

    @Argument(help: "The issue's name.")
    var issue: String

    func run() throws {
        let library = try Context.writableLibrary()
        let target = try library.issue(matching: issue)
        try library.removeIssue(target)
        print("Removed \(target.name).")
    }
}
