import ArgumentParser
import Foundation
import NewsstandKit

/// `newsstand serve`: the shelf as OPDS catalogs for e-readers on the network.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the shelf to e-readers as OPDS 1.2 (/opds) and OPDS 2.0 (/opds2) catalogs.",
        discussion: """
            Listens on 127.0.0.1:8080 unless told otherwise. Listening on another address needs --user and \
            --password-stdin; devices then sign in with HTTP Digest. Basic sends the password as it is over plain \
            http, so it is accepted only with --insecure.
            """)

    @Option(help: "Where to listen: HOST:PORT or PORT (default 127.0.0.1:8080).")
    var listen = "127.0.0.1:8080"

    @Option(help: "The user devices sign in as.")
    var user: String?

    @Flag(help: "Read the password from the first line of standard input.")
    var passwordStdin = false

    @Flag(help: "Also accept Basic sign-in, which sends the password unencrypted over http.")
    var insecure = false

    @Flag(help: "Serve under the agent, which keeps serving after this command, the shelf and the terminal end (until the agent is stopped).")
    var agent = false

    @Flag(help: "Stop asking the agent to serve the shelf (from the agent's next start).")
    var agentOff = false

    /// For the tests of the cap: a request whose headers are longer is refused.
    @Option(help: .hidden)
    var maxHeaderBytes: Int?

    /// For the tests of slow clients: seconds a client may send or take nothing.
    @Option(help: .hidden)
    var clientTimeout: Double?

    func validate() throws {
        guard let address = ListenAddress(listen) else {
            throw ValidationError("--listen takes HOST:PORT or PORT with an IPv4 address, not '\(listen)'")
        }
        if (user == nil) != !passwordStdin { throw ValidationError("--user and --password-stdin go together") }
        if !address.isLoopback, user == nil {
            throw ValidationError("listening on \(address.host) lets other machines in: give --user and --password-stdin")
        }
    }

    /// The server is `newsstand-serve`, beside this program (it alone links the HTTP server
    /// library); it reads the password from the same standard input.
    func run() throws {
        if agentOff {
            let paths = try Context.library().paths
            let wasServing = ServeUnderAgent.wanted(paths: paths) != nil
            ServeUnderAgent.forget(paths: paths)
            // The agent stops as on Ctrl-C (its transfers resume at its next start, which the
            // next download makes), and its server with it.
            if wasServing, let agent = AgentLock.holder(path: paths.agentLock), kill(agent, SIGTERM) == 0 {
                print("The agent serves the shelf no more: stopped it (it starts again for the next download).")
            } else {
                print("The agent does not serve the shelf.")
            }
            return
        }
        if agent { return try startUnderAgent() }
        // The catalogs' search reads the library's index, which the agent keeps: issues added
        // while none ran are indexed before serving (`newsstand-serve` reads no issue's text).
        let library = try Context.library()
        if library.store.isReadOnly == false { try SearchCommand.catchUp(library) }
        let server = ServeUnderAgent.server
        var arguments = [server.path, listen]
        if let user { arguments += ["--user", user] + (insecure ? ["--insecure"] : []) }
        if let maxHeaderBytes { arguments += ["--max-header-bytes", String(maxHeaderBytes)] }
        if let clientTimeout { arguments += ["--client-timeout", String(clientTimeout)] }
        var argv = arguments.map { strdup($0) } + [nil]
        execv(server.path, &argv)
        throw CommandFailure("cannot start \(server.path): \(String(cString: strerror(errno)))")
    }

    /// Keeps what to serve for the agent and starts it (watching, so it stays).
    func startUnderAgent() throws {
        var password: String?
        if user != nil {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw CommandFailure("--password-stdin read no password") }
            password = line
        }
        let paths = try Context.library().paths
        try ServeUnderAgent.keep(.init(listen: listen, user: user, insecure: insecure), password: password, paths: paths)
        if AgentLauncher.startIfNeeded(paths: paths, extraArguments: ["--watch"]) {
            print("The agent serves the shelf at http://\(listen)/opds (its log: \(paths.agentLog.path)).")
        } else {
            print("An agent is running for this library already: it serves the shelf from its next start.")
        }
    }
}
