import Foundation
import Testing
import TestSupport

/// Issue #33 as a person checks it: two libraries on one machine (two `NEWSSTAND_HOME`s)
/// holding the same book of one's own, and a KOReader sync server (the kosync test server,
/// written from the published API). A place set in one reaches the other; a far one is
/// offered, not taken; with the server down, nothing is lost.
@Suite(.serialized) struct PlaceSyncEndToEndTests {
    @Test func aBookReadTo40PercentInOneLibraryIsOfferedAt40PercentInTheOtherAndTheServerDownLosesNothing() throws {
        let server = try KOSyncTestServer()
        defer { server.stop() }
        let first = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        let second = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        let stranger = Sandbox(["NEWSSTAND_KEYRING=off"])
        defer { for sandbox in [first, second, stranger] { try? FileManager.default.removeItem(at: sandbox.home) } }
        let book = first.home.deletingLastPathComponent().appendingPathComponent("newsstand-shared-\(UUID().uuidString)/tides.epub")
        try FileManager.default.createDirectory(at: book.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: book.deletingLastPathComponent()) }
        try FileManager.default.copyItem(at: OwnFilesEndToEndTests.sampleBook, to: book)

        var names: [String] = []
        for sandbox in [first, second] {
            #expect(try sandbox.run("subscribe", book.path).status == 0)
            names.append(try sandbox.sql("SELECT name FROM issue WHERE contentURL LIKE 'file:%'"))
            let added = try Self.addServer(server, to: sandbox, password: "pa55")
            #expect(added.status == 0 && added.output.contains("Added kobo"), "\(added.output)")
        }
        let wrong = try Self.addServer(server, to: stranger, password: "nope")
        #expect(wrong.status == 1 && wrong.output.contains("refused the user name or password"), "\(wrong.output)")

        #expect(try first.run("place", names[0], "--set", "40%").status == 0)
        let sent = try first.run("sync", "now")
        #expect(sent.output.contains("Sent 1, took 0, offered 0; 0 waiting."), "\(sent.output)")
        let taken = try second.run("sync", "now")
        #expect(taken.output.contains("took 1"), "\(taken.output)")
        #expect(try Self.place(second, names[1])["place"]?["percentage"] as? Double == 40)

        // The second reads back to 10 %; the server goes down while the first reads on to 75 %.
        #expect(try second.run("place", names[1], "--set", "10%").status == 0)
        #expect(try second.run("sync", "now").output.contains("Sent 1"))
        server.halt()
        try server.advanceClock(seconds: 2)  // the server dates places to the second
        #expect(try first.run("place", names[0], "--set", "75%").status == 0)
        let down = try first.run("sync", "now")
        #expect(down.output.contains("1 waiting") && down.output.contains("could not be reached"), "\(down.output)")
        #expect(try first.run("sync", "list").output.contains("1 place waiting to be sent"))
        try server.restart()
        let up = try first.run("sync", "now")
        #expect(up.output.contains("Sent 1, took 0, offered 0; 0 waiting."), "\(up.output)")

        // Offered at 75 %, not taken: the second stays at 10 % until it says so.
        let offered = try second.run("sync", "now")
        #expect(offered.output.contains("offered 1"), "\(offered.output)")
        let place = try Self.place(second, names[1])
        #expect(place["place"]?["percentage"] as? Double == 10)
        #expect((place["offer"]?["place"] as? [String: Any])?["percentage"] as? Double == 75)
        let words = try second.run("place", names[1]).output
        #expect(words.contains("offered: kobo: newsstand on") && words.contains("75 %"), "\(words)")
    }

    @Test func thePlaceLeftOnQuittingTheReaderReachesASlowServerBeforeTheProgramEnds() throws {
        let server = try KOSyncTestServer()
        defer { server.stop() }
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        let book = sandbox.home.appendingPathComponent("books/tides.epub")
        try FileManager.default.createDirectory(at: book.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: OwnFilesEndToEndTests.sampleBook, to: book)
        #expect(try sandbox.run("subscribe", book.path).status == 0)
        let name = try sandbox.sql("SELECT name FROM issue WHERE contentURL LIKE 'file:%'")
        #expect(try Self.addServer(server, to: sandbox, password: "pa55").status == 0)

        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("env " + sandbox.environment.map { "'\($0)'" }.joined(separator: " ")
                       + " TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 '\(Tmux.binary.path)' read '\(name)'", width: 100, height: 30)
        #expect(tmux.waitFor("The lamp at Gull Rock burned") != nil, "the reader did not open:\n\(tmux.lastScreen)")
        // Each answer now takes a second: the place sent on leaving is still on its way when Q quits.
        try server.delayAnswers(seconds: 1)
        try tmux.send("]")
        #expect(tmux.waitFor("article 2 of 3") != nil, "\(tmux.lastScreen)")
        try tmux.send("Q")
        #expect(tmux.waitUntilExited(), "Q did not quit")
        #expect(try sandbox.sql("SELECT count(*) FROM syncPlace WHERE pending = 1") == "0", "the place was sent before the end")
        let place = try Self.place(sandbox, name)
        #expect((place["place"]?["percentage"] as? Double ?? 0) > 0, "\(place)")
    }

    static func addServer(_ server: KOSyncTestServer, to sandbox: Sandbox, password: String) throws -> (output: String, status: Int32) {
        try FileManager.default.createDirectory(at: sandbox.home, withIntermediateDirectories: true)
        let input = sandbox.home.appendingPathComponent("password.txt")
        try (password + "\n").write(to: input, atomically: true, encoding: .utf8)
        return try Tmux.runWithStatus(["sh", "-c", "exec env \"$@\" < \"$0\"", input.path] + sandbox.environment
                                      + [Tmux.binary.path, "sync", "add", "kobo", server.url.absoluteString, "--user", "ann", "--password-stdin"])
    }

    static func place(_ sandbox: Sandbox, _ name: String) throws -> [String: [String: Any]] {
        let output = try sandbox.run("place", name, "--json").output
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] ?? [:]
        return object.compactMapValues { $0 as? [String: Any] }
    }
}
