import Foundation
import Testing

/// The reader in tmux as a person uses it: read forward, quit, start again, and find the
/// same text in front of you; one q leaves.
@Suite(.serialized) struct ReaderEndToEndTests {
    static func command(home: URL, issue: String) -> String {
        "env NEWSSTAND_HOME='\(home.path)' TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 '\(Tmux.binary.path)' read \(issue)"
    }

    /// Header and text rows: everything above the status line, the rows that are not words
    /// left blank, so a picture compares the same whatever symbols draw it.
    static func page(_ screen: String, height: Int) -> [String] {
        screen.components(separatedBy: "\n").prefix(height - 2).map { isText($0) ? $0 : "" }
    }

    /// Whether a picture is drawn on the page: a row below the header of symbols only (half
    /// blocks or ASCII shades), no letter or digit.
    static func showsAPicture(_ screen: String, height: Int) -> Bool {
        screen.components(separatedBy: "\n").prefix(height - 2).dropFirst().contains { row in
            let marks = row.filter { !$0.isWhitespace }
            return !marks.isEmpty && !marks.contains { $0.isLetter || $0.isNumber }
        }
    }

    /// The screen once its picture is drawn and it has then stayed the same for `quiet`
    /// seconds. No text says when a picture is done, and the text below one moves by a row
    /// when it is, after a frame or two in between: the quiet alone was a guess a slow
    /// picture could beat, so it is counted only from the picture's first appearance.
    static func settled(_ tmux: Tmux, height: Int, quiet: TimeInterval = 0.6) -> String? {
        guard let first = tmux.waitFor({ showsAPicture($0, height: height) }) else { return nil }
        return tmux.settled(from: first, quiet: quiet)
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
        try Sandbox.subscribeSamples(environment: ["NEWSSTAND_HOME=\(home.path)"])
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
        try #require(tmux.waitFor("Text width 70 columns") != nil, "keys not handled:\n\(tmux.lastScreen)")
        let before = try #require(Self.settled(tmux, height: 30), "no figure drawn:\n\(tmux.lastScreen)")
        let page = Self.page(before, height: 30)
        let topText = try #require(page.dropFirst(2).first(where: Self.isText), "no text on screen:\n\(before)")
        #expect(!page[2].contains("Reading the Tide Tables"), "still on the article's first screen:\n\(before)")
        let progress = try #require(Self.progress(before))

        try tmux.send("Q")
        #expect(tmux.waitUntilExited(), "Q did not quit the reader")

        // Start again: the same screen, the same progress.
        try tmux.start(Self.command(home: home, issue: "tidewater-2026-11"), width: 100, height: 30)
        // (The saved place is read back and laid out, its figure drawn: wait for the same words.)
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
