import Foundation
import Testing
import TestSupport

/// Issue 30, items 5-7: a server that accepts and never answers, a port nobody listens
/// on, and a URL of an unknown scheme, met by the commands someone waits on.
@Suite struct NetworkWaitsEndToEndTests {
    /// No samples subscribed: each test sees only what it did.
    let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])

    @Test func subscribeSaysWhatItWaitsForAndGivesUpWithinTwentySeconds() throws {
        let server = try SilentServer()
        let run = try TimedRun(sandbox, ["subscribe", "http://127.0.0.1:\(server.port)/feed.xml"])
        #expect(waitUntil(timeout: 10) { server.connections > 0 }, "never connected: \(run.output)")
        let connected = Date()
        let waiting = "waiting for 127.0.0.1:\(server.port)"
        #expect(waitUntil(timeout: 1) { run.output.contains(waiting) }, "nothing said within a second: \(run.output)")
        let status = run.wait(timeout: 25)
        #expect(status == .exited(1), "\(run.output)")
        let waited = Date().timeIntervalSince(connected)
        #expect(waited <= 21, "gave up after \(waited) s")
        let lines = run.output.split(separator: "\n").map(String.init)
        // Not a terminal: one plain line for the wait, then one error.
        #expect(lines.filter { $0.contains(waiting) }.count == 1, "\(run.output)")
        #expect(lines.count == 2, "\(run.output)")
        #expect(lines.last?.hasPrefix("newsstand: cannot subscribe to") == true, "\(run.output)")
        #expect(lines.last?.contains("no answer from 127.0.0.1:\(server.port) in 20 s") == true, "\(run.output)")
    }

    @Test(arguments: [["inspect", "feed"], ["catalog", "add"], ["browse"]])
    func theOtherCommandsThatFetchGiveUpWithinTwentySecondsToo(_ command: [String]) throws {
        let server = try SilentServer()
        let run = try TimedRun(sandbox, command + ["http://127.0.0.1:\(server.port)/catalog.xml"])
        #expect(waitUntil(timeout: 10) { server.connections > 0 }, "never connected: \(run.output)")
        let connected = Date()
        #expect(run.wait(timeout: 25) == .exited(1), "\(run.output)")
        #expect(Date().timeIntervalSince(connected) <= 21, "\(command): gave up after \(Date().timeIntervalSince(connected)) s")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines == ["newsstand: waiting for 127.0.0.1:\(server.port)…", lines.last ?? ""], "\(run.output)")
        #expect(lines.last?.hasSuffix("no answer from 127.0.0.1:\(server.port) in 20 s") == true, "\(run.output)")
    }

    @Test func ctrlCEndsAWaitingSubscribeAtOnceLeavingNothingBehind() throws {
        let server = try SilentServer()
        let temporary = sandbox.home.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let run = try TimedRun(sandbox, ["subscribe", "http://127.0.0.1:\(server.port)/feed.xml"],
                               environment: ["TMPDIR=\(temporary.path)"])
        #expect(waitUntil(timeout: 10) { server.connections > 0 }, "never connected: \(run.output)")
        let interrupted = Date()
        kill(run.pid, SIGINT)
        let status = run.wait(timeout: 10)
        #expect(status == .exited(130), "\(run.output)")
        #expect(Date().timeIntervalSince(interrupted) < 1.5, "took \(Date().timeIntervalSince(interrupted)) s to end")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.isEmpty, "left behind: \(left)")
        let publications = try sandbox.sql("SELECT count(*) FROM publication WHERE feedURL LIKE 'http://127.0.0.1:%'")
        #expect(publications == "0", "\(publications)")
    }

    @Test func refreshOfTwentyEightFeedsOnADeadPortTakesAFewSeconds() throws {
        let port = try deadPort()
        try subscribeFeeds(28, movedTo: "http://127.0.0.1:\(port)")
        let run = try TimedRun(sandbox, ["refresh"])
        let status = run.wait(timeout: 60)
        #expect(status == .exited(1), "\(run.output)")
        #expect(run.seconds <= 10, "28 dead feeds took \(run.seconds) s")
        let failures = run.output.split(separator: "\n").filter { $0.hasPrefix("newsstand: Feed ") }
        #expect(failures.count == 28, "\(run.output)")
        // In the order of the publications, however they were fetched.
        #expect(failures.first?.hasPrefix("newsstand: Feed 01:") == true, "\(run.output)")
        #expect(failures.last?.hasPrefix("newsstand: Feed 28:") == true, "\(run.output)")
        #expect(try sandbox.sql("SELECT count(*) FROM publication WHERE title LIKE 'Feed %' AND lastError IS NULL") == "0")
    }

    @Test func refreshOfTwentyEightFeedsOnASilentServerTakesAtMostTenSeconds() throws {
        let server = try SilentServer()
        try subscribeFeeds(28, movedTo: "http://127.0.0.1:\(server.port)")
        let run = try TimedRun(sandbox, ["refresh"])
        let status = run.wait(timeout: 15)
        #expect(status == .exited(1), "\(run.output)")
        #expect(run.seconds <= 10, "28 silent feeds took \(run.seconds) s")
        #expect(server.most <= 2, "\(server.most) requests at once to one server")
        #expect(run.output.split(separator: "\n").filter { $0.hasPrefix("newsstand: Feed ") }.count == 28, "\(run.output)")
    }

    @Test func refreshFetchesFeedsOfDifferentServersSideBySide() throws {
        let servers = try (0..<3).map { _ in try SilentServer() }
        try subscribeFeeds(6, movedTo: "http://127.0.0.1:\(servers[0].port)")
        // Two feeds on each of three servers: all six wait at once.
        for (index, server) in servers.enumerated() {
            _ = try sandbox.sql("UPDATE publication SET feedURL = 'http://127.0.0.1:\(server.port)/feed-' || id WHERE title LIKE 'Feed %' AND id % 3 = \(index)")
        }
        let run = try TimedRun(sandbox, ["refresh"])
        #expect(waitUntil(timeout: 5) { servers.allSatisfy { $0.connections == 2 } },
                "\(servers.map(\.connections)) connections: \(run.output)")
        kill(run.pid, SIGINT)
        #expect(run.wait(timeout: 10) == .exited(130), "\(run.output)")
    }

    @Test func downloadWaitGivesUpWithinTwentySecondsWhileTheAgentGoesOn() throws {
        let server = try SilentServer()
        let feed = sandbox.home.appendingPathComponent("silent.xml")
        try FileManager.default.createDirectory(at: sandbox.home, withIntermediateDirectories: true)
        try """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Silent Weekly</title><id>urn:silent</id><updated>2026-11-01T00:00:00Z</updated>
            <entry><id>silent-1</id><title>Silent</title><updated>2026-11-01T00:00:00Z</updated>
            <link rel="http://opds-spec.org/acquisition" type="application/zip" href="http://127.0.0.1:\(server.port)/issue.zip"/></entry></feed>
            """.write(to: feed, atomically: true, encoding: .utf8)
        #expect(try sandbox.run("subscribe", feed.path).status == 0)
        defer { _ = try? sandbox.run("cancel", "silent-1") }
        let run = try TimedRun(sandbox, ["download", "silent-1", "--wait"])
        #expect(waitUntil(timeout: 15) { server.connections > 0 }, "never connected: \(run.output)")
        let connected = Date()
        #expect(run.wait(timeout: 40) == .exited(1), "\(run.output)")
        let waited = Date().timeIntervalSince(connected)
        #expect(waited <= 21, "gave up after \(waited) s")
        let lines = run.output.split(separator: "\n").map(String.init)
        let errors = lines.filter { $0.hasPrefix("newsstand: ") }
        #expect(errors.count == 1, "\(run.output)")
        #expect(errors.first?.hasPrefix("newsstand: silent-1: no answer from 127.0.0.1:\(server.port) in 20 s") == true, "\(run.output)")
        #expect(errors.first?.contains("newsstand cancel silent-1") == true, "\(run.output)")
        // Not a terminal: the wait is said once, not counted.
        #expect(lines.filter { $0.contains("waiting for 127.0.0.1:\(server.port)") }.count == 1, "\(run.output)")
    }

    @Test func onATerminalTheWaitAndTheProgressAreOneLineRedrawnThenCleared() throws {
        let server = try SilentServer()
        try subscribeFeeds(6, movedTo: "http://127.0.0.1:\(server.port)")
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("exec env " + sandbox.environment.joined(separator: " ") + " \(Tmux.binary.path) refresh", width: 120, height: 40)
        let waiting = "waiting for 127.0.0.1:\(server.port)… "
        let live = try tmux.waitFor(showing: "the progress and the wait", timeout: 10) { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix("refreshing ") && $0.contains("…  " + waiting) }
        }
        #expect(live.components(separatedBy: waiting).count == 2, "the wait is said once:\n\(live)")
        // Counted in place: a later second on the same one line.
        try tmux.waitFor(showing: "the wait counted in place", timeout: 10) { screen in
            screen.components(separatedBy: waiting).count == 2 && !screen.contains(waiting + "0 s")
        }
        #expect(tmux.waitUntilExited(timeout: 15), "\(tmux.lastScreen)")
        let end = try tmux.screen()
        #expect(!end.contains("refreshing "), "not cleared:\n\(end)")
        #expect(!end.contains(waiting), "not cleared:\n\(end)")
        #expect(end.contains("newsstand: Feed 06: "), "\(end)")
    }

    @Test func aURLOfAnUnknownSchemeIsRefusedForItsSchemeEvenWhenItDoesNotParse() throws {
        let result = try sandbox.run("subscribe", "htp://bad url")
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output == "newsstand: htp://bad url: htp:// is not supported; a feed is an http, https or file URL, or a local path\n",
                "\(result.output)")
    }

    /// `count` publications named "Feed 01"… from copies of a sample feed, their feed URLs
    /// then moved to `base`/feed-ID, where the test's server is.
    private func subscribeFeeds(_ count: Int, movedTo base: String) throws {
        let feeds = sandbox.home.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        let sample = try String(contentsOf: Sandbox.repository.appendingPathComponent("sample-feed/tidewater-monthly/feed.xml"), encoding: .utf8)
        for number in 1...count {
            let name = String(format: "Feed %02d", number)
            let file = feeds.appendingPathComponent("feed-\(number).xml")
            try sample.replacingOccurrences(of: "<title>Tidewater</title>", with: "<title>\(name)</title>", options: [], range: nil)
                .write(to: file, atomically: true, encoding: .utf8)
            let result = try sandbox.run("subscribe", file.path)
            #expect(result.status == 0, "\(result.output)")
        }
        _ = try sandbox.sql("UPDATE publication SET feedURL = '\(base)/feed-' || id, etag = NULL, lastModified = NULL WHERE title LIKE 'Feed %'")
        #expect(try sandbox.sql("SELECT count(*) FROM publication WHERE title LIKE 'Feed %'") == "\(count)")
    }
}

