import Foundation

/// Codex (PyPI `codex`, a comic server: OPDS 1.2 with PSE, OPDS 2 with progression) on
/// 127.0.0.1, started by Tests/Servers/codex_server.py from the virtual environment
/// `./dev test` makes, over a library of `comics` CBZs of 9 pages ("Gull 1"…) that the script
/// makes; its one user is Codex's admin (admin, admin). `stop()` ends it.
public final class CodexTestServer: @unchecked Sendable {  // @unchecked: `process` and `input` are touched only by the test that owns it.
    public let port: Int
    public let directory: URL
    private let server: ChildServer

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
        do {
            server = try ChildServer(python: Self.script.path, [installation.path, directory.path, String(comics)], name: "Codex")
        } catch {
            let log = (try? String(contentsOf: directory.appendingPathComponent("codex.log"), encoding: .utf8)).map { String($0.suffix(2000)) } ?? ""
            throw StartFailure(description: "\(error)\n\(log)")
        }
        port = server.port
    }

    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// The Authorization header of Codex's admin.
    public static var authorization: String { "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }

    public func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
