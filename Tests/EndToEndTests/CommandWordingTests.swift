import Foundation
import Testing

/// Mistakes a new user makes get words that say what is wrong (issue #21, item 7), all
/// with the one prefix `newsstand: `.
@Suite struct CommandWordingTests {
    /// No samples subscribed: each test sees only what it did.
    let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])

    @Test func aFeedURLOfAnotherSchemeIsRefusedForItsScheme() throws {
        for arguments in [["subscribe", "ftp://example.com/x.xml"], ["inspect", "feed", "ftp://example.com/x.xml"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 1, "\(result.output)")
            #expect(result.output.hasPrefix("newsstand: "), "\(result.output)")
            #expect(result.output.contains("ftp:// is not supported"), "\(result.output)")
            #expect(!result.output.contains("ftp:/example.com"), "read as a local file: \(result.output)")
        }
    }

    @Test func anUnknownCommandIsNamedAndTheCommandsListed() throws {
        let result = try sandbox.run("bogus")
        #expect(result.status == 64, "\(result.output)")
        let first = result.output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("newsstand: 'bogus' is not a command"), "\(result.output)")
        for command in ["shelf", "subscribe", "issues", "download", "read", "remove", "cache"] {
            #expect(first.contains(command), "\(command) not listed: \(first)")
        }
        #expect(!result.output.contains("Unexpected argument"), "\(result.output)")
    }

    @Test func subscribingTwiceSaysItIsAlreadySubscribed() throws {
        let feeds = sandbox.home.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        let feed = try IssueFeedFixture(in: feeds, id: "twice-1", title: "Twice", payloadBytes: 1024).feed.path
        let first = try sandbox.run("subscribe", feed)
        #expect(first.status == 0 && first.output.contains("Subscribed to Twice Weekly"), "\(first.output)")
        let second = try sandbox.run("subscribe", feed)
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("Already subscribed to Twice Weekly"), "\(second.output)")
        #expect(!second.output.contains("Subscribed to"), "\(second.output)")
    }

    @Test(arguments: ["-3", "0", "17"]) func concurrentOutOfRangeIsRefusedWithTheRange(_ value: String) throws {
        let result = try sandbox.run("agent", "--concurrent", value)
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.hasPrefix("newsstand: "), "\(result.output)")
        #expect(result.output.contains("from 1 to 16"), "\(result.output)")
        #expect(!result.output.contains("Missing value"), "\(result.output)")
    }

    /// Every failure starts with the same prefix, whatever command found it.
    @Test(arguments: [["download", "no-such-issue"], ["read", "no-such-issue"], ["refresh", "nothing-here"],
                      ["unsubscribe", "nothing-here"], ["push", "nothing-here"], ["cache", "--limit", "lots"],
                      ["inspect", "archive", "/nonexistent.cbz"], ["subscribe", "/nonexistent.xml"], ["remove", "x"]])
    func everyFailureHasTheOnePrefix(_ arguments: [String]) throws {
        let result = try sandbox.run(arguments)
        #expect(result.status != 0, "\(arguments): \(result.output)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("newsstand: ") == true, "\(arguments): \(result.output)")
        #expect(!result.output.contains("Error:"), "\(arguments): \(result.output)")
    }
}
