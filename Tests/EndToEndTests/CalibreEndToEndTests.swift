import Foundation
import Testing

/// calibre's content server (Debian's `calibre`), started by the test on 127.0.0.1 with a
/// user database and its default HTTP Digest authentication, holding books the tests make:
/// refused politely without credentials and with a wrong password, then signed in, its OPDS
/// root read, a book subscribed to, downloaded and read through the library; the password
/// nowhere in the library.
@Suite(.serialized) struct CalibreEndToEndTests {
    static let password = "Tide 7ables!"

    @Test func signInToCalibresContentServerWithDigest() throws {
        CalibreServer.turn.wait()
        defer { CalibreServer.turn.signal() }
        let server = try CalibreServer(user: "reader", password: Self.password)
        defer { server.stop() }
        let sandbox = Sandbox(["NEWSSTAND_KEYRING=off", "NEWSSTAND_RESOURCES=/nonexistent"])
        let root = "http://127.0.0.1:\(server.port)/opds"
        let newest = "http://127.0.0.1:\(server.port)/opds/navcatalog/4f6e6577657374?library_id=library"
        let host = "127.0.0.1:\(server.port)"

        // No credentials: one line, naming the server's realm and what to do.
        let refused = try sandbox.run("subscribe", newest)
        #expect(refused.status == 1)
        #expect(lines(refused.output) == ["newsstand: cannot subscribe to \(newest): \(host) asks for a user name and password for \"calibre\" (401); sign in with: newsstand login \(newest)"])

        // A wrong password: one line, and nothing kept.
        let wrong = try sandbox.login(root, user: "reader", password: "not the password")
        #expect(wrong.status == 1)
        #expect(lines(wrong.output) == ["newsstand: \(host) refused the user name or password for \"calibre\" (401): wrong password?"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.home.appendingPathComponent("config/credentials.json").path))

        // The right one, typed on the terminal: not echoed.
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start((["env"] + sandbox.environment + [Tmux.binary.path, "login", root]).map(Self.shellQuoted).joined(separator: " "))
        _ = try tmux.waitFor(text: "User for \(host):")
        try tmux.send("-l", "reader")
        try tmux.send("Enter")
        _ = try tmux.waitFor(text: "Password:")
        try tmux.send("-l", Self.password)
        try tmux.send("Enter")
        let signedIn = try tmux.waitFor(text: "Signed in to \(host) as reader; kept in ")
        #expect(!signedIn.contains(Self.password))
        let right = (output: signedIn, status: Int32(0))
        var info = stat()
        #expect(stat(sandbox.home.appendingPathComponent("config/credentials.json").path, &info) == 0 && info.st_mode & 0o777 == 0o600)

        // The OPDS root, then "By Newest" subscribed, a book downloaded and read.
        let catalog = try sandbox.run("inspect", "feed", root, "--json")
        #expect(catalog.status == 0, "\(catalog.output)")
        #expect(catalog.output.contains("calibre Library") && catalog.output.contains("By Newest"))
        let subscribed = try sandbox.run("subscribe", newest)
        #expect(subscribed.status == 0, "\(subscribed.output)")
        #expect(subscribed.output.contains("2 new issue(s)"))
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(try sandbox.run("issues", "--json").output.utf8)) as? [[String: Any]])
        let book = try #require(issues.first { $0["title"] as? String == "The Tide Tables" }?["name"] as? String, "\(issues)")
        let downloaded = try sandbox.run("download", book, "--wait")
        #expect(downloaded.status == 0, "\(downloaded.output)")
        let text = try sandbox.run("read", book, "--plain")
        #expect(text.output.contains("Twice a day."), "\(text.output)")

        // The password is in no file of the library but the credentials file, and was never printed.
        for output in [refused, wrong, right, catalog, subscribed, downloaded, text].map(\.output) {
            #expect(!output.contains(Self.password))
        }
        let holders = try sandbox.filesContaining(Self.password)
        #expect(holders == ["config/credentials.json"])
        #expect(try sandbox.sql("SELECT count(*) FROM sqlite_master") != "0")

        // Signing out forgets it; the server refuses again.
        #expect(try sandbox.run("logout", root).output == "Signed out of \(host).\n")
        #expect(try sandbox.filesContaining(Self.password).isEmpty)
        let again = try sandbox.run("inspect", "feed", root)
        #expect(again.status == 1 && again.output.contains("asks for a user name and password"))
    }

    private func lines(_ output: String) -> [String] { output.split(separator: "\n").map(String.init) }

    static func shellQuoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

