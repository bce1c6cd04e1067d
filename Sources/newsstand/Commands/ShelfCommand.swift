import ArgumentParser
import Foundation
import Imaging
import NewsstandKit
import Pictures
import Shelf
import Terminal

struct ShelfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "shelf", abstract: "Open the shelf (the default).")

    @OptionGroup var screen: ScreenOptions

    func run() throws {
        try ShelfLauncher.run(screen, openIssue: nil)
    }
}

/// Sets up the terminal and runs the shelf; `read ISSUE` starts it in the reader.
enum ShelfLauncher {
    static func run(_ options: ScreenOptions, openIssue: String?) throws {
        let environment = ProcessInfo.processInfo.environment
        if environment["TERM"] == "dumb" {
            throw CommandFailure("this terminal (TERM=dumb) cannot place the cursor, so the shelf and the reader cannot draw: "
                + "`newsstand issues` lists the issues and `newsstand read --plain ISSUE` prints one")
        }
        let library = try Context.libraryNoticingResources()
        let themeName = options.theme ?? ThemeLoader.defaultThemeName(environment: environment)
        let searchPaths = [library.paths.userThemes] + (BundledResources.themes.map { [$0] } ?? [])
        let chosenTheme = try ThemeLoader.load(named: themeName, searchPaths: searchPaths)
        let config = try Config.load(paths: library.paths)
        Context.subscribeSamplesOnFirstStart(library, config: config)
        let keyBindings = try KeyBindings(config: config)
        // Asked once, before ncurses takes the screen.
        let choice = options.imagesChoice ?? config.images.flatMap(ImagesChoice.init(rawValue:)) ?? .auto
        let window = TerminalWindow.current()
        let detection = choice.asksTerminal ? GraphicsDetection.current(window: window) : .halfBlocks(window: window)
        let backend = try CursesBackend(environment: environment,
                                        hyperlinks: config.hyperlinks.flatMap(Hyperlinks.Choice.init(rawValue:)) ?? .auto,
                                        expectingLateReplies: detection.repliesMayFollow)
        CursesBackend.installSignalHandlers { backend.restore() }
        defer { backend.restore() }

        // Covers in what ncurses can draw, not what COLORTERM claims: 256-colour entries get
        // Imaging's own 256-colour choice rather than a per-frame mapping.
        let mode = options.display.colorMode(detected: backend.drawingColors)
        let symbols = options.display.symbols(for: backend.capabilities)
        let cache = CoverCache(directory: library.paths.renderedCoversDirectory)
        let app = ShelfApp(environment: .init(
            library: library, theme: chosenTheme, colorMode: mode, symbols: symbols, coverCache: cache,
            keyBindings: keyBindings,
            pixels: pixelSettings(choice.forced ?? detection.graphics, detection: detection, config: config,
                                  drawing: backend.drawingColors),
            openAfterDownload: config.openAfterDownload,
            startAgent: { AgentLauncher.startIfNeeded(paths: library.paths) }))
        // Work queued earlier (a download the shelf was closed on, issues the search index has
        // not caught up with, all of them after an upgrade) continues now, in the agent.
        if (try? library.downloads.pendingDownloads().isEmpty) == false || ((try? library.search.pendingCount()) ?? 0) > 0 {
            AgentLauncher.startIfNeeded(paths: library.paths)
        }
        if let openIssue, let issue = try? library.store.issue(named: openIssue) { app.startReading(issue) }
        // While held, push alerts go to the status line instead of notify-send.
        let presence = ShelfPresence(paths: library.paths)
        defer { withExtendedLifetime(presence) {} }
        if let advice = detection.advice { app.advisePictures(advice, shelfDrawsPictures: config.coversInPixels) }
        app.run(backend: backend)
    }

    /// Pixels when the protocol draws them: at the cell size the terminal gave (else an
    /// assumed one), through tmux's passthrough at the pane's place; kitty's as placeholder
    /// cells when the terminal has them (or `kitty_placeholders = "on"`) and ncurses draws
    /// in colours that can name their ids.
    static func pixelSettings(_ graphics: GraphicsProtocol, detection: GraphicsDetection, config: Config,
                              drawing: TerminalColors) -> ShelfApp.PixelSettings? {
        guard graphics.drawsPixels else { return nil }
        let choice = config.kittyPlaceholders.flatMap(KittyPlaceholders.Choice.init(rawValue:)) ?? .auto
        let placeholders = KittyPlaceholders.idColours(graphics: graphics, choice: choice, detected: detection.unicodePlaceholders,
                                                       drawing: drawing)
        return ShelfApp.PixelSettings(writer: PixelPictureWriter(graphics: graphics, throughTmux: detection.throughTmux,
                                                                         sixelLimit: detection.largestSixel),
                                      cell: detection.cellPixels ?? PixelPictures.assumedCell,
                                      origin: detection.throughTmux ? TmuxPassthrough.paneOrigin() : (0, 0),
                                      shelfCovers: config.coversInPixels, placeholders: placeholders, drawing: drawing)
    }
}
