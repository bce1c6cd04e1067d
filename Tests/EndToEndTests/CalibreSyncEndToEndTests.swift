import Foundation
import Testing
import TestSupport

/// Issue #33 with calibre's content server (Debian's `calibre-server`, on 127.0.0.1, a user
/// signed in with HTTP Digest): two libraries (two `NEWSSTAND_HOME`s) took the same book from
/// its catalog. A place set in one is kept by calibre (read back through calibre's own HTTP
/// API) and taken by the other; a refused password is said; with the server down the place waits.
@Suite(.serialized) struct CalibreSyncEndToEndTests {
    static let password = "Tide 7ables!"

    @Test func aBookReadTo40PercentInOneLibraryIsAt40PercentInTheOtherAndInCalibre() throws {
        CalibreServer.turn.wait()
        defer { CalibreServer.turn.signal() }
        let server = try CalibreServer(user: "reader", password: Self.password)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        let first = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        let second = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        let stranger = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        defer { for sandbox in [first, second, stranger] { try? FileManager.default.removeItem(at: sandbox.home) } }

        var names: [String] = []
        for sandbox in [first, second] {
            names.append(try Self.takeTheTideTables(from: url, into: sandbox))
            let added = try Self.addServer(url, to: sandbox, password: Self.password)
            #expect(added.status == 0 && added.output.contains("Added calibre (calibre,"), "\(added.output)")
        }
        let wrong = try Self.addServer(url, to: stranger, password: "not the password")
        #expect(wrong.status == 1 && wrong.output.contains("refused the user name or password"), "\(wrong.output)")
        #expect(try stranger.run("sync", "list").output.contains("No sync servers"))

        // The first reads to 40 %: sent, and calibre keeps it as this reader's place.
        #expect(try first.run("place", names[0], "--set", "40%").status == 0)
        let sent = try first.run("sync", "now")
        #expect(sent.output.contains("Sent 1, took 0, offered 0; 0 waiting."), "\(sent.output)")
        let link = try first.sql("SELECT contentURL FROM issue WHERE name = '\(names[0])'")
        let book = try #require(link.split(separator: "/").reversed().dropFirst().first.flatMap { Int($0) }, "\(link)")
        let kept = try Self.calibre(url, "/book-get-annotations/library/\(book)-EPUB")
        let positions = try #require((kept["\(book):EPUB"] as? [String: Any])?["last_read_positions"] as? [[String: Any]], "\(kept)")
        #expect(positions.count == 1 && positions.first?["pos_frac"] as? Double == 0.4, "\(positions)")
        #expect((positions.first?["device"] as? String)?.hasPrefix("newsstand on ") == true)
        #expect((positions.first?["cfi"] as? String)?.hasPrefix("epubcfi(/") == true)

        // The second takes it: at 40 % there too.
        let taken = try second.run("sync", "now")
        #expect(taken.output.contains("Sent 0, took 1, offered 0; 0 waiting."), "\(taken.output)")
        #expect(try PlaceSyncEndToEndTests.place(second, names[1])["place"]?["percentage"] as? Double == 40)
        // Nothing changed: the first takes nothing back, the second sends nothing back.
        #expect(try first.run("sync", "now").output.contains("Sent 0, took 0, offered 0; 0 waiting."))
        #expect(try second.run("sync", "now").output.contains("Sent 0, took 0, offered 0; 0 waiting."))

        // A highlight made in the first shows in calibre's annotations and in the second.
        let made = try first.run("highlight", names[0], "--quote", "Twice a day.", "--note", "tides", "--color", "green")
        #expect(made.status == 0, "\(made.output)")
        #expect(try first.run("sync", "now").status == 0)
        let annotated = try Self.calibre(url, "/book-get-annotations/library/\(book)-EPUB")
        let marks = ((annotated["\(book):EPUB"] as? [String: Any])?["annotations_map"] as? [String: Any])?["highlight"] as? [[String: Any]] ?? []
        #expect(marks.count == 1 && marks.first?["highlighted_text"] as? String == "Twice a day." && marks.first?["notes"] as? String == "tides",
                "\(annotated)")
        #expect((marks.first?["start_cfi"] as? String)?.hasPrefix("/2/") == true, "\(marks)")
        #expect(try second.run("sync", "now").status == 0)
        let theirs = try second.run("highlights", names[1], "--format", "json").output
        #expect(theirs.contains("Twice a day.") && theirs.contains("tides") && theirs.contains("green"), "\(theirs)")

