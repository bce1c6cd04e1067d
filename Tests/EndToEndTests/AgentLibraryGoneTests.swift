import Foundation
import Testing

/// A library removed while its agent downloads (the user deleted the folder, a test's
/// sandbox went away): the agent stops, rather than copying into a folder that is gone for
/// the minutes the download has left.
@Suite struct AgentLibraryGoneTests {
    @Test func theAgentStopsWhenItsLibraryIsRemoved() throws {
        // 6 MiB at 4 KiB every 250 ms: about six and a half minutes of downloading.
        let sandbox = try Sandbox.downloadingSlowly("long-issue", title: "The Long Issue")
        let cache = sandbox.home.appendingPathComponent("cache")
        #expect(Tmux.poll(timeout: 30) { !CancelCommandTests.partFiles(in: cache).isEmpty }, "the download never got under way")
        let lock = sandbox.home.appendingPathComponent("state/agent.lock")
        let agent = try #require(pid_t((try String(contentsOf: lock, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(Self.isRunning(agent))

        try FileManager.default.removeItem(at: sandbox.home)
        let stopped = Tmux.poll(timeout: 20) { !Self.isRunning(agent) }
        if !stopped { kill(agent, SIGKILL) }
        #expect(stopped, "the agent (pid \(agent)) still runs 20 s after its library was removed")
    }

    /// Alive and not a zombie waiting to be reaped.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }
}
