import Foundation
import Testing

/// `[keys]` in config.toml, through the real program: a bad table stops it before the
/// terminal is touched; a good one changes what keys do.
@Suite(.serialized) struct KeyBindingEndToEndTests {
    func home(config: String) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-e2e-\(UUID().uuidString)")
        let directory = home.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try config.write(to: directory.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        return home
    }

    @Test func aBadKeysTableIsRefusedWithFileLineAndReason() throws {
        let home = try home(config: "[keys]\ndown = \"j\"\nup = \"j\"\n")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try Tmux.runWithStatus(["env", "NEWSSTAND_HOME=\(home.path)", "TERM=xterm-256color", Tmux.binary.path])
        #expect(result.status != 0)
        #expect(result.output.contains("config/config.toml: line 3: keys.up: \"j\" is already down's key on the shelf"), "\(result.output)")
        #expect(!result.output.contains("\u{1B}["), "the terminal was set up before the check")
    }

    @Test func reboundKeysWorkInTheShelf() throws {
        let home = try home(config: "[keys]\nmoveRight = [\"s\", \"Right\"]\nquit = \"Ctrl-Q\"\n")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start(ShelfEndToEndTests.command(home: home))
        #expect(tmux.waitFor("Rocket Badger") != nil, "\(tmux.lastScreen)")
        try tmux.send("s")
        try tmux.send("Enter")
        #expect(tmux.waitFor { $0.split(separator: "\n").first?.contains("Ferrybridge") == true } != nil, "s did not move right:\n\(tmux.lastScreen)")
        try tmux.send("Q")                                   // no longer quits:
        try tmux.send("?")                                   // the key after it is still read
        try tmux.waitFor(text: "this help")
        #expect(!tmux.paneIsDead)
        try tmux.send("Escape")                              // any key closes the help
        try tmux.waitFor(showing: "the shelf again") { !$0.contains("this help") }
        try tmux.send("C-q")
        #expect(tmux.waitUntilExited(), "Ctrl-Q did not quit")
    }
}