/// A calibre library of the tests' own books (an EPUB and a CBZ) served by `calibre-server`
/// with `--enable-auth` and one user, on a free port of 127.0.0.1; `stop()` ends it.
final class CalibreServer {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-calibre-\(UUID().uuidString)")
    let port: Int
    private var pid: pid_t = 0

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// calibre's programs refuse to run beside one another for the same user ("Another calibre
    /// program such as calibre-server … is running": an abstract socket), so the tests that run
    /// `calibredb` or `calibre-server` take turns: each holds this from start to end.
    static let turn = DispatchSemaphore(value: 1)

    /// `books`: files added to the library beside the two every test has.
    init(user: String, password: String, books extra: [URL] = []) throws {
        let library = directory.appendingPathComponent("library")
        let books = directory.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        try OwnFilesEndToEndTests.writeBooks(in: books)
        let environment = ["QT_QPA_PLATFORM": "offscreen", "HOME": directory.path, "CALIBRE_CONFIG_DIRECTORY": directory.appendingPathComponent("config").path,
                           "XDG_RUNTIME_DIR": directory.path, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"]
        let users = directory.appendingPathComponent("users.sqlite")
        try Self.run(["calibredb", "--library-path", library.path, "add", books.appendingPathComponent("tides.epub").path,
                      books.appendingPathComponent("pool.cbz").path] + extra.map(\.path), environment: environment, log: directory.appendingPathComponent("add.log"))
        try Self.run(["calibre-server", "--userdb", users.path, "--manage-users", "--", "add", user, password], environment: environment,
                     log: directory.appendingPathComponent("users.log"))
        port = try Self.freePort()
        pid = try Tmux.spawn(["calibre-server", "--listen-on", "127.0.0.1", "--port", "\(port)", "--enable-auth", "--userdb", users.path,
                              library.path], output: directory.appendingPathComponent("server.log").path, environment: environment)
        // It takes about a second to listen on an idle machine; wait for the port, generously.
        guard Tmux.poll(timeout: 90, { Self.accepts(port: port) }) else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            stop()
            throw Failure(description: "calibre-server did not listen on \(port) within 90 s: \(log)")
        }
    }

    func stop() {
        if pid > 0 {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            if !Tmux.poll(timeout: 10, { waitpid(pid, &status, WNOHANG) != 0 }) { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
            pid = 0
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    /// Ends the calibre programs a test run that was killed left behind: those serving one of
    /// these tests' directories (`newsstand-calibre-…`) whose parent is gone (reparented to
    /// pid 1). One would hold calibre's per-user lock, and every later run's `calibredb`
    /// would be refused ("Another calibre program … is running").
    static func endLeftovers() {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
        for entry in entries {
            guard let pid = pid_t(entry), pid != getpid(),
                  let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline")),
                  let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8) else { continue }
            let words = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            let parent = status.split(separator: "\n").first { $0.hasPrefix("PPid:") }?.split(separator: "\t").last.map(String.init)
            guard parent == "1", words.contains(where: { $0.hasSuffix("/calibre-server") || $0.hasSuffix("/calibredb") || $0 == "calibre-server" }),
                  words.contains(where: { $0.contains("/newsstand-calibre-") }) else { continue }
            kill(pid, SIGKILL)
            // Gone once its command line is (a zombie has none): its lock goes with it.
            _ = Tmux.poll(timeout: 10) { ((try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline"))) ?? Data()).isEmpty }
        }
    }

    static func run(_ arguments: [String], environment: [String: String], log: URL) throws {
        endLeftovers()
        let child = try Tmux.spawn(arguments, output: log.path, environment: environment)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) failed: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: UInt16(port).bigEndian, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
