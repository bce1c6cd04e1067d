import ArgumentParser
import Foundation
import Imaging
import NewsstandKit
import Shelf
import Terminal

struct ShelfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "shelf", abstract: "Open the shelf (the default).")

    @Option(help: "Theme name (classic, dark, light, high-contrast, mono) or a .toml file.")
    var theme: String?

    @Option(help: "Colours for covers: auto, truecolor, 256, 16 or none.")
    var colors: String = "auto"

    func run() throws {
        try ShelfLauncher.run(theme: theme, colors: colors, openIssue: nil)
    }
}

/// Sets up the terminal and runs the shelf; `read ISSUE` starts it in the reader.
enum ShelfLauncher {
    static func run(theme: String?, colors: String, openIssue: String?) throws {
        let environment = ProcessInfo.processInfo.environment
        let library = try Context.libraryWithSamples()
        let themeName = theme ?? ThemeLoader.defaultThemeName(environment: environment)
        let searchPaths = [library.paths.userThemes] + (BundledResources.themes.map { [$0] } ?? [])
        let chosenTheme: Theme
        do { chosenTheme = try ThemeLoader.load(named: themeName, searchPaths: searchPaths) } catch {
            throw CommandFailure("\(error)")
        }
        let keyBindings: KeyBindings
        do { keyBindings = try KeyBindings(config: Config.load(paths: library.paths)) } catch { throw CommandFailure("\(error)") }
        let backend: CursesBackend
        do { backend = try CursesBackend(environment: environment) } catch { throw CommandFailure("\(error)") }
        CursesBackend.installSignalHandlers { backend.restore() }
        defer { backend.restore() }

        let mode: ColorMode
        if colors != "auto" {
            guard let forced = ColorMode(rawValue: colors) else { backend.restore(); throw CommandFailure("--colors must be auto, truecolor, 256, 16 or none") }
            mode = forced
        } else {
            // What ncurses can draw, not what COLORTERM claims: 256-colour entries get
            // Imaging's own 256-colour choice rather than a per-frame mapping.
            switch backend.drawingColors {
            case .direct: mode = .truecolor
            case .palette256: mode = .palette256
            case .palette16: mode = .palette16
            case .monochrome: mode = .none
            }
        }
        let symbols: Symbols = backend.isUTF8 ? .half : .ascii
        let cache = CoverCache(directory: library.paths.renderedCoversDirectory)
        let app = ShelfApp(environment: .init(
            library: library, theme: chosenTheme, colorMode: mode, symbols: symbols, coverCache: cache,
            keyBindings: keyBindings, startAgent: { AgentLauncher.startIfNeeded(paths: library.paths) }))
        // Work queued earlier (a download the shelf was closed on) continues now.
        if (try? library.pendingDownloads().isEmpty) == false { AgentLauncher.startIfNeeded(paths: library.paths) }
        if let openIssue, let issue = try? library.issue(named: openIssue) { app.startReading(issue) }
        // While held, push alerts go to the status line instead of notify-send.
        let presence = ShelfPresence(paths: library.paths)
        defer { withExtendedLifetime(presence) {} }
        app.run(backend: backend)
    }
}
