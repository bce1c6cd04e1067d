import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs made for the test (root only: CI and this machine run the tests as root).
final class SmallFilesystem {
    let mountPoint: URL

    /// Whether this process may mount a tmpfs: tried once on a 1 MiB one.
    static let canMount: Bool = {
        guard geteuid() == 0 else { return false }
        guard let probe = try? SmallFilesystem(megabytes: 1) else { return false }
        probe.unmount()
        return true
    }()

    init(megabytes: Int) throws {
        mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let mounted = try Tmux.runWithStatus(["mount", "-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", mountPoint.path])
        guard mounted.status == 0 else {
            try? FileManager.default.removeItem(at: mountPoint)
            throw TmuxError(message: "cannot mount a tmpfs: \(mounted.output)")
        }
    }

    func unmount() {
        _ = try? Tmux.runWithStatus(["umount", "-l", mountPoint.path])
        try? FileManager.default.removeItem(at: mountPoint)
    }

    /// Kills the agent whose pid is in `lock` (if one is still there), then unmounts: the
    /// end of every test that ran the binary on this file system.
    func tearDown(agentLock lock: URL) {
        if let text = try? String(contentsOf: lock, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGKILL)
            _ = Tmux.waitUntilEnded(pid: pid)
        }
        unmount()
    }

    /// Writes zeros into `name` until the file system is full.
    func fill(_ name: String) throws {
        let fd = open(mountPoint.appendingPathComponent(name).path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw TmuxError(message: "cannot create the filler") }
        defer { close(fd) }
        let zeros = [UInt8](repeating: 0, count: 64 * 1024)
        var size = zeros.count
        while size > 0 {
            if write(fd, zeros, size) < 0 {
                guard errno == ENOSPC else { throw TmuxError(message: "filler: \(String(cString: strerror(errno)))") }
                size /= 2
            }
        }
    }
}

/// The real binary on a real, small file system that fills up while an issue downloads.
@Suite(.serialized) struct FullDiskEndToEndTests {
    @Test(.enabled(if: SmallFilesystem.canMount, "needs root to mount a tmpfs"))
    func aDiskThatFillsUpPausesTheDownloadAndItFinishesWhenThereIsRoom() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-fulldisk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let disk = try SmallFilesystem(megabytes: 12)
        let home = disk.mountPoint.appendingPathComponent("home")
        let lock = home.appendingPathComponent("state/agent.lock")
        defer { disk.tearDown(agentLock: lock) }

        // A 3 MiB issue of incompressible bytes, outside the small disk.
        let fixture = try IssueFeedFixture(in: root, id: "full-1", title: "Full disk", payloadBytes: 3 << 20)
        let payload = fixture.payload
        let feed = fixture.feed

        let env = ["env", "NEWSSTAND_HOME=\(home.path)", "NEWSSTAND_FILE_THROTTLE_MS=1", "NEWSSTAND_RESOURCES=/nonexistent"]
        func run(_ arguments: String...) throws -> (output: String, status: Int32) {
            try Tmux.runWithStatus(env + [Tmux.binary.path] + arguments)
        }
        #expect(try run("subscribe", feed.path).status == 0)
        #expect(try run("download", "full-1").status == 0)

        // Once a good part has arrived, something else fills the disk.
        let partial = home.appendingPathComponent("cache/partial")
        func partSize() -> Int {
            let parts = (try? FileManager.default.contentsOfDirectory(at: partial, includingPropertiesForKeys: [.fileSizeKey])) ?? []
            return parts.compactMap { try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize }.max() ?? 0
        }
        // Whether the agent has the part open: a transfer holds it until it stops.
        func agentHoldsPart() -> Bool {
            guard let text = try? String(contentsOf: lock, encoding: .utf8),
                  let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            return descriptors.contains { descriptor in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"))?.hasPrefix(partial.path) == true
            }
        }
        _ = Tmux.poll(timeout: 30) { partSize() >= 1 << 20 }
        #expect(partSize() >= 1 << 20, "the download never got under way")
        #expect(agentHoldsPart(), "the agent does not hold the part it writes")
        try disk.fill("filler")

        // The transfer fails for want of space and lets go of its part (the disk is too full
        // to record the pause): it stops growing, the agent stays, nothing is installed.
        _ = Tmux.poll(timeout: 30) { !agentHoldsPart() }
        #expect(!agentHoldsPart(), "the transfer did not stop on the full disk")
        let stopped = partSize()
        let issues = try run("issues").output
        #expect(issues.contains("full-1\tFull disk\t2026-11-01\tdownloading"), "\(issues)")
        #expect(stopped < 3 << 20)
        #expect(Tmux.isLocked(lock), "the agent did not stay")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("cache/issues").path).isEmpty)
        #expect(partSize() == stopped)

