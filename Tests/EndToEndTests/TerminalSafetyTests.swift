import Foundation
import Testing

/// Titles, summaries, article text and archive names carrying ESC, CSI, OSC 52, OSC 8,
/// BEL, C1 controls (U+009B, U+0085) and bidi overrides/isolates (fixtures written by
/// `benchmarks/reliability/hostile.py`) never reach the terminal as controls: neither in
/// what the commands print nor in the bytes the shelf writes to its terminal.
@Suite(.serialized) struct TerminalSafetyTests {
    static let hostileScript = CrashRecoveryTests.repository.appendingPathComponent("benchmarks/reliability/hostile.py")

    /// The scalars that must never be printed: C0 controls but newline and tab, DEL, C1,
    /// line/paragraph separators and bidi embeddings, overrides and isolates.
    static func controls(in text: String) -> [String] {
        text.unicodeScalars.compactMap { scalar -> String? in
            let v = scalar.value
            let bad = (v < 0x20 && v != 0x0A && v != 0x09) || (0x7F...0x9F).contains(v)
                || (0x2028...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            return bad ? String(format: "U+%04X", v) : nil
        }
    }

    static func fixtures() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-hostile-\(UUID().uuidString)")
        let made = try Tmux.runWithStatus(["python3", hostileScript.path, root.path])
        guard made.status == 0 else { throw TmuxError(message: "hostile.py failed: \(made.output)") }
        return root
    }

