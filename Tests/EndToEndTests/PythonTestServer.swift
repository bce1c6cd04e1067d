import Foundation

/// A test server of the project's own, written in Python, on 127.0.0.1: its `script` runs in
/// a directory of its own with `arguments`, prints the port it listens on as its first line,
/// and ends when its standard input closes (`stop`).
final class PythonTestServer {
    let port: Int
    let directory: URL
    private let process: Process
    private let input: Pipe

    /// `arguments` are given the server's directory (files it writes go there).
    init(script: String, named name: String, arguments: (URL) -> [String] = { _ in [] }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("server.py")
        try Data(script.utf8).write(to: file)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", file.path] + arguments(directory)
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw TmuxError(message: "the \(name) test server (python3) did not start")
        }
        self.port = port
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}
