import Foundation
import NewsstandKit

/// Opens the library the way every command does, and says so once on failure.
enum Context {
    static func library() throws -> Library {
        try Library(paths: Paths())
    }

    /// The library, with the bundled publications subscribed on the very first run.
    static func libraryWithSamples() throws -> Library {
        let library = try library()
        for problem in library.subscribeSamplesOnFirstRun(sampleFeedDirectory: BundledResources.sampleFeed) {
            FileHandle.standardError.write(Data("newsstand: sample feed \(problem)\n".utf8))
        }
        return library
    }
}

/// A clear one-line failure (ArgumentParser prints "Error: " and the description).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
