import Foundation

/// A word looked up in the dictionary the user has installed: `sdcv` (StarDict), else `dict`
/// (dictd), found on `PATH`, run without a shell, given the word as one argument, its
/// output cut at `outputLimit` bytes and the program stopped after `timeLimit` seconds
/// (`dict` may ask a server). Run off the run loop (`Effect.define`).
enum WordDictionary {
    static let outputLimit = 64 << 10
    static let timeLimit: TimeInterval = 5

    static func define(_ word: String, environment: [String: String]) -> Definition {
        let commands: [(program: String, arguments: [String])] = [
            ("sdcv", ["--non-interactive", "--utf8-output", "--utf8-input", "--exact-search", "--", word]),
            ("dict", ["--", word]),
        ]
        var found = false
        for command in commands {
            guard let program = find(command.program, environment: environment) else { continue }
            found = true
            guard let output = run(program, command.arguments, environment: environment) else { continue }
            let text = output.trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty, !saysNothingFound(text) { return .found(text) }
        }
        return found ? .notFound : .noDictionary
    }

    /// sdcv says "Nothing similar to …" and exits 0 when it has no entry.
    static func saysNothingFound(_ text: String) -> Bool {
        text.hasPrefix("Nothing similar to") || text.hasPrefix("No definitions found")
    }

    static func find(_ program: String, environment: [String: String]) -> URL? {
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let file = URL(fileURLWithPath: String(directory)).appendingPathComponent(program)
            if FileManager.default.isExecutableFile(atPath: file.path) { return file }
        }
        return nil
    }

    /// The program's standard output when it exits 0; nil when it fails or takes too long.
    private static func run(_ program: URL, _ arguments: [String], environment: [String: String]) -> String? {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        // Stopped when it takes too long: its output ends, and so does the reading below.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGTERM) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog)
        var data = Data()
        let handle = output.fileHandleForReading
        while data.count < outputLimit, case let chunk = handle.availableData, !chunk.isEmpty { data += chunk }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        watchdog.cancel()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data.prefix(outputLimit), as: UTF8.self)
    }
}
