import ArgumentParser
import Foundation
import Logging
import NewsstandKit
import Shelf

struct AgentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "agent", abstract: "Run the download agent in the foreground.")

    @Flag(help: "Keep running when the queue is empty.")
    var watch = false

    /// Unconditional, so `-3` is read as the value it is (and refused) rather than as an option.
    @Option(parsing: .unconditional, help: "Transfers at once, 1 to 16 (default: max_concurrent_downloads in config.toml, else 2).")
    var concurrent: Int?

    func validate() throws {
        if let concurrent, !(1...16).contains(concurrent) {
            throw ValidationError("--concurrent must be a whole number from 1 to 16, not \(concurrent)")
        }
    }

    func run() throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        guard let library = try Self.libraryWithRoomToWork(watching: watch) else { return }
        let config = try Config.load(paths: library.paths)
        var options = Agent.Options(config: config)
        // An agent asked to serve the shelf (`serve --agent`) stays, and serves while it runs.
        options.watch = watch || ServeUnderAgent.wanted(paths: library.paths) != nil
        options.searchTexts = IssueSearchTexts()
        if let concurrent { options.maxConcurrentTransfers = concurrent }
        let agent = Agent(library: library, options: options)
        AgentSignals.install { agent.stop() }
        let served = AgentLock.isHeld(path: library.paths.agentLock) ? nil
            : ServeUnderAgent.start(paths: library.paths, log: printProblem)
        defer { served?.stop() }
        switch try agent.run() {
        case .alreadyRunning:
            printProblem("an agent is already running for this library")
        case .finished:
            break
        }
    }
}

extension AgentCommand {
    /// How often an agent started on a full disk looks for space again.
    static let fullDiskPollInterval: TimeInterval = {
        let milliseconds = ProcessInfo.processInfo.environment["NEWSSTAND_FULL_DISK_POLL_MS"].flatMap(Double.init)
        return (milliseconds ?? 5000) / 1000
    }()

    /// The library, writable. Started on a full disk (the library opens read-only), the
    /// agent says so once and waits for space instead of failing: queued downloads go on
    /// by themselves once something is deleted. With nothing queued and no `--watch`,
    /// there is nothing to wait for: nil, and the agent ends.
    static func libraryWithRoomToWork(watching: Bool) throws -> Library? {
        var said = false
        while true {
            let library: Library
            do {
                library = try Context.library()
            } catch LibraryError.diskFull(let path, let free) {
                // A first start on a full disk: no library file yet.
                if !said { printProblem("\(LibraryError.diskFull(path: path, freeBytes: free)); waiting for space") }
                said = true
                Thread.sleep(forTimeInterval: fullDiskPollInterval)
                continue
            }
            guard let full = library.store.diskFull else {
                if said { printProblem("there is room on the disk again: the agent carries on") }
                return library
            }
            if !watching, (try? library.downloads.pendingDownloads().isEmpty) == true {
                printProblem("\(full); nothing is queued, so the agent stops")
                return nil
            }
            if !said { printProblem("\(full); waiting for space") }
            said = true
            Thread.sleep(forTimeInterval: fullDiskPollInterval)
        }
    }
}

/// SIGTERM/SIGINT stop the agent cleanly: transfers stay resumable.
enum AgentSignals {
    // Main thread only: `install` appends, once, before the agent runs; it keeps the sources alive.
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
