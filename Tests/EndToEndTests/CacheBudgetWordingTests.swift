import Foundation
import Testing

/// `cache --evict` says what is true when nothing may go, and nonsense budgets are refused
/// or warned about (issue #21, item 6).
@Suite(.serialized) struct CacheBudgetWordingTests {
    let sandbox = Sandbox(["NEWSSTAND_RESOURCES=\(Sandbox.repository.path)"], samples: true)

    @Test func overBudgetWithOnlyProtectedIssuesSaysSoAndWhy() throws {
        let downloaded = try sandbox.run("download", "courier-2026-11-20", "--wait")
        #expect(downloaded.status == 0, "\(downloaded.output)")
        let result = try sandbox.run("cache", "--limit", "1KB", "--evict")
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("within its budget"), "\(result.output)")
        #expect(result.output.contains("over its budget"), "\(result.output)")
        #expect(result.output.contains("newest issue of its publication"), "\(result.output)")
        #expect(result.output.contains("Friday 20 November 2026"), "the protected issue is not named: \(result.output)")
        #expect(result.output.contains("newsstand: warning: "), "a 1 KB budget is not warned about: \(result.output)")
    }

    @Test(arguments: ["0", "0KB", "-5MB"]) func aBudgetOfNothingOrLessIsRefused(_ limit: String) throws {
        let result = try sandbox.run("cache", "--limit", limit)
        #expect(result.status == 64, "\(limit): \(result.output)")
        #expect(result.output.hasPrefix("newsstand: "), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.home.appendingPathComponent("config/config.toml").path),
                "\(limit) was written to config.toml")
    }

    @Test func aSensibleBudgetGetsNoWarning() throws {
        let result = try sandbox.run("cache", "--limit", "1GB")
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("warning"), "\(result.output)")
    }
}
