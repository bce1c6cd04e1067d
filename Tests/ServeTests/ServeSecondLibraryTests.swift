import Foundation
import NewsstandKit
import Testing

/// Another library (its own NEWSSTAND_HOME) reads this one through the project's own OPDS
/// client, the real `newsstand` binary: browse, search, subscribe and download.
@Suite struct ServeSecondLibraryTests {
    /// Runs `newsstand ARGUMENTS` on the library at `home`; what it printed, and its status.
    static func newsstand(_ arguments: [String], home: URL) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = ServedShelf.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NEWSSTAND_HOME"] = home.path
        environment["NEWSSTAND_KEYRING"] = "off"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    @Test func anotherLibraryBrowsesSearchesAndDownloadsTheShelf() async throws {
        try await ServedShelf.with { shelf in
            let publication = try shelf.publication("Rocket Badger")
            let comic = try shelf.installed(ServedShelf.cbz, in: publication, title: "The Ringed Parcel")
            try shelf.installed(ServedShelf.epub, in: try shelf.publication("Tidewater"), title: "November")
            _ = try shelf.library.search.indexer(texts: nil).catchUp()
            let other = shelf.home.appendingPathComponent("other-library")
            let root = "http://127.0.0.1:\(shelf.port)"

            let browsed = try Self.newsstand(["browse", "\(root)/opds"], home: other)
            #expect(browsed.status == 0 && browsed.output.contains("Reading now") && browsed.output.contains("/opds/newest"), "\(browsed.output)")
            let found = try Self.newsstand(["browse", "\(root)/opds2", "--search", "Parcel"], home: other)
            #expect(found.status == 0 && found.output.contains("The Ringed Parcel") && !found.output.contains("November"), "\(found.output)")

            let subscribed = try Self.newsstand(["subscribe", "\(root)/opds/newest"], home: other)
            #expect(subscribed.status == 0, "\(subscribed.output)")
            let download = try Self.newsstand(["download", "urn:newsstand:issue:\(comic.id!)", "--wait"], home: other)
            #expect(download.status == 0 && download.output.contains("downloaded"), "\(download.output)")
            let issues = try Self.newsstand(["issues"], home: other)
            #expect(issues.output.split(separator: "\n").contains { $0.contains("The Ringed Parcel") && $0.contains("ready") }, "\(issues.output)")
            #expect(shelf.lines.all.contains { $0.hasPrefix("GET /issues/\(comic.id!).cbz 200 ") }, "\(shelf.lines.all)")
        }
    }
}
