import ArgumentParser
import Foundation
import IssueArchive
import Shelf

/// `newsstand inspect archive FILE [--json|--text]`: what an issue archive holds, read safely
/// into a temporary folder that is removed afterwards.
struct InspectArchive: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Show an issue archive's format, metadata, contents and page or article count."
    )

    enum Output: String, EnumerableFlag {
        case json, text
        static func help(for value: Output) -> ArgumentHelp? {
            value == .json ? "Print the content as JSON, for machines." : "Print the readable text in reading order."
        }
    }

    @Argument(help: "An EPUB, CBZ or zip file.")
    var file: String

    @Flag(exclusivity: .exclusive)
    var output: Output?

    func run() throws {
        let archive = URL(fileURLWithPath: file)
        let content: IssueContent
        let root: URL
        do { (content, root) = try IssueReader.read(archive: archive) } catch { throw CommandFailure("\(file): \(error)") }
        defer { try? FileManager.default.removeItem(at: root) }
        switch output {
        case .json?: print(try ArchiveReport.json(content))
        case .text?: print(try PlainText.render(directory: root), terminator: "")
        case nil: print(ArchiveReport.summary(content))
        }
    }
}
