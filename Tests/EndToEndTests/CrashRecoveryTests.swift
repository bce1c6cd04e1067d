import Foundation
import Testing

/// The short version of `benchmarks/reliability/crash-kills.py` (50 kills there): the
/// agent SIGKILLed 8 times at random moments across download, verify and install of
/// issues served over 127.0.0.1; after every kill the library must be consistent, and
/// every finished issue byte-identical to its source archive.
@Suite(.serialized) struct CrashRecoveryTests {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test func eightKillsLeaveAConsistentLibraryAndIdenticalIssues() throws {
        let summaryFile = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-kills-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: summaryFile) }
        let script = CrashRecoveryTests.repository.appendingPathComponent("benchmarks/reliability/crash-kills.py")
        let run = try Tmux.runWithStatus(["python3", script.path, "--kills", "8", "--issues", "2", "--size-mb", "1",
                                          "--binary", Tmux.binary.path, "--summary", summaryFile.path])
        #expect(run.status == 0, "\(run.output)")
        let data = try Data(contentsOf: summaryFile)
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(run.output)")
        #expect(summary["kills"] as? Int == 8, "\(run.output)")
        #expect((summary["problems"] as? [String])?.isEmpty == true, "\(run.output)")
        let available = try #require(summary["available"] as? Int)
        let issues = try #require(summary["issues"] as? Int)
        // The final agent runs to the end: everything queued is installed, byte for byte.
        #expect(available == issues && issues >= 2, "\(run.output)")
        #expect(summary["identical"] as? Int == available, "\(run.output)")
    }
}

/// The short version of `benchmarks/reliability/concurrency.py` (minutes there): for 20 s,
/// processes subscribe, refresh a growing feed, queue downloads, remove issues and list
/// the library while `agent --watch` installs and the shelf, in tmux, pins, unpins and
/// opens issues; no update may be lost and no output or screen may mention a locked or
/// busy database.
@Suite(.serialized) struct ConcurrencyTests {
    @Test func commandsAndTheAgentChangingOneLibraryForTwentySecondsLoseNothing() throws {
        let summaryFile = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-concurrency-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: summaryFile) }
        let script = CrashRecoveryTests.repository.appendingPathComponent("benchmarks/reliability/concurrency.py")
        let run = try Tmux.runWithStatus(["python3", script.path, "--seconds", "20", "--readers", "1",
                                          "--binary", Tmux.binary.path, "--summary", summaryFile.path])
        #expect(run.status == 0, "\(run.output)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: summaryFile)) as? [String: Any], "\(run.output)")
        #expect((summary["failures"] as? [String])?.isEmpty == true, "\(run.output)")
        let commands = try #require(summary["commands"] as? [String: Int])
        for role in ["subscriber", "refresher", "downloader", "remover", "reader", "shelf pin", "shelf read"] {
            #expect((commands[role] ?? 0) >= 3, "\(role) ran too few commands: \(run.output)")
        }
        let shelf = try #require(summary["shelf"] as? [String: Any], "\(run.output)")
        #expect(shelf["issues opened"] as? [String] == ["desk-0", "desk-1"], "\(run.output)")
        #expect(summary["installed"] as? Int == summary["queued"] as? Int, "\(run.output)")
        #expect((summary["appended"] as? Int ?? 0) >= 3, "\(run.output)")
    }
}
