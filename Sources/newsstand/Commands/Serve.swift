import ArgumentParser
import Foundation
import NewsstandKit
import PDF

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

    /// For the tests of the cap: a request whose headers are longer is refused.
    @Option(help: .hidden)
    var maxHeaderBytes: Int?

    /// For the tests of slow clients: seconds a client may send or take nothing.
    @Option(help: .hidden)
    var clientTimeout: Double?

    func validate() throws {
        if (user == nil) != !passwordStdin { throw ValidationError("--user and --password-stdin go together") }
        let host = listen.split(separator: ":").count == 2 ? String(listen.split(separator: ":")[0]) : "127.0.0.1"
        if !host.hasPrefix("127."), user == nil {
            throw ValidationError("listening on \(host) lets other machines in: give --user and --password-stdin")
        }
    }

    /// The server is `newsstand-serve`, beside this program (it alone links the HTTP server
    /// library); it reads the password from the same standard input.
    func run() throws {
        let server = PDFWorker.beside("newsstand-serve")
        var arguments = [server.path, listen]
        if let user { arguments += ["--user", user] + (insecure ? ["--insecure"] : []) }
        if let maxHeaderBytes { arguments += ["--max-header-bytes", String(maxHeaderBytes)] }
        if let clientTimeout { arguments += ["--client-timeout", String(clientTimeout)] }
        var argv = arguments.map { strdup($0) } + [nil]
        execv(server.path, &argv)
        throw CommandFailure("cannot start \(server.path): \(String(cString: strerror(errno)))")
    }
}
