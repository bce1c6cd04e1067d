import ArgumentParser
import Foundation
import PDF

/// `newsstand`: a terminal newsstand. With no command it opens the shelf.
struct Newsstand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "newsstand",
        abstract: "A terminal newsstand: subscribe to periodicals, see their covers, read offline.",
        version: NewsstandVersion.current,
        subcommands: [
            ShelfCommand.self, Subscribe.self, Unsubscribe.self, Refresh.self, Issues.self, Download.self,
            SetCommand.self, Read.self, Export.self, Remove.self, Cancel.self, CacheCommand.self, AgentCommand.self, Push.self, Inspect.self, Render.self, Login.self, Logout.self,
            Browse.self, CatalogCommand.self, OPMLCommand.self, SearchCommand.self, HighlightCommand.self, HighlightsCommand.self, ServeCommand.self,
            SyncCommand.self, PlaceCommand.self,
        ],
        defaultSubcommand: ShelfCommand.self
    )

    /// Mistakes on the command line read like every other failure (see `CommandExit`).
    static var _errorPrefix: String { "newsstand: " }
}

/// `newsstand inspect feed|archive`: look inside without touching the library.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a feed or an issue archive holds, without touching the library.",
        subcommands: [InspectFeed.self, InspectArchive.self, InspectArticle.self]
    )
}

// `render FILE.pdf`: the PDF worker's executable loads poppler on the other core while this
// process parses its arguments and asks the terminal what it shows, then draws the page
// (benchmarks/HISTORY.md, "Session 9: one PDF page as a whole process").
let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "render", case let documents = arguments.filter({ $0.lowercased().hasSuffix(".pdf") }), documents.count == 1 {
    PDFWorker.shared.prepareDrawing(URL(fileURLWithPath: documents[0]).path)
}
PDFSupport.register()
EditionCoverSupport.register()
CommandExit.main(Array(CommandLine.arguments.dropFirst()))
