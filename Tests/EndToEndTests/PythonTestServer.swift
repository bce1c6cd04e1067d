import Foundation
import TestSupport

/// A test server of the project's own, written in Python, on 127.0.0.1: its `script` runs in
/// a directory of its own with `arguments`, prints the port it listens on as its first line,
/// and ends when its standard input closes (`stop`).
final class PythonTestServer {
    let port: Int
    let directory: URL
    private let server: ChildServer

    /// `arguments` are given the server's directory (files it writes go there).
    init(script: String, named name: String, arguments: (URL) -> [String] = { _ in [] }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("server.py")
        try Data(script.utf8).write(to: file)
        server = try ChildServer(python: file.path, arguments(directory), name: name)
        port = server.port
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
