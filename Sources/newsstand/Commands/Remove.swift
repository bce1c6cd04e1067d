import ArgumentParser
import NewsstandKit

/// `remove ISSUE` does what the shelf's `x` does: the content goes, the issue keeps its
/// place in the library and its reading position, and `download` brings it back.
/// `--from-library` is the other, rarer act, named so: the entry itself goes.
struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove an issue's downloaded content; the issue stays in the library with its reading place.",
        discussion: "`newsstand download ISSUE` brings the content back. --from-library removes the issue itself.")

    @Argument(help: "The issue's name.")
    var issue: String

    @Flag(help: "Remove the issue from the library altogether: its entry, downloads, content and reading place (the next refresh lists it again as new while its feed does).")
    var fromLibrary = false

    func run() throws {
        let library = try Context.writableLibrary()
        let target = try library.issue(matching: issue)
        if fromLibrary {
            try library.downloads.removeIssue(target)
            print("Removed \(target.name) from the library.")
            return
        }
        switch target.status {
        case .available:
            try library.cache.evictContent(of: target, toSaveSpace: false)
            print("Removed the content of \(target.name); it stays in the library (`newsstand download \(target.name)` brings it back).")
        case .downloading:
            throw CommandFailure("\(target.name) is not downloaded yet (its download is under way): there is no content to remove")
        case .none:
            throw CommandFailure("\(target.name) is not downloaded: there is no content to remove")
        }
    }
}
