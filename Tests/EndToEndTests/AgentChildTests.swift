import Foundation
import Testing

/// An agent the shelf starts leaves no `<defunct>` child behind when it ends (issue #21,
/// item 1).
@Suite(.serialized) struct AgentChildTests {
    /// The children of `pid` as `(pid, state)`, from /proc.
    static func children(of pid: String) -> [(pid: String, state: String)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard Int(entry) != nil,
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.range(of: ")", options: .backwards) else { return nil }
            let fields = stat[close.upperBound...].split(separator: " ")   // state, ppid, …
            guard fields.count > 1, fields[1] == pid else { return nil }
            return (entry, String(fields[0]))
        }
    }

    @Test func aDownloadFromTheShelfLeavesNoDefunctChild() throws {
        let sandbox = Sandbox()
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("exec " + ShelfEndToEndTests.command(home: sandbox.home))
        #expect(tmux.waitFor("Tidewater") != nil, "\(tmux.lastScreen)")
        try tmux.send("Enter")
        #expect(tmux.waitFor("TAP TO DOWNLOAD") != nil, "\(tmux.lastScreen)")
        try tmux.send("d")                       // download only: the store stays
        #expect(tmux.waitFor("TAP TO READ", timeout: 60) != nil, "download did not finish:\n\(tmux.lastScreen)")
        let shelf = try tmux.tmux(["display-message", "-p", "-t", tmux.session, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)

        // The agent ends once its queue is empty, and is reaped a moment later: wait until
        // the shelf has no child at all. A child left defunct stays, and fails below.
        var children = Self.children(of: shelf)
        _ = Tmux.poll(timeout: 60) {
            children = Self.children(of: shelf)
            return children.isEmpty
        }
        #expect(!children.contains { $0.state != "Z" }, "a child still runs: \(children)")
        #expect(!children.contains { $0.state == "Z" }, "defunct children of the shelf (\(shelf)): \(children)")
        try tmux.send("q")
    }
}
