import Foundation
import NewsstandKit

/// Opens the library the way every command does, and says so once on failure.
enum Context {
    static func library() throws -> Library {
        try Library(paths: Paths())
    }

    /// The library for a command that changes it: refused in one line, before anything is
    /// attempted, when the disk was full as the command started.
    static func writableLibrary(noticingResources: Bool = false) throws -> Library {
        let library = try noticingResources ? libraryNoticingResources() : library()
        try refuseChanges(to: library)
        return library
    }

    /// Throws the one-line disk-full refusal when the library was opened read-only.
    static func refuseChanges(to library: Library) throws {
        if let full = library.store.diskFull { throw full }
    }

    /// The library, after saying once when the bundled themes and samples are nowhere. The
    /// samples themselves come only with the shelf's first interactive start (`ShelfLauncher`).
    static func libraryNoticingResources() throws -> Library {
        ResourceNotice.sayOnce()
        return try library()
    }

    /// On the first interactive start of the shelf, unless config.toml says `samples = false`,
    /// subscribes the bundled publications; a command never does (a first `subscribe URL`
    /// gets that one feed).
    static func subscribeSamplesOnFirstStart(_ library: Library, config: Config) {
        guard config.samples, library.store.diskFull == nil, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return }
        for problem in library.subscriptions.subscribeSamplesOnFirstRun(sampleFeedDirectory: BundledResources.sampleFeed) {
            printProblem("sample feed \(problem)")
        }
    }
}

/// Without its themes and samples the program still works, with one theme and an empty
/// shelf: it says once where it looked, so that is not a silent surprise. Not when
/// NEWSSTAND_RESOURCES is set: whoever set it chose the place (scripts point it at nothing).
enum ResourceNotice {
    nonisolated(unsafe) private static var said = false   // one thread: each command's start

    static func sayOnce() {
        guard !said, getenv("NEWSSTAND_RESOURCES") == nil else { return }
        said = true
        if let missing = BundledResources.missing() { printProblem(missing) }
    }
}
