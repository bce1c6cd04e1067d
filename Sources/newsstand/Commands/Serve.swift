import ArgumentParser
import Foundation
import NewsstandKit
import Serve

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

    func validate() throws {
        guard let address = ListenAddress(listen) else {
            throw ValidationError("--listen takes HOST:PORT or PORT with an IPv4 address, not '\(listen)'")
        }
        if (user == nil) != !passwordStdin { throw ValidationError("--user and --password-stdin go together") }
        if !address.isLoopback, user == nil {
            throw ValidationError("listening on \(address.host) lets other machines in: give --user and --password-stdin")
        }
    }

    func run() throws {
        guard let address = ListenAddress(listen) else { return }
        var access = ServeAccess.open
        if let user {
            guard let password = readLine(strippingNewline: true), !password.isEmpty else {
                throw CommandFailure("--password-stdin read no password")
            }
            access = ServeAccess(user: user, password: password, allowsBasic: insecure)
        }
        let library = try Context.library()
        var options = ShelfServer.Options(address: address, access: access) { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        if let maxHeaderBytes { options.maxHeaderBytes = maxHeaderBytes }
        let server = try ShelfServer(library: library, options: options)
        try ServeLoop.run(server, announcing: address)
    }
}

/// Runs the server until SIGINT or SIGTERM, on the main thread's behalf.
enum ServeLoop {
    static func run(_ server: ShelfServer, announcing address: ListenAddress) throws {
        let finished = DispatchSemaphore(value: 0)
        let failure = Failure()
        let task = Task {
            do { try await server.run() } catch is CancellationError {} catch { failure.set(error) }
            finished.signal()
        }
        Task {
            if let port = try? await server.listeningPort() {
                FileHandle.standardError.write(Data("newsstand: serving the shelf at http://\(address.host):\(port)/opds (OPDS 1.2) and /opds2 (OPDS 2.0)\n".utf8))
            }
        }
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { Task { await server.stop(); task.cancel() } }
            source.resume()
            sources.append(source)
        }
        finished.wait()
        if let error = failure.error { throw CommandFailure("cannot serve on \(address): \(error.localizedDescription)") }
    }

    private final class Failure: @unchecked Sendable {  // written once by the server's task before `finished` is signalled
        var error: (any Error)?
        func set(_ error: any Error) { self.error = error }
    }
}
