import Foundation

/// Codex (PyPI `codex`, a comic server: OPDS 1.2 with PSE, OPDS 2 with progression) on
/// 127.0.0.1, started by Tests/Servers/codex_server.py from the virtual environment
/// `./dev test` makes, over a library of `comics` CBZs of 9 pages ("Gull 1"…) that the script
/// makes; its one user is Codex's admin (admin, admin). `stop()` ends it.
public final class CodexTestServer: @unchecked Sendable {  // @unchecked: `process` and `input` are touched only by the test that owns it.
    public let port: Int
    public let directory: URL
    private let process: Process
    private let input: Pipe

    public static let user = "admin", password = "admin"

    public struct StartFailure: Error, CustomStringConvertible { public var description: String }

    /// Where `./dev test` installs Codex (the same path as in `dev`), with the `installed` stamp it writes last.
    public static var installation: URL {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".cache")
        return cache.appendingPathComponent("newsstand-test/codex")
    }

    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers/codex_server.py")
    }

    public init(comics: Int = 3) throws {
        let installation = Self.installation
        guard FileManager.default.fileExists(atPath: installation.appendingPathComponent("installed").path),
              FileManager.default.isExecutableFile(atPath: installation.appendingPathComponent("bin/codex").path) else {
            throw StartFailure(description: "Codex is not installed in \(installation.path): run ./dev deps (it needs PyPI once)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-codex-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, installation.path, directory.path, String(comics)]
        input = Pipe()
        let output = Pipe()
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
        let first = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(first) else {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            let log = (try? String(contentsOf: directory.appendingPathComponent("codex.log"), encoding: .utf8)).map { String($0.suffix(2000)) } ?? ""
            throw StartFailure(description: "Codex did not start: \(first.isEmpty ? "its starter ended" : first)\n\(log)")
        }
        self.port = port
    }

    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// The Authorization header of Codex's admin.
    public static var authorization: String { "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }

    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}
