import Foundation
import Testing

/// The walking skeleton, driven in tmux at 120×40 exactly as a new user would try it.
@Suite(.serialized) struct ShelfEndToEndTests {
    /// A sentence from the first article of Tidewater No. 31 (sample-feed sources).
    static let knownSentence = "The lamp at Gull Rock burned"

    static func command(home: URL, extra: String = "") -> String {
        // A slow file copy makes the progress bar visible; TERM as most terminals set it.
        "env NEWSSTAND_HOME='\(home.path)' NEWSSTAND_FILE_THROTTLE_MS=40 TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 \(extra) '\(Tmux.binary.path)'"
    }

    @Test func firstRunDownloadReadAndRestart() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = Tmux()
        defer { tmux.stop() }

        // First run: the sample publications are subscribed with no setup.
        try tmux.start(Self.command(home: home))
        let shelf = tmux.waitFor {
            $0.contains("Tidewater") && $0.contains("Ferrybridge") && $0.contains("Rocket Badger") && $0.contains("The Lantern")
                && $0.contains("Wendle Valley Wire") && $0.contains("5 publications")
        }
        #expect(shelf != nil, "shelf did not list the sample publications:\n\(tmux.lastScreen)")

        // Enter opens the first publication's store: issues newest first.
        try tmux.send("Enter")
        let store = tmux.waitFor("TAP TO DOWNLOAD")
        #expect(store != nil, "store did not show issues:\n\(tmux.lastScreen)")
        if let store {
            let lines = store.components(separatedBy: "\n")
            let newest = lines.firstIndex { $0.contains("No. 31") }
            let older = lines.firstIndex { $0.contains("No. 30") }
            #expect(newest != nil && older != nil && newest! < older!, "issues not newest first:\n\(store)")
        }

        // Tap: a progress bar with a percentage, then, the issue still chosen, the reader
        // opens on the article ("downloads an issue … and opens it to read").
        try tmux.send("Enter")
        let progress = tmux.waitFor(timeout: 60) { $0.range(of: #"\d+%"#, options: .regularExpression) != nil && ($0.contains("█") || $0.contains("░")) }
        #expect(progress != nil, "no progress bar appeared:\n\(tmux.lastScreen)")
        #expect(tmux.waitFor(Self.knownSentence, timeout: 60) != nil, "reader did not show the article:\n\(tmux.lastScreen)")

        // q back to the store, q to the shelf, q quits.
        try tmux.send("q")
        try tmux.waitFor(text: "TAP TO READ")                // the store
        try tmux.send("q")
        try tmux.waitFor(text: "publications")               // the shelf's header
        try tmux.send("q")
        #expect(tmux.waitUntilExited(), "q on the shelf did not quit")

        // Restart: still downloaded, NEW cleared because it was opened.
        try tmux.start(Self.command(home: home))
        #expect(tmux.waitFor("Tidewater") != nil)
        try tmux.send("Enter")
        let again = tmux.waitFor("TAP TO READ")
        #expect(again != nil, "downloaded issue not shown after restart:\n\(tmux.lastScreen)")
        if let again {
            let tile = again.components(separatedBy: "\n").first { $0.contains("TAP TO READ") } ?? ""
            #expect(!tile.contains("NEW"), "NEW not cleared after reading:\n\(again)")
        }
        try tmux.send("Q")
        #expect(tmux.waitUntilExited())
    }

    /// Help at 80×24 is longer than the window: j, G and the like scroll it down to the
    /// prompts' keys, another key leaves it be, and q closes it.
    @Test func helpScrollsAt80By24AndOnlyBackClosesIt() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start(Self.command(home: home), width: 80, height: 24)
        _ = try tmux.waitFor(text: "5 publications")
        try tmux.send("?")
        var screen = try tmux.waitFor(text: "Shelf and store")
        #expect(screen.contains(" 1–20 of ") && !screen.contains("Prompts"), "\(screen)")
        try tmux.send("j")
        _ = try tmux.waitFor(text: " 2–21 of ")
        try tmux.send("x")
        try tmux.send("G")
        screen = try tmux.waitFor(text: "Prompts (filter")
        #expect(screen.contains("Keys") && screen.contains("Esc"), "\(screen)")
        try tmux.send("q")
        _ = try tmux.waitFor(text: "5 publications")
        try tmux.send("q")
        #expect(tmux.waitUntilExited(), "q on the shelf did not quit")
    }

    @Test func anUnknownTerminalGivesOneClearLine() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = Tmux()
        defer { tmux.stop() }
        // stdin and stdout stay the tmux terminal (so the TERM check is reached); stderr
        // goes to a file so the test reads exactly what the program said.
        let errors = home.appendingPathComponent("stderr.txt")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try tmux.start("env NEWSSTAND_HOME='\(home.path)' TERM=no-such-terminal-xyz '\(Tmux.binary.path)' 2>'\(errors.path)'; echo \"exit status $?\"; sleep 2")
        let screen = tmux.waitFor("exit status")
        #expect(screen != nil, "program did not exit:\n\(tmux.lastScreen)")
        #expect(screen?.contains("exit status 0") == false)
        let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(text.split(separator: "\n").count == 1, "expected one line, got:\n\(text)")
        #expect(text.contains("unknown terminal type 'no-such-terminal-xyz'"))
    }
}