    @Test func commandsPrintNoControlsFromHostileFeedsAndArchives() throws {
        let root = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: root) }
        let env = ["env", "NEWSSTAND_HOME=\(root.appendingPathComponent("home").path)", "NEWSSTAND_RESOURCES=/nonexistent"]
        let evilArchive = try #require(try FileManager.default.contentsOfDirectory(atPath: root.path).first { $0.hasPrefix("evil") })
        var commands: [[String]] = [
            ["subscribe", root.appendingPathComponent("feed.atom").path],
            ["subscribe", root.appendingPathComponent("feed.json").path],
            ["refresh"], ["issues"], ["issues", "--json"],
            ["inspect", "feed", root.appendingPathComponent("feed.atom").path],
            ["inspect", "feed", "--json", root.appendingPathComponent("feed.atom").path],
            ["inspect", "feed", root.appendingPathComponent("feed.json").path],
            ["download", "--wait", "hostile-0"], ["download", "--wait", "hostile-1"], ["download", "--wait", "hostile-json"],
            ["read", "--plain", "hostile-0"], ["read", "--plain", "hostile-json"],
            ["download", "missing\u{1B}]52;c;eA==\u{07}"], ["read", "--plain", "\u{1B}[2Jnope\u{9B}"],
        ]
        for archive in ["issue.epub", "names.zip", evilArchive] {
            let path = root.appendingPathComponent(archive).path
            commands += [["inspect", "archive", path], ["inspect", "archive", "--text", path], ["inspect", "archive", "--json", path]]
        }
        var sawHostileText = 0
        for arguments in commands {
            let run = try Tmux.runWithStatus(env + [Tmux.binary.path] + arguments)
            let found = Self.controls(in: run.output)
            #expect(found.isEmpty, "newsstand \(arguments.joined(separator: " ").debugDescription) printed \(found):\n\(run.output.debugDescription)")
            if run.output.contains("Evil") || run.output.contains("control character") { sawHostileText += 1 }
        }
        // The hostile strings were really shown (cleaned), not just absent.
        #expect(sawHostileText >= 12, "only \(sawHostileText) outputs showed the hostile text")
    }

    @Test func theShelfStoreAndReaderWriteNoHostileSequencesToTheTerminal() throws {
        let root = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home")
        let env = ["env", "NEWSSTAND_HOME=\(home.path)", "NEWSSTAND_RESOURCES=/nonexistent"]
        #expect(try Tmux.runWithStatus(env + [Tmux.binary.path, "subscribe", root.appendingPathComponent("feed.json").path]).status == 0)
        #expect(try Tmux.runWithStatus(env + [Tmux.binary.path, "subscribe", root.appendingPathComponent("feed.atom").path]).status == 0)

        let tmux = Tmux()
        defer { tmux.stop() }
        let raw = root.appendingPathComponent("terminal.bin")
        try tmux.start(ShelfEndToEndTests.command(home: home, extra: "NEWSSTAND_RESOURCES=/nonexistent"))
        // Every byte the program writes to its terminal, as the terminal receives it.
        try tmux.tmux(["pipe-pane", "-o", "-t", tmux.session, "cat >> '\(raw.path)'"])
        #expect(tmux.waitFor("NEWSSTAND") != nil, "\(tmux.lastScreen)")
        try tmux.send("/"); try tmux.send("-l", "Evil"); try tmux.send("Enter")
        #expect(tmux.waitFor("Showing titles") != nil, "\(tmux.lastScreen)")
        try tmux.send("Enter")
        let store = tmux.waitFor("TAP TO DOWNLOAD")
        // The title's words stay; its OSC sequence goes whole, payload and all.
        #expect(store?.contains("Evil Link") == true && store?.contains("PWNED") == false, "the store did not show the hostile title cleaned:\n\(tmux.lastScreen)")
        try tmux.send("Enter")                   // downloads, then opens it
        let reader = tmux.waitFor("Before Evil", timeout: 30)
        #expect(reader?.contains("after.") == true, "the reader did not show the hostile article:\n\(tmux.lastScreen)")
        try tmux.send("Q")
        #expect(tmux.waitUntilExited())
        try tmux.tmux(["pipe-pane", "-t", tmux.session])
        #expect(Tmux.waitUntil(raw, contains: Tmux.leftAlternateScreen), "the program's last bytes never reached the file")

        let bytes = [UInt8](try Data(contentsOf: raw))
        #expect(bytes.count > 2_000, "captured only \(bytes.count) bytes")
        // ncurses writes its own CSI sequences; these are the hostile ones it never writes.
        let forbidden: [(String, [UInt8])] = [
            ("OSC 52", [0x1B, 0x5D, 0x35, 0x32]), ("OSC 8", [0x1B, 0x5D, 0x38, 0x3B]), ("OSC 0", [0x1B, 0x5D, 0x30, 0x3B]),
            ("CSI 21 t", Array("\u{1B}[21t".utf8)), ("BEL", [0x07]), ("C1 CSI U+009B", [0xC2, 0x9B]), ("NEL U+0085", [0xC2, 0x85]),
            ("RLO U+202E", [0xE2, 0x80, 0xAE]), ("LRI U+2066", [0xE2, 0x81, 0xA6]), ("PDI U+2069", [0xE2, 0x81, 0xA9]),
        ]
        for (name, sequence) in forbidden {
            let hits = (0...(bytes.count - sequence.count)).filter { bytes[$0..<($0 + sequence.count)].elementsEqual(sequence) }
            #expect(hits.isEmpty, "\(name) reached the terminal \(hits.count) time(s), first at byte \(hits.first ?? -1)")
        }
        #expect(String(decoding: bytes, as: UTF8.self).contains("Evil Link"), "the hostile title was not drawn at all")
    }
}

/// `benchmarks/reliability/bad-servers.py --quick`: subscribe to every fast misbehaving
/// server (endless bodies, huge headers, redirect loops, wrong content types) and download
/// issues whose links misbehave; each ends in seconds with one line and leaves nothing.
@Suite(.serialized) struct MisbehavingServerEndToEndTests {
    @Test func everyMisbehavingServerIsBoundedReportedAndHarmless() throws {
        let script = CrashRecoveryTests.repository.appendingPathComponent("benchmarks/reliability/bad-servers.py")
        let run = try Tmux.runWithStatus(["python3", script.path, "--quick", "--binary", Tmux.binary.path])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("all cases bounded, reported in one line, harmless"), "\(run.output)")
        #expect(run.output.components(separatedBy: "\n").filter { $0.hasPrefix("subscribe ") }.count == 12, "\(run.output)")
        #expect(run.output.components(separatedBy: "\n").filter { $0.hasPrefix("download bad-") }.count == 7, "\(run.output)")
    }
}
