import Foundation

/// The kosync test server (Tests/Servers/kosync_server.py, written from KOReader's published
/// sync API) on 127.0.0.1: started by a test, stopped by `stop()`, its users and places kept
/// in a folder of its own so that `restart()` brings the same server back on the same port.
public final class KOSyncTestServer: @unchecked Sendable {  // @unchecked: `process` and `input` are touched only by the test that owns it.
    public private(set) var port: Int
    public let directory: URL
    private var process: Process
    private var input: Pipe

    public struct StartFailure: Error, CustomStringConvertible { public var description: String }

    public static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers/kosync_server.py")
    }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-kosync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        (process, input, port) = try Self.start(in: directory, port: 0)
    }

    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Moves the server's clock forward (it stamps places to the whole second), kept across
    /// `halt` and `restart`: a place sent next is newer than every one before, without a sleep.
    public func advanceClock(seconds: Int) throws {
        let file = directory.appendingPathComponent("clock-offset.txt")
        let before = (try? String(contentsOf: file, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        try String(before + seconds).write(to: file, atomically: true, encoding: .utf8)
    }

    /// Requests the server has answered (or refused) so far.
    public var requests: Int {
        (try? String(contentsOf: directory.appendingPathComponent("requests.txt"), encoding: .utf8)).flatMap { Int($0) } ?? 0
    }

    /// The server goes down: its port refuses connections until `restart()`.
    public func halt() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The same server back up, on the same port, with everything it kept.
    public func restart() throws {
        (process, input, port) = try Self.start(in: directory, port: port)
    }

    public func stop() {
        halt()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func start(in directory: URL, port: Int) throws -> (Process, Pipe, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, directory.path] + (port == 0 ? [] : ["--port", String(port)])
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let bound = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw StartFailure(description: "the kosync test server (python3) did not start")
        }
        return (process, input, bound)
    }
}
