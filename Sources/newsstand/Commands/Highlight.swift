import ArgumentParser
import Foundation
import NewsstandKit
import Shelf

/// `newsstand highlight ISSUE --quote "exact words"`: one highlight made from the command line.
struct HighlightCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "highlight",
        abstract: "Highlight a passage of a downloaded issue by quoting its words, with a note if you like.",
        discussion: """
            The words must be in the issue's text exactly once, as `newsstand read ISSUE --plain` shows them \
            (within one paragraph); --chapter N looks only in the Nth chapter or article with text.
            """)

    @Argument(help: "The issue: its name, short name (publication/number) or part of its title.")
    var issue: String

    @Option(help: "The exact words to highlight.")
    var quote: String

    @Option(help: "A note beside the highlight (several lines allowed).")
    var note: String?

    @Option(help: "yellow, green, blue, pink or underline.")
    var color: Highlight.Color = .yellow

    @Option(help: "Look only in this chapter or article (from 1, counting those with text).")
    var chapter: Int?

    func run() throws {
        let library = try Context.writableLibrary()
        let made = try library.highlights.add(quote: quote, in: try library.issue(matching: issue), texts: HighlightTexts(),
                                              chapter: chapter, color: color, note: note)
        print("highlighted in \(made.chapter ?? made.resource): \(made.id)")
    }
}

extension Highlight.Color: ExpressibleByArgument {}
