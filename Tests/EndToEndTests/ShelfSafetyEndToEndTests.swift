import Foundation
import Testing

/// A feed written by someone hostile, and windows from far too small to very large, in a
/// real terminal (tmux): nothing but text reaches it, and the screen always makes sense.
@Suite(.serialized) struct ShelfSafetyEndToEndTests {
    static let esc = "\u{1B}"
    /// Titles with a clipboard write (OSC 52), a window title (OSC 2), a hyperlink (OSC 8),
    /// a screen clear (CSI), BEL, a C1 CSI and a right-to-left override; and wide text.
    static var hostileFeed: String {
        let feed: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1",
            "title": "Evil\(esc)]52;c;cm0gLXJmIH4=\u{07}\(esc)]2;pwned-title\u{07} Daily\u{9B}31m\u{202E}gnp.exe",
            "items": (1...3).map { number in
                [
                    "id": "evil-\(number)",
                    "title": "Issue \(number) \(esc)[2J\(esc)[31mred\(esc)[0m \(esc)]8;;http://example.invalid/\(esc)\\link\(esc)]8;;\(esc)\\ \u{07}\u{07}" + String(repeating: " 灯台守の長い一日", count: 20)
                        + " 東京湾の灯台守と海の物語を語る月刊誌・特別増刊号 👩‍👩‍👧‍👦 Cafe\u{301}",
                    "date_published": "2026-11-0\(number)T07:00:00Z",
                    "summary": "bell\u{07} and \u{9B}2J and \(esc)P1$r\(esc)\\ device control",
                    "attachments": [["url": "evil-\(number).zip", "mime_type": "application/zip"]],
                ] as [String: Any]
            },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: feed)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The shelf, started once `go` exists: the test creates it when pipe-pane records, so
    /// no byte the program writes is missed.
    func command(home: URL, go: URL) -> String {
        "sh -c \"while [ ! -e '\(go.path)' ]; do sleep 0.01; done; exec env NEWSSTAND_HOME='\(home.path)' TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 '\(Tmux.binary.path)'\""
    }

    @Test func hostileTitlesReachTheTerminalAsTextOnly() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let feed = home.appendingPathComponent("evil.json")
        try Self.hostileFeed.write(to: feed, atomically: true, encoding: .utf8)
        // The samples first (as the shelf's first start would add them); then the hostile feed.
        try Sandbox.subscribeSamples(environment: ["NEWSSTAND_HOME=\(home.path)"])
        let subscribed = try Tmux.runWithStatus(["env", "NEWSSTAND_HOME=\(home.path)", Tmux.binary.path, "subscribe", feed.path])
        #expect(subscribed.status == 0, "\(subscribed.output)")

        let tmux = Tmux()
        defer { tmux.stop() }
        let bytes = home.appendingPathComponent("terminal-bytes")
        let go = home.appendingPathComponent("go")
        try tmux.start(command(home: home, go: go))
        try tmux.tmux(["set-option", "-s", "set-clipboard", "on"])
        try tmux.tmux(["pipe-pane", "-o", "-t", tmux.session, "cat > '\(bytes.path)'"])
        try Data().write(to: go)
        let titleBefore = try tmux.tmux(["display-message", "-p", "-t", tmux.session, "#{pane_title}"])

        #expect(tmux.waitFor("6 publications") != nil, "\(tmux.lastScreen)")
        // Select it (the sixth publication, after the five samples) and open its store.
        try tmux.send("End")
        let shelf = tmux.waitFor("Evil")
        #expect(shelf != nil, "the hostile publication is not on the shelf:\n\(tmux.lastScreen)")
        try tmux.send("Enter")
        let store = tmux.waitFor("Issue 3")
        #expect(store != nil, "the store did not open:\n\(tmux.lastScreen)")
        if let store {
            #expect(store.contains("red") && store.contains("link"), "\(store)")   // the words stay
            #expect(store.contains("…"))                     // long wide titles end in an ellipsis
        }
        try tmux.send("?")
        try tmux.waitFor(text: "this help")
        try tmux.send("q")
        try tmux.send("Q")
        #expect(tmux.waitUntilExited(), "the shelf did not quit")
        #expect(Tmux.waitUntil(bytes, contains: Tmux.leftAlternateScreen), "the program's last bytes never reached the file")

        // Nothing the feed said was obeyed: no clipboard buffer, no window title...
        let buffers = try tmux.tmux(["list-buffers"])
        #expect(buffers.isEmpty, "a clipboard write got through: \(buffers)")
        let titleAfter = try tmux.tmux(["display-message", "-p", "-t", tmux.session, "#{pane_title}"])
        #expect(titleAfter == titleBefore && !titleAfter.contains("pwned"))
        // ...and none of it is in the bytes the program wrote.
        let written = [UInt8]((try? Data(contentsOf: bytes)) ?? Data())
        #expect(written.count > 1000, "pipe-pane recorded \(written.count) bytes")
        let text = String(decoding: written, as: UTF8.self)
        for (name, sequence) in [("OSC 52", "\(Self.esc)]52"), ("OSC 2", "\(Self.esc)]2;"), ("OSC 8", "\(Self.esc)]8;"),
                                 ("DCS", "\(Self.esc)P"), ("C1 CSI", "\u{9B}"), ("RLO", "\u{202E}")] {
            #expect(!text.contains(sequence), "\(name) reached the terminal")
        }
        #expect(!written.contains(0x07), "BEL reached the terminal")
        #expect(!written.contains(0x9B), "a raw C1 byte reached the terminal")
    }

    @Test func tooSmallThenHugeThenBackKeepsTheSelection() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start(ShelfEndToEndTests.command(home: home))
        #expect(tmux.waitFor("Rocket Badger") != nil, "\(tmux.lastScreen)")
        try tmux.send("l")
        try tmux.send("l")                                   // Rocket Badger
        try tmux.tmux(["resize-window", "-t", tmux.session, "-x", "20", "-y", "8"])
        let small = tmux.waitFor("Too small")
        #expect(small != nil, "\(tmux.lastScreen)")
        #expect(small?.split(separator: "\n").allSatisfy { $0.count <= 20 } == true)
        try tmux.send("h")                                   // keys still work while too small
        try tmux.send("l")
        try tmux.tmux(["resize-window", "-t", tmux.session, "-x", "300", "-y", "100"])
        // All 100 rows drawn (capture-pane leaves out empty rows at the end; the hint bar is the last).
        // Waited for whole: a capture can land while the terminal has drawn only part of the frame.
        let huge = tmux.waitFor { screen in
            let rows = screen.components(separatedBy: "\n")
            return screen.contains("Rocket Badger") && !screen.contains("Too small") && rows.count > 100 && rows[99].contains("q quit")
        }
        #expect(huge != nil, "\(tmux.lastScreen)")
        #expect(huge?.components(separatedBy: "\n")[99].contains("q quit") == true)
        try tmux.send("Enter")
        #expect(tmux.waitFor("Rocket Badger") != nil)
        #expect(tmux.waitFor("TAP TO DOWNLOAD") != nil, "Enter did not open the selected store:\n\(tmux.lastScreen)")
        let store = try tmux.screen()
        #expect(store.split(separator: "\n").first?.contains("Rocket Badger") == true, "\(store)")
        try tmux.tmux(["resize-window", "-t", tmux.session, "-x", "120", "-y", "40"])
        #expect(tmux.waitFor { $0.split(separator: "\n").first?.contains("Rocket Badger") == true } != nil)
        try tmux.send("Q")
        #expect(tmux.waitUntilExited())
    }
}
