import Foundation
import Testing

/// The reader in tmux as a person uses it: read forward, quit, start again, and find the
/// same text in front of you; one q leaves.
@Suite(.serialized) struct ReaderEndToEndTests {
    static func command(home: URL, issue: String) -> String {
        "env NEWSSTAND_HOME='\(home.path)' TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 '\(Tmux.binary.path)' read \(issue)"
    }

    /// Header and text rows: everything above the status line, the rows that are not words
    /// left blank: a picture renders in the background, and no text says when it is done,
    /// so the place read is compared by its words (a wait for a quiet screen was a guess).
    static func page(_ screen: String, height: Int) -> [String] {
        screen.components(separatedBy: "\n").prefix(height - 2).map { isText($0) ? $0 : "" }
    }

    /// A row of words (not a picture drawn in symbols).
    static func isText(_ row: String) -> Bool {
        let trimmed = row.trimmingCharacters(in: .whitespaces)
        return trimmed.first?.isLetter == true && trimmed.contains(" ")
    }

    static func progress(_ screen: String) -> String? {
        screen.range(of: #"read \d+%"#, options: .regularExpression).map { String(screen[$0]) }
    }

    @Test func readForwardQuitRestartAndResumeAtTheSamePlace() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-e2e-reader-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let download = try Tmux.runWithStatus(["env", "NEWSSTAND_HOME=\(home.path)", Tmux.binary.path, "download", "tidewater-2026-11", "--wait"])
        try #require(download.status == 0, "download failed: \(download.output)")

        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start(Self.command(home: home, issue: "tidewater-2026-11"), width: 100, height: 30)
        #expect(tmux.waitFor("The lamp at Gull Rock burned") != nil, "the reader did not open:\n\(tmux.lastScreen)")

        // Forward: the next article, two pages on, a narrower column.
        try tmux.send("]")
        #expect(tmux.waitFor("article 2 of 3") != nil, "no second article:\n\(tmux.lastScreen)")
        try tmux.send("Space")
        try tmux.send("NPage")
        try tmux.send("j")
        try tmux.send("-")
        // Every key handled, in order: the words on screen are where reading stands.
        let before = try #require(tmux.waitFor("Text width 70 columns"), "keys not handled:\n\(tmux.lastScreen)")
        let page = Self.page(before, height: 30)
        let topText = try #require(page.dropFirst(2).first(where: Self.isText), "no text on screen:\n\(before)")
        #expect(!page[2].contains("Reading the Tide Tables"), "still on the article's first screen:\n\(before)")
        let progress = try #require(Self.progress(before))

        try tmux.send("Q")
        #expect(tmux.waitUntilExited(), "Q did not quit the reader")

        // Start again: the same screen, the same progress.
        try tmux.start(Self.command(home: home, issue: "tidewater-2026-11"), width: 100, height: 30)
        // (The saved place is read back and laid out: wait for the same words.)
        let after = tmux.waitFor { Self.page($0, height: 30) == page } ?? tmux.lastScreen
        #expect(Self.page(after, height: 30) == page, "resumed elsewhere.\nbefore:\n\(before)\nafter:\n\(after)")
        #expect(Self.progress(after) == progress)

        // In a narrower window the lines differ, but the same text is on top.
        try tmux.send("Q")
        #expect(tmux.waitUntilExited())
        try tmux.start(Self.command(home: home, issue: "tidewater-2026-11"), width: 60, height: 30)
        let narrow = try #require(tmux.waitFor("article 2 of 3"), "\(tmux.lastScreen)")
        let firstWord = try #require(topText.split(separator: " ").first.map(String.init))
        let narrowTop = Self.page(narrow, height: 30).dropFirst(2).first(where: Self.isText) ?? ""
        #expect(narrowTop.contains(firstWord), "'\(firstWord)' not on top at 60 columns:\n\(narrow)")
        // Opened by `read`, one q is back at the shell (issue 21).
        try tmux.send("q")
        #expect(tmux.waitUntilExited(), "one q leaves `newsstand read`:\n\(tmux.lastScreen)")
    }
}
