import ArgumentParser
import Foundation
import Imaging

/// `newsstand`: a terminal newsstand. With no command it opens the shelf.
struct Newsstand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "newsstand",
        abstract: "A terminal newsstand: subscribe to periodicals, see their covers, read offline.",
        subcommands: [
            ShelfCommand.self, Subscribe.self, Unsubscribe.self, Refresh.self, Issues.self, Download.self,
            Read.self, Remove.self, CacheCommand.self, AgentCommand.self, Push.self, Inspect.self, Render.self,
        ],
        defaultSubcommand: ShelfCommand.self
    )
}

/// `newsstand inspect feed|archive`: look inside without touching the library.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what a feed or an issue archive holds, without touching the library.",
        subcommands: [InspectFeed.self, InspectArchive.self]
    )
}

// `render` is answered before ArgumentParser when its arguments are plain: building the
// parser's view of every command cost more than decoding and drawing a cover. Help and
// mistakes still go to ArgumentParser.
if let request = RenderTool.parse(CommandLine.arguments.dropFirst()) { exit(RenderTool.run(request)) }

Newsstand.main()
