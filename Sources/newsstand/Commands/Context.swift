import Foundation
import NewsstandKit

/// Opens the library the way every command does, and says so once on failure.
enum Context {
    static func library() throws -> Library {
        try Library(paths: Paths())
    }

    /// The library for a command that changes it: refused in one line, before anything is
    /// attempted, when the disk was full as the command started.
    static func writableLibrary(withSamples: Bool = false) throws -> Library {
        let library = try withSamples ? libraryWithSamples() : library()
        try refuseChanges(to: library)
        return library
    }

    /// Throws the one-line disk-full refusal when the library was opened read-only.
    static func refuseChanges(to library: Library) throws {
        if let full = library.diskFull { throw full }
    }

    /// The library, with the bundled publications subscribed on the very first run.
    static func libraryWithSamples() throws -> Library {
        ResourceNotice.sayOnce()
        let library = try library()
        guard library.diskFull == nil else { return library }
        for problem in library.subscribeSamplesOnFirstRun(sampleFeedDirectory: BundledResources.sampleFeed) {
            printProblem("sample feed \(problem)")
        }
        return library
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
