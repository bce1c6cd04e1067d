import Foundation
import Testing

/// `newsstand cache` as a person runs it: use per publication, a new budget written to
/// config.toml, eviction least recently read first, and JSON for scripts.
@Suite(.serialized) struct CacheCommandTests {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test func cacheShowsUseSetsTheLimitAndEvictsOldestReadFirst() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["env", "NEWSSTAND_HOME=\(home.path)", "NEWSSTAND_RESOURCES=\(Self.repository.path)"]
        func run(_ arguments: String...) throws -> (output: String, status: Int32) {
            try Tmux.runWithStatus(env + [Tmux.binary.path] + arguments)
        }
        try Sandbox.subscribeSamples(environment: Array(env.dropFirst()))
        for day in [18, 19, 20] {
            let downloaded = try run("download", "courier-2026-11-\(day)", "--wait")
            #expect(downloaded.status == 0, "\(downloaded.output)")
        }
        var result = try run("cache")
        #expect(result.status == 0)
        #expect(result.output.contains("The Ferrybridge Courier       3  "), "\(result.output)")
        #expect(result.output.contains("of 2 GiB"))
        #expect(result.output.contains("disk: "))

        result = try run("cache", "--limit", "1KiB", "--evict")
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.components(separatedBy: "\n")
        #expect(lines.first?.hasPrefix("Removed 2 issues to save space") == true, "\(result.output)")
        #expect(lines.count > 2 && lines[1].contains("Wednesday 18 November 2026") && lines[2].contains("Thursday 19 November 2026"))
        #expect(result.output.contains("of 1 KiB"))
        let config = try String(contentsOf: home.appendingPathComponent("config/config.toml"), encoding: .utf8)
        #expect(config.contains("cache_limit = \"1KiB\""))

        result = try run("cache", "--json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(json["limit"] as? Int == 1024)
        let publications = try #require(json["publications"] as? [[String: Any]])
        #expect(publications.count == 1 && publications.first?["issues"] as? Int == 1)

        let issues = try run("issues").output
        for day in [18, 19] {
            let line = issues.components(separatedBy: "\n").first { $0.contains("courier-2026-11-\(day)") } ?? ""
            #expect(line.contains("\tnot downloaded"), "\(line)")   // not downloaded; its NEW state stays
        }

        result = try run("cache", "--limit", "lots")
        #expect(result.status != 0)
        #expect(result.output.contains("'lots' is not a size"))
    }
}
