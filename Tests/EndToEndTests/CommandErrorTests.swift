import Foundation
import Testing

/// Every command fails the same way: one line `newsstand: MESSAGE` and exit 1; a mistake on
/// the command line says so with the same prefix, its usage after it, and exit 64.
@Suite struct CommandErrorTests {
    func run(_ arguments: String...) throws -> (output: String, status: Int32) { try run(arguments) }

    /// Runs the binary with a library of its own, standard error merged into the output.
    func run(_ arguments: [String]) throws -> (output: String, status: Int32) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-errors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        return try Tmux.runWithStatus(["env", "NEWSSTAND_HOME=\(home.path)", Tmux.binary.path] + arguments)
    }

    @Test func failuresOfDifferentCommandsReadAlikeAndExitAlike() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).png").path
        let failures = [try run("remove", "no-such-issue"), try run("render", missing), try run("inspect", "feed", missing)]
        for failure in failures {
            let lines = failure.output.split(separator: "\n")
            #expect(failure.status == 1, "\(failure.output)")
            #expect(lines.count == 1 && lines[0].hasPrefix("newsstand: "), "\(failure.output)")
        }
        #expect(failures[0].output.contains("no-such-issue"))
        #expect(failures[1].output.contains(missing) && failures[2].output.contains(missing))
    }

    @Test(arguments: [["render", "--colors", "8", "a.png"], ["read", "an-issue", "--colors", "8"],
                      ["shelf", "--colors", "8"], ["--colors", "8"]])
    func colorsRefusesAnUnknownValueWithTheChoicesInEveryCommand(_ arguments: [String]) throws {
        let result = try run(arguments)
        let lines = result.output.split(separator: "\n")
        #expect(result.status == 64, "\(arguments): \(result.output)")
        #expect(lines.first?.hasPrefix("newsstand: The value '8' is invalid for '--colors") == true, "\(result.output)")
        #expect(lines.first?.contains("'auto', 'truecolor', '256', '16' or 'none'") == true, "\(result.output)")
        #expect(result.output.contains("Usage: newsstand "), "\(result.output)")
    }
}
