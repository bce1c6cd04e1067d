import ArgumentParser
import Foundation
import NewsstandKit

/// `newsstand highlights [ISSUE] [--format …]`: the highlights, to read or take elsewhere.
struct HighlightsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "highlights",
        abstract: "Write the highlights and notes of an issue, or of every issue, for reading or for other tools.",
        discussion: """
            markdown: grouped by issue and chapter, with the notes; json: everything Newsstand keeps; \
            w3c: W3C Web Annotation JSON-LD (Thorium, Hypothesis); calibre: calibre's highlights file (EPUBs only).
            """)

    @Argument(help: "Only this issue's highlights: its name, short name or part of its title.")
    var issue: String?

    @Option(help: "Only the highlights of this publication's issues: its title or part of it.")
    var publication: String?

    @Option(help: "markdown, json, w3c or calibre.")
    var format: HighlightExport.Format = .markdown

    func run() throws {
        let library = try Context.library()
        let highlights = try library.highlights.forExport(issue: try issue.map { try library.issue(matching: $0) },
                                                               publication: publication)
        print(try HighlightExport.write(highlights, as: format), terminator: "")
        if format == .calibre, case let left = HighlightExport.withoutCFI(highlights), left > 0 {
            printProblem("\(left) highlight(s) not in an EPUB left out: calibre places highlights by EPUB CFI")
        }
    }
}

extension HighlightExport.Format: ExpressibleByArgument {}