/// The command run with standard output and error to one file, timed, to be waited on,
/// read or interrupted while it runs.
final class TimedRun {
    enum Status: Equatable {
        case exited(Int32)
        case signalled(Int32)
        case stillRunning
    }

    let pid: pid_t
    private let outputFile: URL
    private let started = Date()
    private(set) var seconds: TimeInterval = 0

    init(_ sandbox: Sandbox, _ arguments: [String], environment: [String] = []) throws {
        outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("timed-run-\(UUID().uuidString)")
        pid = try Tmux.spawn(["env"] + sandbox.environment + environment + [Tmux.binary.path] + arguments, output: outputFile.path)
    }

    var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// How it ended, waiting up to `timeout` seconds; still running then, it is killed.
    func wait(timeout: TimeInterval) -> Status {
        var raw: Int32 = 0
        let ended = poll(timeout: timeout) { waitpid(pid, &raw, WNOHANG) == pid ? true : nil } ?? false
        seconds = Date().timeIntervalSince(started)
        guard ended else {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &raw, 0)
            return .stillRunning
        }
        // WIFEXITED / WEXITSTATUS, which do not import into Swift.
        return raw & 0x7f == 0 ? .exited((raw >> 8) & 0xff) : .signalled(raw & 0x7f)
    }

    deinit {
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == 0 { kill(pid, SIGKILL); _ = waitpid(pid, &raw, 0) }
        try? FileManager.default.removeItem(at: outputFile)
    }
}
