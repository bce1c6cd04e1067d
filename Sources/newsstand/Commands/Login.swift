import ArgumentParser
import Foundation
import NewsstandKit

struct Login: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a server (a catalog or a feed's host): checked with the server, then kept in the keyring or a file only you can read.")

    @Argument(help: "A URL on the server, such as its OPDS catalog (http or https).")
    var url: String

    @Option(help: "The user name (asked on the terminal when not given).")
    var user: String?

    @Flag(help: "Read the password from standard input (its first line) instead of the terminal.")
    var passwordStdin = false

    @Flag(help: "The password is a token, sent as Bearer (no user name).")
    var token = false

    func run() throws {
        guard let target = URL(string: url), ["http", "https"].contains(target.scheme?.lowercased() ?? ""), target.host != nil else {
            throw ValidationError("'\(url)' is not an http or https URL")
        }
        let terminal = Terminal.open()
        if passwordStdin && user == nil && !token { throw ValidationError("--password-stdin needs --user (or --token)") }
        let name = token ? "" : try user ?? terminal?.readLine(prompt: "User for \(HTTPAuthenticationRequired.host(of: target)): ", echo: true)
            ?? { throw ValidationError("no terminal to ask the user name on; give --user") }()
        let secret = try passwordStdin ? Self.firstLineOfStandardInput()
            : terminal?.readLine(prompt: token ? "Token: " : "Password: ", echo: false)
            ?? { throw ValidationError("no terminal to read the password from; use --password-stdin") }()
        let credentials: Credentials = token ? .bearer(secret) : .basic(user: name, password: secret)
        let store = CredentialStore(paths: Paths())
        let host = HTTPAuthenticationRequired.host(of: target)
        if try SignIn.signIn(to: target, with: credentials, store: store) {
            print("Signed in to \(host)\(token ? "" : " as \(name)"); kept in \(store.location).")
        } else {
            print("\(host) did not ask for a password at \(target.absoluteString); kept in \(store.location) for where it does.")
        }
    }

    static func firstLineOfStandardInput() throws -> String {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let line = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first,
              !line.isEmpty else { throw CommandFailure("no password on standard input") }
        return line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
    }
}

struct Logout: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Forget what you signed in to a server with.")

    @Argument(help: "A URL on the server, or its host (host:port when it has a port).")
    var server: String

    func run() throws {
        let host = URL(string: server).flatMap { $0.host != nil ? HTTPAuthenticationRequired.host(of: $0) : nil } ?? server.lowercased()
        let store = CredentialStore(paths: Paths())
        guard try store.remove(host) else { throw CommandFailure("nothing is kept for \(host) in \(store.location)") }
        print("Signed out of \(host).")
    }
}

/// The controlling terminal, for questions a script cannot be asked: the password is read
/// with echo off (and echo restored however the read ends).
struct Terminal {
    let fd: Int32

    static func open() -> Terminal? {
        // Closed when the command ends (one question or two per run).
        let fd = Glibc.open("/dev/tty", O_RDWR | O_CLOEXEC)
        return fd >= 0 ? Terminal(fd: fd) : nil
    }

    func readLine(prompt: String, echo: Bool) throws -> String {
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        var saved = termios()
        let canSilence = tcgetattr(fd, &saved) == 0
        if !echo && canSilence {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSAFLUSH, &silent)
        }
        defer {
            if !echo && canSilence {
                tcsetattr(fd, TCSAFLUSH, &saved)
                _ = write(fd, "\n", 1)
            }
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1, byte != 0x0A {
            if byte != 0x0D { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
