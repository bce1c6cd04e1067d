import Foundation
import Testing

/// calibre-web (PyPI; `./dev deps` installs it in a virtual environment of its own), started by
/// the test on 127.0.0.1 over a calibre library of books the tests make, asking for HTTP Basic
/// authentication on its OPDS catalog: refused politely without credentials and with a wrong
/// password, then signed in, its root browsed and searched, "Recently added" subscribed to, a
/// book downloaded and read; the password nowhere in the library but the credentials file.
@Suite(.serialized) struct CalibreWebEndToEndTests {
    static let password = "Tide 7ables!"

    @Test func browseSearchAndSignInToCalibreWeb() throws {
        CalibreServer.turn.wait()  // for calibredb, which makes its library
        defer { CalibreServer.turn.signal() }
        let server = try CalibreWebServer(user: "admin", password: Self.password)
        defer { server.stop() }
        let sandbox = Sandbox(["NEWSSTAND_KEYRING=off", "NEWSSTAND_RESOURCES=/nonexistent"])
        let host = "127.0.0.1:\(server.port)"
        let root = "http://\(host)/opds"
        let recent = "http://\(host)/opds/new"

        // No credentials: one line, naming the server's realm and what to do.
        let refused = try sandbox.run("browse", root)
        #expect(refused.status == 1)
        #expect(refused.output.split(separator: "\n") == ["newsstand: cannot browse \(root): \(host) asks for a user name and password for \"Authentication Required\" (401); sign in with: newsstand login \(root)"])

        // A wrong password: one line, and nothing kept.
        let wrong = try sandbox.login(root, user: "admin", password: "not the password")
        #expect(wrong.status == 1)
        #expect(wrong.output.split(separator: "\n") == ["newsstand: \(host) refused the user name or password for \"Authentication Required\" (401): wrong password?"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.home.appendingPathComponent("config/credentials.json").path))

        // The right one: kept in a file only the user can read.
        let right = try sandbox.login(root, user: "admin", password: Self.password)
        #expect(right.status == 0, "\(right.output)")
        #expect(right.output.hasPrefix("Signed in to \(host) as admin; kept in "), "\(right.output)")
        var info = stat()
        #expect(stat(sandbox.home.appendingPathComponent("config/credentials.json").path, &info) == 0 && info.st_mode & 0o777 == 0o600)

        // The root: calibre-web's navigation entries, each a link to follow.
        let browsed = try sandbox.run("browse", root)
        #expect(browsed.status == 0, "\(browsed.output)")
        for entry in ["Alphabetical Books  \(root)/books", "Recently added Books  \(recent)", "Authors  \(root)/author", "Series  \(root)/series"] {
            #expect(browsed.output.contains(entry), "\(entry) in \(browsed.output)")
        }
        #expect(browsed.output.contains("search    \(root)/osd (OpenSearch)"), "\(browsed.output)")

        // A search through its OpenSearch description finds the book and not the comic.
        let found = try sandbox.run("browse", root, "--search", "tide tables")
        #expect(found.status == 0, "\(found.output)")
        #expect(found.output.contains("Books (1):") && found.output.contains("The Tide Tables — Ada Reef"), "\(found.output)")
        #expect(found.output.contains("get      \(root)/download/"), "\(found.output)")

        // "Recently added" subscribed to; the book downloaded and read.
        let subscribed = try sandbox.run("subscribe", recent)
        #expect(subscribed.status == 0, "\(subscribed.output)")
        #expect(subscribed.output.contains("2 new issue(s)"), "\(subscribed.output)")
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(try sandbox.run("issues", "--json").output.utf8)) as? [[String: Any]])
        let book = try #require(issues.first { $0["title"] as? String == "The Tide Tables" }?["name"] as? String, "\(issues)")
        let downloaded = try sandbox.run("download", book, "--wait")
        #expect(downloaded.status == 0, "\(downloaded.output)")
        let text = try sandbox.run("read", book, "--plain")
        #expect(text.status == 0 && text.output.contains("Twice a day."), "\(text.output)")

        // The password is in no file of the library but the credentials file, and was never printed.
        for output in [refused, wrong, right, browsed, found, subscribed, downloaded, text].map(\.output) {
            #expect(!output.contains(Self.password))
        }
        #expect(try sandbox.filesContaining(Self.password) == ["config/credentials.json"])
        #expect(try sandbox.sql("SELECT count(*) FROM sqlite_master") != "0")
    }
}

