import ArgumentParser
import Foundation
import NewsstandKit
import TextLayout

/// The one way every command ends: parsed (`render` alone when it comes first), run, and
/// any error shown once, as ArgumentParser words it with our prefix: `newsstand: MESSAGE`
/// on standard error. Failures exit 1; command-line mistakes exit 64 with the usage after
/// the message; help goes to standard output.
enum CommandExit {
    static func main(_ arguments: [String]) -> Never {
        do {
            var command = try parse(arguments)
            InteractiveWait.begin(for: command)
            try command.run()
            InteractiveWait.end()
            exit(0)
        } catch {
            InteractiveWait.end()
            exit(report(error))
        }
    }

    /// `render` with valid arguments is parsed on its own: building the parser's view of
    /// every command cost more than decoding and drawing a cover (benchmarks/HISTORY.md,
    /// "Imaging after issue 6, session 2"); in its plain forms without ArgumentParser at all
    /// (`Render.quick`). Help and mistakes go through the whole tree, for its usage text.
    static func parse(_ arguments: [String]) throws -> ParsableCommand {
        if arguments.first == "render", case let words = Array(arguments.dropFirst()),
           let render = Render.quick(words) ?? (try? Render.parse(words)) { return render }
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

/// A command someone waits on at a terminal, over the network: each request gives up when
/// its server has not answered in `patience` seconds (retries included), a line on standard
/// error says what it waits for, and Ctrl-C ends it at once, with status 130 (the requests
/// are cancelled and the command unwinds: no half-written file or row; `_exit` after a
/// second if it does not, at once when no request ran). Not the agent (its transfers keep
/// their own, longer timeouts), not the shelf (curses has Ctrl-C), not `login` (it asks for
/// a password).
enum InteractiveWait {
    /// 20 s for one request; `refresh` waits 8 s for a server, so 28 feeds of a silent
    /// server (two at a time, then the rest not tried) end within 10 s.
    static func patience(for command: ParsableCommand) -> TimeInterval? {
        switch command {
        case is Refresh: 8
        case is Subscribe, is Download, is InspectFeed, is InspectArchive, is InspectArticle, is Browse,
             is CatalogCommand.Add, is CatalogCommand.List: 20
        default: nil
        }
    }

    nonisolated(unsafe) private static var interrupt: DispatchSourceSignal?   // main thread, before and after `run`

    static func begin(for command: ParsableCommand) {
        guard let patience = patience(for: command) else { return }
        NetworkWaits.shared.patience = patience
        let status = StatusLine()
        StatusLine.current = status
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            status.stop()
            // Requests cancelled: the command unwinds (removing its temporary files) and
            // ends with 130 itself; given a second at most. With none, nothing is to wait for.
            if NetworkWaits.shared.interruptAll() { Thread.sleep(forTimeInterval: 1) }
            _exit(130)
        }
        source.resume()
        interrupt = source
    }

    /// Clears the status line; ends with 130 when Ctrl-C interrupted the command.
    static func end() {
        StatusLine.current?.stop()
        if NetworkWaits.shared.interrupted { exit(130) }
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
