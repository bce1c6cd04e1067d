import Dispatch
import Foundation
import NewsstandKit
import PDF
import Serve
import TextLayout

// `newsstand serve`'s server, an executable of its own so that no other process links the
// HTTP server library (FlyingFox brings FoundationNetworking, and with it libcurl and ~25
// libraries every `newsstand` command would otherwise load at start). `newsstand serve`
// checks its options and hands over here with the same stdin:
//
//     newsstand-serve HOST:PORT [--user USER [--insecure]] [--max-header-bytes N] [--client-timeout SECONDS] [--with-parent]
//
// With --user, the password is the first line of standard input. With --with-parent (the
// agent's child, `ServeUnderAgent`), the server stops when standard input closes: when the
// agent ends, however it ends.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("newsstand: \(Sanitizer.clean(message, multiline: true))\n".utf8))
    exit(1)
}

var arguments = CommandLine.arguments.dropFirst()
guard let listen = arguments.popFirst(), let address = ListenAddress(listen) else {
    fail("--listen takes HOST:PORT or PORT with an IPv4 address, not '\(CommandLine.arguments.dropFirst().first ?? "")'")
}
var user: String?
var insecure = false
var maxHeaderBytes: Int?
var clientTimeout: Double?
var withParent = false
while let argument = arguments.popFirst() {
    switch argument {
    case "--user":
        guard let name = arguments.popFirst(), !name.isEmpty else { fail("--user takes a name") }
        user = name
    case "--insecure": insecure = true
    case "--with-parent": withParent = true
    case "--max-header-bytes": maxHeaderBytes = arguments.popFirst().flatMap { Int($0) }
    case "--client-timeout": clientTimeout = arguments.popFirst().flatMap { Double($0) }.flatMap { $0 > 0 ? $0 : nil }
    default: fail("newsstand-serve is started by `newsstand serve`, which takes \(argument)")
    }
}

// The same rule as `newsstand serve`'s, again here: this program can be started by itself.
if !address.isLoopback, user == nil {
    fail("listening on \(address.host) lets other machines in: give --user and --password-stdin")
}
var access = ServeAccess.open
if let user {
    // Every sign-in is checked with MD5 (Digest, KOReader's key): without it none could pass.
    do { _ = try LibcryptoDigest(.md5) } catch { fail("cannot check sign-ins: \(error)") }
    guard let password = readLine(strippingNewline: true), !password.isEmpty else { fail("--password-stdin read no password") }
    access = ServeAccess(user: user, password: password, allowsBasic: insecure)
}
// PDF issues are served whole and page by page (drawn by the `newsstand-pdf` worker beside
// this program): without their format registered they were left out of every catalog.
PDFSupport.register()
let library: Library
do { library = try Library(paths: Paths()) } catch { fail("\(error)") }
var options = ShelfServer.Options(address: address, access: access) { line in
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
if let maxHeaderBytes { options.maxHeaderBytes = maxHeaderBytes }
if let clientTimeout { options.clientTimeout = clientTimeout }
let server: ShelfServer
do { server = try ShelfServer(library: library, options: options) } catch { fail("cannot serve on \(address): \(error)") }

if withParent {
    Thread.detachNewThread {
        var byte: UInt8 = 0
        while read(0, &byte, 1) > 0 {}
        kill(getpid(), SIGTERM)
    }
}
ServeLoop.run(server, announcing: address)

/// Runs the server until SIGINT or SIGTERM. Not on the main actor: the main thread waits
/// here while the server's tasks and the signal handlers run elsewhere.
enum ServeLoop {
    static func run(_ server: ShelfServer, announcing address: ListenAddress) {
        let finished = DispatchSemaphore(value: 0)
        let failure = Failure()
        let task = Task.detached {
            do { try await server.run() } catch is CancellationError {} catch { failure.error = error }
            finished.signal()
        }
        Task.detached {
            if let port = try? await server.listeningPort() {
                FileHandle.standardError.write(Data("newsstand: serving the shelf at http://\(address.host):\(port)/opds (OPDS 1.2) and /opds2 (OPDS 2.0)\n".utf8))
            }
        }
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { Task.detached { await server.stop(); task.cancel() } }
            source.resume()
            sources.append(source)
        }
        finished.wait()
        if let error = failure.error { fail("cannot serve on \(address): \(error.localizedDescription)") }
    }

    private final class Failure: @unchecked Sendable {  // written once by the server's task before `finished` is signalled
        var error: (any Error)?
    }
}
