import Foundation

/// A test server of the project's own in a child process, never in the test process (an
/// async server there starves on the cooperative pool: FIELD-NOTES): `python3 SCRIPT ARGS…`
/// prints the port it listens on as its first line and ends when its standard input closes.
/// The servers under Tests/Servers and the ones the suites write (feeds, transfers, hostile
/// HTTP) all start and stop through this.
public final class ChildServer: @unchecked Sendable {  // @unchecked: `process` and `input` are touched only by the test that owns it.
    public let port: Int
    private let process: Process
    private let input: Pipe

    public struct StartFailure: Error, CustomStringConvertible { public var description: String }

    /// Starts `python3 script arguments…`. `errors` takes the child's standard error (nothing
    /// when nil: tracebacks of connections the tests break on purpose stay out of the log).
    /// Throws, naming `name` and the child's first line, when it prints no port.
    public init(python script: String, _ arguments: [String], name: String, errors: FileHandle? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        let first = Self.readLine(from: output.fileHandleForReading.fileDescriptor).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(first) else {
            try? input.fileHandleForWriting.close()
            process.terminate()
            process.waitUntilExit()
            throw StartFailure(description: "the \(name) test server (python3) did not start" + (first.isEmpty ? "" : ": \(first)"))
        }
        self.port = port
    }

    public var isRunning: Bool { process.isRunning }

    /// Closes its input and waits for it to end.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Reads up to a newline with read(2): FileHandle's reads trap on EINTR, which the
    /// SIGCHLD of other tests' processes causes.
    public static func readLine(from fd: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let got = read(fd, &byte, 1)
            if got < 0 && errno == EINTR { continue }
            if got <= 0 || byte == 0x0A { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
