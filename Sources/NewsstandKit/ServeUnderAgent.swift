import CSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `newsstand serve --agent`: the shelf served by the agent, so it outlives the shelf and
/// the terminal. The command keeps what to serve in the state folder (`serve.json`; the
/// password in the credential store) and starts the agent; an agent that finds it runs
/// `newsstand-serve` as its child while it runs (watching, so it does not end when the queue
/// is empty) and stops it when it stops. The child ends with the agent even when the agent is
/// killed: its standard input is a pipe the agent holds open, and `--with-parent` stops the
/// server when that pipe closes.
public enum ServeUnderAgent {
    public struct Settings: Codable, Sendable, Equatable {
        public var listen: String
        public var user: String?
        public var insecure: Bool
        public init(listen: String, user: String?, insecure: Bool) { (self.listen, self.user, self.insecure) = (listen, user, insecure) }
    }

    /// The server, `newsstand-serve`, beside this program (symbolic links followed).
    public static var server: URL {
        URL(fileURLWithPath: AgentLauncher.currentExecutable()).deletingLastPathComponent().appendingPathComponent("newsstand-serve")
    }

    static func file(_ paths: Paths) -> URL { paths.state.appendingPathComponent("serve.json") }
    static let credentialKey = "serve:agent"

    /// Keeps what the agent serves (the password, when there is a user, in the credential store).
    public static func keep(_ settings: Settings, password: String?, paths: Paths) throws {
        if let user = settings.user, let password {
            try CredentialStore(paths: paths).save(.basic(user: user, password: password), for: credentialKey)
        }
        try FileManager.default.createDirectory(at: paths.state, withIntermediateDirectories: true)
        try JSONEncoder().encode(settings).write(to: file(paths), options: .atomic)
    }

    /// The agent serves no more (from its next start).
    public static func forget(paths: Paths) {
        try? FileManager.default.removeItem(at: file(paths))
        _ = try? CredentialStore(paths: paths).remove(credentialKey)
    }

    /// What the agent is asked to serve, if anything.
    public static func wanted(paths: Paths) -> Settings? {
        (try? Data(contentsOf: file(paths))).flatMap { try? JSONDecoder().decode(Settings.self, from: $0) }
    }

    /// The server the agent runs: started with `start`, ended with `stop`.
    public final class Child: Sendable {
        let pid: pid_t
        /// The write end of the child's standard input: open while the agent lives.
        let lifeline: Int32
        init(pid: pid_t, lifeline: Int32) { (self.pid, self.lifeline) = (pid, lifeline) }

        /// SIGTERM, then waits for it to end (the server stops listening at once).
        public func stop() {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            close(lifeline)
        }
    }

    /// Starts `server` (`newsstand-serve`) with the kept settings, its output into the agent's
    /// log; nil when nothing is to be served or it cannot start (said in the log).
    public static func start(paths: Paths, server: URL = server, log: (String) -> Void) -> Child? {
        guard let settings = wanted(paths: paths) else { return nil }
        var arguments = [server.path, settings.listen, "--with-parent"]
        var password: String?
        if let user = settings.user {
            guard case .basic(_, let secret)? = try? CredentialStore(paths: paths).credentials(forHost: credentialKey) else {
                log("the password to serve the shelf is not kept: run `newsstand serve --agent` again")
                return nil
            }
            arguments += ["--user", user] + (settings.insecure ? ["--insecure"] : [])
            password = secret
        }
        // The password goes into the pipe before the server starts (a line fits its buffer),
        // so a server that ends at once cannot make this write raise SIGPIPE in the agent.
        var input: [Int32] = [0, 0]
        guard pipe2(&input, O_CLOEXEC) == 0 else { return nil }
        if let password { _ = (password + "\n").withCString { write(input[1], $0, strlen($0)) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        // Nothing else of the agent's (as every child the project starts): its stdout and
        // stderr, the log, stay.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, server.path, &actions, nil, &argv, environ)
        close(input[0])
        guard status == 0 else {
            close(input[1])
            log("cannot start \(server.path) to serve the shelf: \(String(cString: strerror(status)))")
            return nil
        }
        return Child(pid: pid, lifeline: input[1])
    }
}
