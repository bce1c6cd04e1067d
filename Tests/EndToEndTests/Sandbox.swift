import Foundation

/// A fresh `NEWSSTAND_HOME` for one test, and the binary run in it as a person types a
/// command (standard error merged into the output). Removed when the test ends.
final class Sandbox {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-sandbox-\(UUID().uuidString)")
    /// `NAME=value` pairs every run gets.
    var environment: [String]

    /// The checkout: the sample feeds and themes live here.
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    init(_ environment: [String] = []) {
        self.environment = ["NEWSSTAND_HOME=\(home.path)"] + environment
    }

    func run(_ arguments: String...) throws -> (output: String, status: Int32) { try run(arguments) }

    func run(_ arguments: [String], binary: URL = Tmux.binary) throws -> (output: String, status: Int32) {
        try Tmux.runWithStatus(["env"] + environment + [binary.path] + arguments)
    }

    /// The library's database, for what no command shows (a saved reading place).
    func sql(_ statement: String) throws -> String {
        try Tmux.run(["sqlite3", home.appendingPathComponent("data/library.sqlite").path, statement])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit { try? FileManager.default.removeItem(at: home) }
}
