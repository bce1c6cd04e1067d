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

    /// Whether the sample publications are still to be subscribed before the first command.
    private var samplesWanted: Bool

    /// `samples`: the bundled publications subscribed before the first command runs, as the
    /// shelf's first interactive start would (no command subscribes them).
    init(_ environment: [String] = [], samples: Bool = false) {
        self.environment = ["NEWSSTAND_HOME=\(home.path)"] + environment
        samplesWanted = samples
    }

    func run(_ arguments: String...) throws -> (output: String, status: Int32) { try run(arguments) }

    func run(_ arguments: [String], binary: URL = Tmux.binary) throws -> (output: String, status: Int32) {
        if samplesWanted {
            samplesWanted = false
            try subscribeSamples()
        }
        return try Tmux.runWithStatus(["env"] + environment + [binary.path] + arguments)
    }

    /// Subscribes the bundled sample publications, as the shelf's first interactive start
    /// does (no command does it).
    func subscribeSamples() throws { try Self.subscribeSamples(environment: environment) }

    /// The same for a test that runs the binary itself, in `environment` (`NAME=value`).
    static func subscribeSamples(environment: [String]) throws {
        let samples = repository.appendingPathComponent("sample-feed")
        let list = try String(contentsOf: samples.appendingPathComponent("publications.txt"), encoding: .utf8)
        for line in list.split(separator: "\n") where !line.hasPrefix("#") && !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let result = try Tmux.runWithStatus(["env"] + environment + [Tmux.binary.path, "subscribe", samples.appendingPathComponent(String(line)).path])
            guard result.status == 0 else { throw SampleFailure(description: "subscribe \(line): \(result.output)") }
        }
    }

    struct SampleFailure: Error, CustomStringConvertible { var description: String }

    /// A sandbox whose agent is downloading `id`, started by `download`: a 6 MiB issue of a
    /// feed of its own, copied 4 KiB every 250 ms (minutes: the test ends it).
    static func downloadingSlowly(_ id: String, title: String) throws -> Sandbox {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_FILE_THROTTLE_MS=250"])
        let feeds = sandbox.home.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        let fixture = try IssueFeedFixture(in: feeds, id: id, title: title, payloadBytes: 6 << 20)
        for command in [["subscribe", fixture.feed.path], ["download", id]] {
            let result = try sandbox.run(command)
            guard result.status == 0 else { throw SampleFailure(description: "\(command[0]): \(result.output)") }
        }
        return sandbox
    }

    /// The library's database, for what no command shows (a saved reading place).
    func sql(_ statement: String) throws -> String {
        try Tmux.run(["sqlite3", home.appendingPathComponent("data/library.sqlite").path, statement])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `newsstand login URL --user USER --password-stdin` with `password` on standard input.
    func login(_ url: String, user: String, password: String) throws -> (output: String, status: Int32) {
        let input = home.deletingLastPathComponent().appendingPathComponent("password-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try (password + "\n").write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        return try Tmux.runWithStatus(["sh", "-c", "exec env \"$@\" < \"$0\"", input.path] + environment
                                      + [Tmux.binary.path, "login", url, "--user", user, "--password-stdin"])
    }

    /// Paths (relative to the home) of the files whose bytes contain `text`.
    func filesContaining(_ text: String) throws -> [String] {
        let needle = Data(text.utf8)
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(at: home, includingPropertiesForKeys: [.isRegularFileKey])
        while let file = enumerator?.nextObject() as? URL {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let data = try? Data(contentsOf: file), data.range(of: needle) != nil else { continue }
            found.append(String(file.standardizedFileURL.path.dropFirst(home.standardizedFileURL.path.count + 1)))
        }
        return found.sorted()
    }

    deinit { try? FileManager.default.removeItem(at: home) }
}
