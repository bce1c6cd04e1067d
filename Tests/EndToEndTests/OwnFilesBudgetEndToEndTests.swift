import Foundation
import Testing

/// Own files installed by `subscribe` or `refresh` (ready at once, issue #30 item 2) are held to the
/// cache budget then, as the agent holds its installs, not only at the agent's next run.
@Suite struct OwnFilesBudgetEndToEndTests {
    @Test func aFolderSubscribedOverTheBudgetIsTrimmedToItAtOnce() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        let folder = sandbox.home.appendingPathComponent("Tide books", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for number in 1...3 {
            try FileManager.default.copyItem(at: OwnFilesEndToEndTests.sampleBook, to: folder.appendingPathComponent("tide-\(number).epub"))
        }
        let config = sandbox.home.appendingPathComponent("config/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "cache_limit = \"1KiB\"\n".write(to: config, atomically: true, encoding: .utf8)

        let added = try sandbox.run("subscribe", folder.path)
        #expect(added.status == 0, "\(added.output)")
        #expect(added.output.contains("Added to Tide books: 3 new issue(s)."), "\(added.output)")
        #expect(added.output.contains("Removed 2 issue(s) to keep the cache within 1 KiB"), "\(added.output)")

        // The newest of a publication is never evicted; the other two went at once.
        let output = try sandbox.run("issues", "--json").output
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]], "\(output)")
        let statuses = listed.filter { ($0["name"] as? String)?.hasPrefix(folder.absoluteString) == true }.compactMap { $0["status"] as? String }
        #expect(statuses.sorted() == ["available", "none", "none"], "\(listed)")
        let cache = try sandbox.run("cache").output
        let line = try #require(cache.split(separator: "\n").first { $0.hasPrefix("Tide books ") }, "\(cache)")
        #expect(line.dropFirst("Tide books".count).split(separator: " ").first == "1", "\(cache)")
    }

    @Test func filesAddedToAFolderAreTrimmedToTheBudgetWhenItIsRefreshed() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        let folder = sandbox.home.appendingPathComponent("Tide books", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: OwnFilesEndToEndTests.sampleBook, to: folder.appendingPathComponent("tide-1.epub"))
        let added = try sandbox.run("subscribe", folder.path)
        #expect(added.status == 0 && !added.output.contains("Removed"), "\(added.output)")

        let config = sandbox.home.appendingPathComponent("config/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "cache_limit = \"1KiB\"\n".write(to: config, atomically: true, encoding: .utf8)
        for number in 2...3 {
            try FileManager.default.copyItem(at: OwnFilesEndToEndTests.sampleBook, to: folder.appendingPathComponent("tide-\(number).epub"))
        }
        let refreshed = try sandbox.run("refresh", "Tide books")
        #expect(refreshed.status == 0, "\(refreshed.output)")
        #expect(refreshed.output.contains("Removed 2 issue(s) to keep the cache within 1 KiB"), "\(refreshed.output)")
        let cache = try sandbox.run("cache").output
        let line = try #require(cache.split(separator: "\n").first { $0.hasPrefix("Tide books ") }, "\(cache)")
        #expect(line.dropFirst("Tide books".count).split(separator: " ").first == "1", "\(cache)")
    }
}
