import ArgumentParser
import Foundation
import TextLayout

/// The one way every command ends: parsed (`render` alone when it comes first), run, and
/// any error shown once, as ArgumentParser words it with our prefix: `newsstand: MESSAGE`
/// on standard error. Failures exit 1; command-line mistakes exit 64 with the usage after
/// the message; help goes to standard output.
enum CommandExit {
    static func main(_ arguments: [String]) -> Never {
        do {
            var command = try parse(arguments)
            try command.run()
            exit(0)
        } catch {
            exit(report(error))
        }
    }

    /// `render` with valid arguments is parsed on its own: building the parser's view of
    /// every command cost more than decoding and drawing a cover (benchmarks/HISTORY.md,
    /// "Imaging after issue 6, session 2"). Help and mistakes go through the whole tree,
    /// for its usage text.
    static func parse(_ arguments: [String]) throws -> ParsableCommand {
        if arguments.first == "render", let render = try? Render.parse(Array(arguments.dropFirst())) { return render }
        do {
            return try Newsstand.parseAsRoot(arguments)
        } catch {
            // Only now: naming every command costs as much as parsing (ArgumentParser reflects on each).
            if let first = arguments.first { try refuseUnknownCommand(first) }
            throw error
        }
    }

    /// The shelf, the default command, takes no words: a first word that names no command
    /// is a command mistyped, and is said so with the commands there are.
    static func refuseUnknownCommand(_ word: String) throws {
        guard !word.hasPrefix("-") else { return }
        let commands = Newsstand.configuration.subcommands.map { $0._commandName }
        guard !commands.contains(word), word != "help" else { return }
        throw ValidationError("'\(word)' is not a command; the commands are \(commands.joined(separator: ", "))")
    }

    /// Writes what `error` says and returns the exit status. The message is cleaned: it
    /// quotes what was typed or received.
    static func report(_ error: Error) -> Int32 {
        let code = Newsstand.exitCode(for: error)
        let message = Newsstand.fullMessage(for: error)
        if code == .success {
            print(message)
        } else if !message.isEmpty {   // empty for `ExitCode`: the command has said why
            FileHandle.standardError.write(Data((Sanitizer.clean(message, multiline: true) + "\n").utf8))
        }
        return code.rawValue
    }
}

/// A failure a command finds itself, in words the user can act on.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// "newsstand: MESSAGE" on standard error. Messages often quote strangers' text (names
/// typed or received, archive entries): it is cleaned, so no escape sequence reaches the terminal.
func printProblem(_ message: String) {
    FileHandle.standardError.write(Data("newsstand: \(Sanitizer.clean(message, multiline: true))\n".utf8))
}
