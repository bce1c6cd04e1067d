import Foundation
import Testing
@testable import Terminal

/// The tmux pane watch asks tmux itself (spawned by its path, no `env`, no shell): a
/// private tmux server on a socket of the test's own, which the watch's environment names.
@Suite struct TmuxPaneWatchTests {
    @Test func tmuxIsFoundOnThePathOnce() throws {
        let found = try #require(TmuxPaneWatch.executable(named: "tmux", searching: "/nonexistent:" + TmuxPaneWatch.defaultPath))
        #expect(found.hasSuffix("/tmux") && FileManager.default.isExecutableFile(atPath: found))
        #expect(TmuxPaneWatch.executable(named: "tmux", searching: "/nonexistent") == nil)
        #expect(TmuxPaneWatch(environment: ["TMUX": "/tmp/x,1,0", "TMUX_PANE": "%0", "PATH": "/nonexistent"]) == nil)
    }

    @Test func theWatchAsksItsServerWhetherThePaneIsShown() throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-watch-\(UUID().uuidString.prefix(8))").path
        let watch = try #require(TmuxPaneWatch(environment: ["TMUX": "\(socket),0,0", "TMUX_PANE": "%0", "PATH": TmuxPaneWatch.defaultPath]))
        // Started through the watch's own spawning: the server keeps none of its descriptors,
        // so reading its output ends.
        _ = watch.run(["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24"])
        defer {
            _ = watch.run(["kill-server"])
            try? FileManager.default.removeItem(atPath: socket)
        }
        #expect(watch.run(["display", "-p", "#{pane_id}"]) == "%0\n")
        // Its window current and its pane active, but no client attached: not shown.
        #expect(watch.ask() == "1 0 0 1\n")
        #expect(TmuxPaneWatch.isShown(displayOutput: watch.ask()) == false)
        // Another window made current: ours is not.
        _ = watch.run(["new-window"])
        #expect(watch.ask() == "0 0 0 1\n")
        #expect(watch.run(["list-clients", "-F", "#{client_tty}"]).isEmpty)
    }
}