        // One made in calibre's viewer (its shape, through its own API) shows in the first.
        let start = try #require(marks.first?["start_cfi"] as? String)
        let made2 = #"{"highlight": [{"type": "highlight", "uuid": "made-in-calibre", "timestamp": "2026-11-29T06:00:00.000Z", "#
            + #""start_cfi": "\#(start)", "end_cfi": "\#(start)", "spine_index": 0, "highlighted_text": "Twice", "notes": "from calibre", "#
            + #""style": {"kind": "color", "type": "builtin", "which": "blue"}}]}"#
        _ = try Self.calibre(url, "/book-update-annotations/library/\(book)/EPUB", post: made2)
        #expect(try first.run("sync", "now").status == 0)
        let back = try first.run("highlights", names[0], "--format", "json").output
        #expect(back.contains("made-in-calibre") && back.contains("from calibre") && back.contains("blue"), "\(back)")
        #expect(try second.run("sync", "now").status == 0)
        #expect(try second.run("highlights", names[1], "--format", "json").output.contains("made-in-calibre"))

        // Deleted in calibre's viewer (its tombstone): gone from both libraries, and neither
        // sends it back alive, however often they sync.
        let removed = #"{"highlight": [{"type": "highlight", "uuid": "made-in-calibre", "removed": true, "#
            + #""timestamp": "2026-11-29T07:00:00.000Z"}]}"#
        _ = try Self.calibre(url, "/book-update-annotations/library/\(book)/EPUB", post: removed)
        for sandbox in [first, second, first, second] { #expect(try sandbox.run("sync", "now").status == 0) }
        for (sandbox, name) in zip([first, second], names) {
            let left = try sandbox.run("highlights", name, "--format", "json").output
            #expect(!left.contains("made-in-calibre") && left.contains("Twice a day."), "\(left)")
        }
        let after = try Self.calibre(url, "/book-get-annotations/library/\(book)-EPUB")
        let kinds = ((after["\(book):EPUB"] as? [String: Any])?["annotations_map"] as? [String: Any])?["highlight"] as? [[String: Any]] ?? []
        let tombstone = kinds.first { $0["uuid"] as? String == "made-in-calibre" }
        #expect(tombstone?["removed"] as? Bool == true, "still deleted in calibre: \(kinds)")

        // The server goes down: the place read on waits, said once per sync.
        server.stop()
        #expect(try first.run("place", names[0], "--set", "42%").status == 0)
        let down = try first.run("sync", "now")
        #expect(down.output.contains("1 waiting") && down.output.contains("could not be reached"), "\(down.output)")
        #expect(try first.run("sync", "list").output.contains("1 place waiting to be sent"))
    }

    /// Signs in to the catalog, subscribes to "By Newest" and downloads The Tide Tables; its issue name.
    static func takeTheTideTables(from url: String, into sandbox: Sandbox) throws -> String {
        let login = try sandbox.login("\(url)/opds", user: "reader", password: password)
        #expect(login.status == 0, "\(login.output)")
        let subscribed = try sandbox.run("subscribe", "\(url)/opds/navcatalog/4f6e6577657374?library_id=library")
        #expect(subscribed.status == 0, "\(subscribed.output)")
        let issues = try JSONSerialization.jsonObject(with: Data(try sandbox.run("issues", "--json").output.utf8)) as? [[String: Any]] ?? []
        let name = try #require(issues.first { $0["title"] as? String == "The Tide Tables" }?["name"] as? String, "\(issues)")
        let downloaded = try sandbox.run("download", name, "--wait")
        #expect(downloaded.status == 0, "\(downloaded.output)")
        return name
    }

    static func addServer(_ url: String, to sandbox: Sandbox, password: String) throws -> (output: String, status: Int32) {
        try FileManager.default.createDirectory(at: sandbox.home, withIntermediateDirectories: true)
        let input = sandbox.home.appendingPathComponent("password.txt")
        try (password + "\n").write(to: input, atomically: true, encoding: .utf8)
        return try Tmux.runWithStatus(["sh", "-c", "exec env \"$@\" < \"$0\"", input.path] + sandbox.environment
                                      + [Tmux.binary.path, "sync", "add", "calibre", url, "--kind", "calibre", "--user", "reader", "--password-stdin"])
    }

    /// An answer of calibre's own HTTP API, asked with curl as the tests' user.
    static func calibre(_ url: String, _ path: String, post body: String? = nil) throws -> [String: Any] {
        var arguments = ["curl", "-s", "--fail", "--digest", "-u", "reader:\(password)"]
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
        let answer = try Tmux.runWithStatus(arguments + [url + path])
        #expect(answer.status == 0, "\(path): \(answer.output)")
        guard body == nil else { return [:] }
        return try JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any] ?? [:]
    }
}
