import Foundation
import Testing

/// A copy of the program outside the checkout finds its themes and samples in
/// `../share/newsstand`, and says where it looked when they are nowhere (issue #21, item 12).
@Suite(.serialized) struct InstalledResourcesTests {
    /// `PREFIX/bin/newsstand`, a copy of the built binary in a folder of its own.
    static func install(into prefix: URL) throws -> URL {
        let bin = prefix.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let binary = bin.appendingPathComponent("newsstand")
        // Copied by `cp`, not in this process: a child another test starts meanwhile would
        // inherit the copy's open file and exec would fail with "text file busy" (126).
        _ = try Tmux.run(["cp", Tmux.binary.path, binary.path])
        return binary
    }

    /// Runs `binary` from `/`, so the current directory cannot lead it to the checkout.
    static func run(_ sandbox: Sandbox, _ binary: URL, _ arguments: [String]) throws -> (output: String, status: Int32) {
        let command = (["env"] + sandbox.environment + [binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try Tmux.runWithStatus(["sh", "-c", "cd / && exec \(command)"])
    }

    @Test func aCopyWithShareNewsstandBesideItFindsThemesAndSamples() throws {
        let sandbox = Sandbox()
        let binary = try Self.install(into: sandbox.home.appendingPathComponent("prefix"))
        let share = sandbox.home.appendingPathComponent("prefix/share/newsstand")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        for folder in ["themes", "sample-feed"] {
            try FileManager.default.copyItem(at: Sandbox.repository.appendingPathComponent(folder), to: share.appendingPathComponent(folder))
        }
        // The samples come with the shelf's first interactive start: in tmux, from `/`.
        let tmux = Tmux()
        defer { tmux.stop() }
        let start = (["env"] + sandbox.environment + ["TERM=xterm-256color", "LANG=C.UTF-8", binary.path]).map { "'\($0)'" }.joined(separator: " ")
        try tmux.start("cd / && exec \(start)")
        #expect(tmux.waitFor("Tidewater") != nil, "\(tmux.lastScreen)")
        try tmux.send("Q")
        #expect(tmux.waitUntilExited())
        let issues = try Self.run(sandbox, binary, ["issues"])
        #expect(issues.status == 0, "\(issues.output)")
        #expect(issues.output.contains("The Ferrybridge Courier\t"), "no samples: \(issues.output)")
        #expect(issues.output.contains("The Lantern\tlantern-2026-09\t"), "no PDF sample: \(issues.output)")
        #expect(issues.output.contains("Wendle Valley Wire\tedition:"), "no news sample: \(issues.output)")
        #expect(!issues.output.contains("looked"), "\(issues.output)")
        // A bundled theme other than the built-in one loads (standard input is no terminal,
        // so the shelf stops right after, for another reason).
        sandbox.environment.append("TERM=xterm-256color")
        let shelf = try Self.run(sandbox, binary, ["--theme", "high-contrast"])
        #expect(!shelf.output.contains("theme"), "\(shelf.output)")
    }

    @Test func aCopyWithNothingSaysWhereItLookedOnce() throws {
        let sandbox = Sandbox()
        let binary = try Self.install(into: sandbox.home.appendingPathComponent("prefix"))
        let issues = try Self.run(sandbox, binary, ["issues"])
        #expect(issues.status == 0, "\(issues.output)")
        let said = issues.output.components(separatedBy: "\n").filter { $0.contains("looked in") }
        #expect(said.count == 1, "\(issues.output)")
        let line = said.first ?? ""
        #expect(line.hasPrefix("newsstand: "), "\(line)")
        #expect(line.contains(sandbox.home.appendingPathComponent("prefix/share/newsstand").path), "\(line)")
        #expect(line.contains("NEWSSTAND_RESOURCES"), "\(line)")
    }
}
