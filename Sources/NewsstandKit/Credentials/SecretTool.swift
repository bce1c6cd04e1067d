import Foundation

/// The system keyring (a Secret Service: GNOME Keyring, KWallet, KeePassXC) through
/// libsecret's `secret-tool`, run directly (never through a shell) with a time limit, the
/// secret passed on standard input and read from standard output, never in arguments.
/// Items carry `application=newsstand`, the host, and `profile` (the configuration
/// folder), so two `NEWSSTAND_HOME`s keep apart.
struct SecretTool: Sendable {
    let executable: URL
    let environment: [String: String]
    let profile: String
    /// A keyring that does not answer in this time (locked, prompting, hung) counts as none.
    var timeout: TimeInterval = 5

    /// Nil when `secret-tool` is not on PATH.
    init?(environment: [String: String], profile: String) {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        guard let found = path.split(separator: ":").filter({ $0.hasPrefix("/") })
            .map({ URL(fileURLWithPath: String($0)).appendingPathComponent("secret-tool") })
            .first(where: { access($0.path, X_OK) == 0 }) else { return nil }
        executable = found
        self.environment = environment
        self.profile = profile
    }

    /// Whether a Secret Service answers: a lookup that finds nothing says nothing on standard error.
    var isAvailable: Bool {
        guard let result = try? run(["lookup", "application", "newsstand", "probe", "1"], timeout: min(timeout, 3)) else { return false }
        return result.status == 0 || (result.status == 1 && result.error.isEmpty)
    }

    private func attributes(host: String) -> [String] {
        ["application", "newsstand", "profile", profile, "host", host]
    }

    func lookup(host: String) throws -> String? {
        let result = try run(["lookup"] + attributes(host: host))
        guard result.status == 0 else {
            if result.error.isEmpty { return nil }
            throw failure("read", result)
        }
        return result.output
    }

    func store(host: String, secret: String) throws {
        let result = try run(["store", "--label=Newsstand: \(host)"] + attributes(host: host), input: secret)
        guard result.status == 0 else { throw failure("save to", result) }
    }

    func clear(host: String) throws -> Bool {
        guard try lookup(host: host) != nil else { return false }
        let result = try run(["clear"] + attributes(host: host))
        guard result.status == 0 else { throw failure("remove from", result) }
        return true
    }

    private func failure(_ verb: String, _ result: Result) -> CredentialStoreError {
        let why = result.error.split(whereSeparator: \.isNewline).first.map { ": " + HTTPAuthenticationRequired.printable(String($0)) } ?? ""
        return CredentialStoreError("cannot \(verb) the system keyring (secret-tool exited with \(result.status))\(why)")
    }

    struct Result { var status: Int32; var output: String; var error: String }

    /// Runs secret-tool; a run over the time limit is ended and reported.
    private func run(_ arguments: [String], input: String? = nil, timeout: TimeInterval? = nil) throws -> Result {
        let limit = timeout ?? self.timeout
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do { try process.run() } catch {
            throw CredentialStoreError("cannot run \(executable.path): \(error.localizedDescription)")
        }
        // Both outputs are read on their own threads, so a full pipe never blocks the child.
        let output = PipeReader(stdout.fileHandleForReading)
        let errors = PipeReader(stderr.fileHandleForReading)
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        if done.wait(timeout: .now() + limit) == .timedOut {
            process.terminate()
            if done.wait(timeout: .now() + 1) == .timedOut { kill(process.processIdentifier, SIGKILL) }
            throw CredentialStoreError("the system keyring did not answer within \(Int(limit)) s (secret-tool \(arguments[0]))")
        }
        return Result(status: process.terminationStatus, output: String(decoding: output.finish(), as: UTF8.self),
                      error: String(decoding: errors.finish(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Reads a pipe to its end on a thread of its own.
// @unchecked: `data` is written once by the reading thread and read, both under `lock`.
private final class PipeReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            let read = handle.readDataToEndOfFile()
            lock.withLock { data = read }
            done.signal()
        }
    }

    /// The bytes, once the writer closed its end (at most 2 s after the process ended).
    func finish() -> Data {
        _ = done.wait(timeout: .now() + 2)
        return lock.withLock { data }
    }
}