/// A calibre library of the tests' own books (an EPUB and a CBZ) served by calibre-web, from the
/// virtual environment `./dev deps` makes, on a free port of 127.0.0.1 with a scratch HOME and
/// settings database; its one user is calibre-web's own admin, with the test's password.
/// `stop()` ends it and anything it started.
final class CalibreWebServer {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-calibre-web-\(UUID().uuidString)")
    let port: Int
    private var pid: pid_t = 0

    /// Where `./dev deps` installs calibre-web (the same path as in `dev`), with the `installed`
    /// stamp it writes last.
    static var installation: URL {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".cache")
        return cache.appendingPathComponent("newsstand-test/calibre-web")
    }

    init(user: String, password: String) throws {
        let cps = Self.installation.appendingPathComponent("bin/cps")
        guard FileManager.default.fileExists(atPath: Self.installation.appendingPathComponent("installed").path),
              FileManager.default.isExecutableFile(atPath: cps.path) else {
            throw CalibreServer.Failure(description: "calibre-web is not installed in \(Self.installation.path): run ./dev deps")
        }
        let library = directory.appendingPathComponent("library")
        let books = directory.appendingPathComponent("books")
        let home = directory.appendingPathComponent("home")
        let settings = directory.appendingPathComponent("app.db")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try OwnFilesEndToEndTests.writeBooks(in: books)
        let environment = ["QT_QPA_PLATFORM": "offscreen", "HOME": home.path, "CALIBRE_CONFIG_DIRECTORY": directory.appendingPathComponent("calibre").path,
                           "XDG_RUNTIME_DIR": directory.path, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"]
        do {
            try CalibreServer.run(["calibredb", "--library-path", library.path, "add", books.appendingPathComponent("tides.epub").path,
                                   books.appendingPathComponent("pool.cbz").path], environment: environment, log: directory.appendingPathComponent("add.log"))
            // `-s user:password` makes the settings database, sets the password and exits; the
            // library and the port are settings, written into it before the server starts.
            try CalibreServer.run([cps.path, "-p", settings.path, "-s", "\(user):\(password)"], environment: environment,
                                  log: directory.appendingPathComponent("password.log"))
            port = try CalibreServer.freePort()
            let quoted = library.path.replacingOccurrences(of: "'", with: "''")
            try CalibreServer.run(["sqlite3", settings.path, "UPDATE settings SET config_calibre_dir = '\(quoted)', config_port = \(port)"],
                                  environment: environment, log: directory.appendingPathComponent("settings.log"))
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        // In a session of its own, so that stopping it stops whatever it started.
        pid = try Tmux.spawn(["setsid", cps.path, "-p", settings.path, "-i", "127.0.0.1", "-o", directory.appendingPathComponent("log.txt").path],
                             output: directory.appendingPathComponent("server.log").path, environment: environment)
        // A few seconds to listen on an idle machine; wait for the port (or its end), generously.
        guard Tmux.poll(timeout: 120, { CalibreServer.accepts(port: port) || hasEnded }), !hasEnded else {
            let log = ["server.log", "log.txt"].map { (try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) ?? "" }
            let ended = hasEnded
            stop()
            throw CalibreServer.Failure(description: "calibre-web \(ended ? "ended without listening" : "did not listen") on \(port) within 120 s: \(log.joined(separator: "\n"))")
        }
    }

    /// Whether the server has ended; it is not reaped, so its process group stays its own.
    private var hasEnded: Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
    }

    func stop() {
        if pid > 0 {
            kill(-pid, SIGTERM)
            if !Tmux.poll(timeout: 10, { hasEnded }) { kill(-pid, SIGKILL) }
            // Whatever it started and left behind, before its group's id is given up.
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            pid = 0
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