        // Room again: it resumes by itself and installs identical bytes.
        try FileManager.default.removeItem(at: disk.mountPoint.appendingPathComponent("filler"))
        var status = ""
        _ = Tmux.poll(timeout: 30) {
            status = (try? run("issues").output) ?? ""
            return status.contains("full-1\tFull disk\t2026-11-01\tready")
        }
        #expect(status.contains("full-1\tFull disk\t2026-11-01\tready"), "\(status)")
        let issuesDirectory = home.appendingPathComponent("cache/issues")
        let installed = try FileManager.default.contentsOfDirectory(atPath: issuesDirectory.path)
        #expect(installed.count == 1)
        let copy = issuesDirectory.appendingPathComponent(installed.first ?? "").appendingPathComponent("payload.bin")
        #expect(try Data(contentsOf: copy) == Data(contentsOf: payload))
        #expect(partSize() == 0)
        let log = (try? String(contentsOf: home.appendingPathComponent("state/agent.log"), encoding: .utf8)) ?? ""
        // The second attempt went on from the bytes kept, not from the start.
        #expect(log.range(of: "resume from [1-9][0-9]* bytes", options: .regularExpression) != nil, "\(log)")
    }

    /// The disk is already full when commands start (no agent holds the library open):
    /// reading works, every change is refused in one line and nothing changes, and an
    /// agent waits for space and then carries on.
    @Test(.enabled(if: SmallFilesystem.canMount, "needs root to mount a tmpfs"))
    func commandsStartedOnAFullDiskReadRefuseChangesAndTheAgentWaitsForRoom() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-fullstart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = root.appendingPathComponent("first"), second = root.appendingPathComponent("second")
        for directory in [first, second] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        let disk = try SmallFilesystem(megabytes: 8)
        let home = disk.mountPoint.appendingPathComponent("home")
        let lock = home.appendingPathComponent("state/agent.lock")
        defer { disk.tearDown(agentLock: lock) }
        let downloaded = try IssueFeedFixture(in: first, id: "start-1", title: "Kept", payloadBytes: 64 << 10)
        let waiting = try IssueFeedFixture(in: second, id: "start-2", title: "Waiting", payloadBytes: 64 << 10)
        let env = ["env", "NEWSSTAND_HOME=\(home.path)", "NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_FULL_DISK_POLL_MS=100"]
        func run(_ arguments: String...) throws -> (output: String, status: Int32) {
            try Tmux.runWithStatus(env + [Tmux.binary.path] + arguments)
        }
        #expect(try run("subscribe", downloaded.feed.path).status == 0)
        #expect(try run("subscribe", waiting.feed.path).status == 0)
        #expect(try run("download", "start-1", "--wait").status == 0)
        // Let the agent that download started finish and close the library.
        _ = Tmux.poll(timeout: 60) { !Tmux.isLocked(lock) }
        #expect(!Tmux.isLocked(lock), "the agent did not finish")
        let before = try run("issues", "--json")
        #expect(before.status == 0)
        let filesBefore = Set(FileManager.default.enumerator(atPath: home.path)?.compactMap { $0 as? String } ?? [])

        try disk.fill("filler")
        // Reading works.
        let issues = try run("issues", "--json")
        #expect(issues.status == 0 && issues.output == before.output, "\(issues.output)")
        #expect(try run("cache").status == 0)
        let text = try run("read", "start-1", "--plain")
        #expect(text.status == 0 && text.output.contains("Bytes follow."), "\(text.output)")
        // Every change: one line, exit 1, nothing changed.
        let changes: [[String]] = [["subscribe", downloaded.feed.path], ["refresh"], ["download", "start-2"],
                                   ["remove", "start-1"], ["push", "Kept Weekly"], ["unsubscribe", "Kept Weekly"],
                                   ["cache", "--evict"]]
        for change in changes {
            let result = try Tmux.runWithStatus(env + [Tmux.binary.path] + change)
            let lines = result.output.split(separator: "\n")
            #expect(result.status == 1, "\(change): \(result.output)")
            #expect(lines.count == 1 && lines[0].contains("is full") && lines[0].contains("nothing was changed"),
                    "\(change): \(result.output)")
        }
        #expect(try run("issues", "--json").output == before.output)
        let filesAfter = Set(FileManager.default.enumerator(atPath: home.path)?.compactMap { $0 as? String } ?? [])
        // Only SQLite's empty WAL files may have appeared (it creates them before it fails).
        #expect(filesAfter.subtracting(filesBefore).allSatisfy { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") },
                "\(filesAfter.subtracting(filesBefore))")

        // With nothing queued, an agent has nothing to wait for: it says so and ends.
        let idle = try run("agent")
        #expect(idle.status == 0 && idle.output.contains("nothing is queued"), "\(idle.output)")
        // One that watches waits for room rather than failing...
        let agentLog = root.appendingPathComponent("agent.out")
        _ = try Tmux.runWithStatus(["sh", "-c", "\(env.joined(separator: " ")) '\(Tmux.binary.path)' agent --watch > '\(agentLog.path)' 2>&1 &"])
        func agentSaid(_ text: String) -> Bool { ((try? String(contentsOf: agentLog, encoding: .utf8)) ?? "").contains(text) }
        _ = Tmux.poll(timeout: 60) { agentSaid("waiting for space") }
        #expect(agentSaid("is full") && agentSaid("waiting for space"))
        // ...and carries on when there is some: a download queued then is installed.
        try FileManager.default.removeItem(at: disk.mountPoint.appendingPathComponent("filler"))
        _ = Tmux.poll(timeout: 60) { agentSaid("room on the disk again") }
        #expect(agentSaid("room on the disk again"))
        #expect(try run("download", "start-2", "--wait").status == 0)
        #expect(try run("issues").output.contains("start-2\tWaiting\t2026-11-01\tready"))
    }
}
