import Foundation
import Testing

/// `refresh`, `subscribe --auto-download` and `push` as a user runs them.
@Suite(.serialized) struct PushCommandTests {
    private func atom(_ title: String, _ entries: [(String, String?)]) -> String {
        let items = entries.enumerated().map { index, entry in
            "<entry><id>\(entry.0)</id><title>\(entry.0)</title><updated>2026-10-\(String(format: "%02d", index + 1))T00:00:00Z</updated>"
                + (entry.1.map { "<link rel=\"enclosure\" type=\"application/zip\" href=\"\($0)\"/>" } ?? "") + "</entry>"
        }.joined()
        return "<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>\(title)</title><id>urn:\(title)</id><updated>2026-11-01T00:00:00Z</updated>\(items)</feed>"
    }

    @Test func refreshExitsOneWithALinePerFailedFeed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-refresh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let env = ["env", "NEWSSTAND_HOME=\(root.appendingPathComponent("home").path)", "NEWSSTAND_RESOURCES=/nonexistent"]
        for name in ["good", "gone", "broken"] {
            try atom(name.capitalized + " Gazette", [("\(name)-1", nil)]).write(to: root.appendingPathComponent("\(name).xml"), atomically: true, encoding: .utf8)
            let subscribed = try Tmux.runWithStatus(env + [Tmux.binary.path, "subscribe", root.appendingPathComponent("\(name).xml").path])
            #expect(subscribed.status == 0, "\(subscribed.output)")
        }
        let clean = try Tmux.runWithStatus(env + [Tmux.binary.path, "refresh"])
        #expect(clean.status == 0, "\(clean.output)")

        try FileManager.default.removeItem(at: root.appendingPathComponent("gone.xml"))
        try "this is not a feed".write(to: root.appendingPathComponent("broken.xml"), atomically: true, encoding: .utf8)
        let failed = try Tmux.runWithStatus(env + [Tmux.binary.path, "refresh"])
        #expect(failed.status == 1)
        let failures = failed.output.split(separator: "\n").filter { $0.hasPrefix("newsstand: ") }
        #expect(failures.count == 2, "\(failed.output)")
        #expect(failures.contains { $0.hasPrefix("newsstand: Gone Gazette: ") })
        #expect(failures.contains { $0.hasPrefix("newsstand: Broken Gazette: ") })
        #expect(failed.output.contains("Good Gazette: 0 new issue(s)"))
    }

    @Test func pushByHandDownloadsThenThrottlesAndAlerts() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-push-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for name in ["one", "two"] {
            _ = try Tmux.run(["python3", "-c", """
                import zipfile, sys
                with zipfile.ZipFile(sys.argv[1], "w") as z:
                    z.writestr("index.html", "<h1>Issue</h1><p>Text.</p>")
                """, root.appendingPathComponent("\(name).zip").path])
        }
        let feed = root.appendingPathComponent("feed.xml")
        try atom("Harbour Post", [("hp-1", "one.zip"), ("hp-2", "two.zip")]).write(to: feed, atomically: true, encoding: .utf8)
        // A notify-send of our own records what it was given.
        let bin = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let record = root.appendingPathComponent("notified.txt")
        try "#!/bin/sh\nprintf '%s|' \"$@\" > '\(record.path)'\n".write(to: bin.appendingPathComponent("notify-send"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("notify-send").path)
        let env = ["env", "NEWSSTAND_HOME=\(root.appendingPathComponent("home").path)", "NEWSSTAND_RESOURCES=/nonexistent",
                   "PATH=\(bin.path):/usr/bin:/bin"]
        let newsstand = env + [Tmux.binary.path]

        let subscribed = try Tmux.runWithStatus(newsstand + ["subscribe", "--auto-download", feed.path])
        #expect(subscribed.status == 0, "\(subscribed.output)")
        let first = try Tmux.runWithStatus(newsstand + ["push", "Harbour Post"])
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("Harbour Post: downloading hp-2"), "\(first.output)")

        // The agent was started: the issue arrives.
        var issues = ""
        _ = Tmux.poll(timeout: 60) {
            issues = (try? Tmux.run(newsstand + ["issues"])) ?? issues
            return issues.contains("hp-2\thp-2\t2026-10-02\tready")
        }
        #expect(issues.contains("hp-2\thp-2\t2026-10-02\tready"), "\(issues)")

        // A second automatic download the same day is throttled, and says until when.
        let second = try Tmux.runWithStatus(newsstand + ["push", "Harbour Post", "--payload", #"{"aps":{"content-available":1},"issue":"hp-1"}"#])
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("throttled: one automatic download per publication per 24 hours"), "\(second.output)")
        #expect(try Tmux.run(newsstand + ["issues"]).contains("hp-1\thp-1\t2026-10-01\tnot downloaded (throttled: "))

        // An alert: stored, and sent to the desktop (no shelf is open), cleaned.
        let alert = try Tmux.runWithStatus(newsstand + ["push", "Harbour Post", "--payload", #"{"aps":{"alert":"Fog \u0007closes the harbour"}}"#])
        #expect(alert.status == 0, "\(alert.output)")
        #expect(alert.output.contains("alert: Fog closes the harbour (sent to the desktop)"), "\(alert.output)")
        #expect(try String(contentsOf: record, encoding: .utf8) == "--app-name=Newsstand|--|Harbour Post|Fog closes the harbour|")

        let status = try Tmux.run(newsstand + ["push"])
        #expect(status.contains("Harbour Post: polled, automatic download on"), "\(status)")
        #expect(status.contains("  throttled hp-1: "), "\(status)")
        #expect(status.contains("Harbour Post: Fog closes the harbour"), "\(status)")

        let bad = try Tmux.runWithStatus(newsstand + ["push", "Harbour Post", "--payload", "{}"])
        #expect(bad.status != 0)
        #expect(bad.output.contains("no \"aps\" object"), "\(bad.output)")
    }
}
