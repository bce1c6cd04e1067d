import Foundation
import Testing

/// On a terminal that cannot place the cursor (`TERM=dumb`) the shelf and the reader
/// refuse in one line that points at what works there (issue #21, item 9).
@Suite(.serialized) struct DumbTerminalTests {
    @Test(arguments: [[], ["read", "courier-2026-11-20"]]) func theShelfAndTheReaderRefuseInOneLine(_ arguments: [String]) throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=\(Sandbox.repository.path)", "TERM=dumb"], samples: true)
        if !arguments.isEmpty { #expect(try sandbox.run("download", arguments[1], "--wait").status == 0) }
        let tmux = Tmux()
        defer { tmux.stop() }
        // A real terminal on standard input and output, so nothing else stops the program first.
        try FileManager.default.createDirectory(at: sandbox.home, withIntermediateDirectories: true)
        let errors = sandbox.home.appendingPathComponent("stderr.txt")
        let command = (["env"] + sandbox.environment + [Tmux.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        try tmux.start("\(command) 2>'\(errors.path)'; echo \"exit status $?\"; sleep 5")
        let screen = tmux.waitFor("exit status")
        #expect(screen?.contains("exit status 1") == true, "\(arguments) did not refuse:\n\(tmux.lastScreen)")
        let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(text.split(separator: "\n").count == 1, "expected one line, got:\n\(text)")
        #expect(text.hasPrefix("newsstand: ") && text.contains("newsstand issues") && text.contains("read --plain"), "\(text)")
    }
}
