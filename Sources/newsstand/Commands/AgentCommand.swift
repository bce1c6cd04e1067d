import ArgumentParser
import Foundation
import Logging
import NewsstandKit

struct AgentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "agent", abstract: "Run the download agent in the foreground.")

    @Flag(help: "Keep running when the queue is empty.")
    var watch = false

    @Option(help: "Transfers at once (default: max_concurrent_downloads in config.toml, else 2).")
    var concurrent: Int?

    func run() throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let library = try Context.library()
        let config: Config
        do { config = try Config.load(paths: library.paths) } catch { throw CommandFailure("\(error)") }
        var options = Agent.Options(config: config)
        options.watch = watch
        if let concurrent { options.maxConcurrentTransfers = max(1, concurrent) }
        let agent = Agent(library: library, options: options)
        AgentSignals.install { agent.stop() }
        switch try agent.run() {
        case .alreadyRunning:
            FileHandle.standardError.write(Data("newsstand: an agent is already running for this library\n".utf8))
        case .finished:
            break
        }
    }
}

/// SIGTERM/SIGINT stop the agent cleanly: transfers stay resumable.
enum AgentSignals {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install(_ stop: @escaping () -> Void) {
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { stop() }
            source.resume()
            sources.append(source)
        }
        signal(SIGHUP, SIG_IGN)
    }
}
