import Foundation

/// The kosync test server (Tests/Servers/kosync_server.py, written from KOReader's published
/// sync API) on 127.0.0.1: started by a test, stopped by `stop()`, its users and places kept
/// in a folder of its own so that `restart()` brings the same server back on the same port.
public final class KOSyncTestServer: @unchecked Sendable {  // @unchecked: `process` and `input` are touched only by the test that owns it.
    public private(set) var port: Int
    public let directory: URL
    private var server: ChildServer

    public static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers/kosync_server.py")
    }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-kosync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        server = try Self.start(in: directory, port: 0)
        port = server.port
    }

    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Moves the server's clock forward (it stamps places to the whole second), kept across
    /// `halt` and `restart`: a place sent next is newer than every one before, without a sleep.
    public func advanceClock(seconds: Int) throws {
        let file = directory.appendingPathComponent("clock-offset.txt")
        let before = (try? String(contentsOf: file, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        try String(before + seconds).write(to: file, atomically: true, encoding: .utf8)
    }

    /// Every place from now on is stamped `second` (seconds since 1970): places sent by two
    /// readers one after the other fall in the same second, as they can on the real server.
    public func fixClock(at second: Int) throws {
        try String(second).write(to: directory.appendingPathComponent("clock-fixed.txt"), atomically: true, encoding: .utf8)
    }

    /// Every answer from now on waits `seconds` first: a slow server.
    public func delayAnswers(seconds: Double) throws {
        try String(seconds).write(to: directory.appendingPathComponent("answer-delay.txt"), atomically: true, encoding: .utf8)
    }

    /// Requests the server has answered (or refused) so far.
    public var requests: Int {
        (try? String(contentsOf: directory.appendingPathComponent("requests.txt"), encoding: .utf8)).flatMap { Int($0) } ?? 0
    }

    /// The server goes down: its port refuses connections until `restart()`.
    public func halt() { server.stop() }

    /// The same server back up, on the same port, with everything it kept.
    public func restart() throws {
        server = try Self.start(in: directory, port: port)
        port = server.port
    }

    public func stop() {
        halt()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func start(in directory: URL, port: Int) throws -> ChildServer {
        try ChildServer(python: script.path, [directory.path] + (port == 0 ? [] : ["--port", String(port)]), name: "kosync")
    }
}
