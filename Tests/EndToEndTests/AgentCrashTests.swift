import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The download agent killed with SIGKILL in the middle of a transfer: the next agent
/// resumes from the partial file and installs a byte-identical issue.
@Suite(.serialized) struct AgentCrashTests {
    @Test func killedMidTransferResumesAndInstallsIdenticalBytes() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)

        // A 3 MB issue of incompressible bytes in a stored zip, and a feed that lists it.
        let payload = root.appendingPathComponent("payload.bin")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: payload)
        let archive = root.appendingPathComponent("issue.zip")
        _ = try Tmux.run(["python3", "-c", """
            import zipfile, sys
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_STORED) as z:
                z.writestr("index.html", "<h1>Crash test</h1><p>Bytes follow.</p>")
                z.write(sys.argv[2], "payload.bin")
            """, archive.path, payload.path])
        let feed = root.appendingPathComponent("feed.xml")
        try """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Crash Weekly</title><id>urn:crash</id><updated>2026-11-01T00:00:00Z</updated>
            <entry><id>crash-1</id><title>Crash One</title><updated>2026-11-01T00:00:00Z</updated>
            <link rel="http://opds-spec.org/acquisition" type="application/zip" href="issue.zip"/></entry></feed>
            """.write(to: feed, atomically: true, encoding: .utf8)

        let env = ["env", "NEWSSTAND_HOME=\(home.path)", "NEWSSTAND_FILE_THROTTLE_MS=3", "NEWSSTAND_RESOURCES=/nonexistent"]
        let subscribed = try Tmux.runWithStatus(env + [Tmux.binary.path, "subscribe", feed.path])
        #expect(subscribed.status == 0, "\(subscribed.output)")
        // `download` queues the issue and starts the agent detached.
        let queued = try Tmux.runWithStatus(env + [Tmux.binary.path, "download", "crash-1"])
        #expect(queued.status == 0, "\(queued.output)")

        // Wait until about a third has arrived, then kill the agent outright.
        let partial = home.appendingPathComponent("cache/partial")
        let lock = home.appendingPathComponent("state/agent.lock")
        var killedAt: Int64 = 0
        _ = Tmux.poll(timeout: 60) {
            let parts = (try? FileManager.default.contentsOfDirectory(at: partial, includingPropertiesForKeys: [.fileSizeKey])) ?? []
            let size = parts.compactMap { try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize }.max() ?? 0
            guard size > 1 << 20, let text = try? String(contentsOf: lock, encoding: .utf8),
                  let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
            kill(pid, SIGKILL)
            killedAt = Int64(size)
            #expect(Tmux.waitUntilEnded(pid: pid), "the killed agent did not end")
            return true
        }
        #expect(killedAt > 0, "the transfer never got under way")
        let midway = try Tmux.run(env + [Tmux.binary.path, "issues", "--json"])
        #expect(midway.contains("\"status\" : \"downloading\""), "\(midway)")

        // A new agent (in the foreground) picks the transfer up where it stopped.
        let resumed = try Tmux.runWithStatus(env + [Tmux.binary.path, "agent"])
        #expect(resumed.status == 0, "\(resumed.output)")
        let resumedFrom = resumed.output.components(separatedBy: "resume from ").dropFirst().first
            .flatMap { Int64($0.prefix { $0.isNumber }) } ?? 0
        #expect(resumedFrom > 0, "did not resume:\n\(resumed.output)")
        #expect(killedAt - resumedFrom <= 1 << 20, "re-fetched more than 1 MiB: killed at \(killedAt), resumed from \(resumedFrom)")

        let after = try Tmux.run(env + [Tmux.binary.path, "issues", "--json"])
        #expect(after.contains("\"status\" : \"available\""), "\(after)")
        let issues = home.appendingPathComponent("cache/issues")
        let directory = try #require(try FileManager.default.contentsOfDirectory(atPath: issues.path).first)
        let installed = issues.appendingPathComponent(directory).appendingPathComponent("payload.bin")
        #expect(try Data(contentsOf: installed) == Data(contentsOf: payload))
        #expect(try FileManager.default.contentsOfDirectory(atPath: partial.path).isEmpty)
    }
}

/// Several processes on one library, and the agent outliving the shelf.
@Suite(.serialized) struct ProcessesTests {
    @Test func processesOpeningAndWritingOneFreshLibraryAtOnceAllSucceed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-procs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // Six feeds, six processes subscribing at the same moment to a library none created.
        var script = "pids=''; "
        for n in 0..<6 {
            let feed = root.appendingPathComponent("feed\(n).xml")
            try """
                <feed xmlns="http://www.w3.org/2005/Atom"><title>Paper \(n)</title><id>urn:p\(n)</id><updated>2026-11-01T00:00:00Z</updated>
                \((0..<20).map { "<entry><id>p\(n)-\($0)</id><title>P\(n) #\($0)</title><updated>2026-10-\(String(format: "%02d", $0 + 1))T00:00:00Z</updated><link rel=\"enclosure\" type=\"application/zip\" href=\"p\(n)-\($0).zip\"/></entry>" }.joined())
                </feed>
                """.write(to: feed, atomically: true, encoding: .utf8)
            script += "'\(Tmux.binary.path)' subscribe '\(feed.path)' > '\(root.path)/out\(n)' 2>&1 & pids=\"$pids $!\"; "
        }
        script += "status=0; for p in $pids; do wait $p || status=1; done; exit $status"
        let run = try Tmux.runWithStatus(["env", "NEWSSTAND_HOME=\(home.path)", "NEWSSTAND_RESOURCES=/nonexistent", "sh", "-c", script])
        let outputs = (0..<6).map { (try? String(contentsOf: root.appendingPathComponent("out\($0)"), encoding: .utf8)) ?? "" }
        #expect(run.status == 0, "\(outputs.joined(separator: "\n"))")
        #expect(!outputs.joined().contains("locked"))
        let listing = try Tmux.run(["env", "NEWSSTAND_HOME=\(home.path)", "NEWSSTAND_RESOURCES=/nonexistent", Tmux.binary.path, "issues"])
        for n in 0..<6 { #expect(listing.components(separatedBy: "\n").filter { $0.hasPrefix("Paper \(n)\t") }.count == 20) }
    }

    @Test func theAgentFinishesADownloadAfterTheShelfQuits() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start(ShelfEndToEndTests.command(home: home, extra: "NEWSSTAND_FILE_THROTTLE_MS=60"))
        #expect(tmux.waitFor("Tidewater") != nil)
        try tmux.send("Enter")
        #expect(tmux.waitFor("TAP TO DOWNLOAD") != nil)
        try tmux.send("Enter")
        #expect(tmux.waitFor { $0.contains("%") || $0.contains("WAITING") } != nil, "\(tmux.lastScreen)")
        try tmux.send("Q")                       // quit mid-download
        #expect(tmux.waitUntilExited())
        try tmux.tmux(["kill-server"])           // and the terminal goes away too
        let env = ["env", "NEWSSTAND_HOME=\(home.path)"]
        var listing = ""
        _ = Tmux.poll(timeout: 60) {
            listing = (try? Tmux.run(env + [Tmux.binary.path, "issues", "--json"])) ?? listing
            return listing.contains("\"status\" : \"available\"")
        }
        #expect(listing.contains("\"name\" : \"tidewater-2026-11\""))
        #expect(listing.contains("\"status\" : \"available\""), "the agent did not finish after the shelf quit:\n\(listing)")
    }
}
