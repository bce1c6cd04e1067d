import Foundation
import Testing
@testable import NewsstandKit

@Suite("Credentials kept in a file only the user can read, or in the system keyring")
struct CredentialStoreTests {
    @Test func theFileKeepsCredentialsByHostWithMode0600() throws {
        let scratch = try Scratch()
        let store = CredentialStore(file: scratch.file("config/credentials.json"), keyring: nil)
        #expect(try store.credentials(for: URL(string: "http://books.example.org/opds")!) == nil)
        try store.save(.basic(user: "ann", password: "pa55"), for: "Books.example.org")
        try store.save(.bearer("tok"), for: "books.example.org:8080")
        var info = stat()
        #expect(stat(store.file.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try store.credentials(for: URL(string: "http://books.example.org/opds")!) == .basic(user: "ann", password: "pa55"))
        #expect(try store.credentials(for: URL(string: "http://books.example.org:8080/opds")!) == .bearer("tok"))
        #expect(try store.credentials(for: URL(string: "http://books.example.org:9090/")!) == .basic(user: "ann", password: "pa55"))
        #expect(try store.remove("books.example.org"))
        #expect(try !store.remove("books.example.org"))
        #expect(try store.credentials(forHost: "books.example.org") == nil)
        #expect(try store.credentials(forHost: "books.example.org:8080") == .bearer("tok"))
    }

    @Test func aFileOthersMayReadIsRefusedInOneLine() throws {
        let scratch = try Scratch()
        let store = CredentialStore(file: scratch.file("credentials.json"), keyring: nil)
        try store.save(.basic(user: "ann", password: "pa55"), for: "h")
        chmod(store.file.path, 0o644)
        let error = #expect(throws: CredentialStoreError.self) { try store.credentials(forHost: "h") }
        let message = try #require(error?.description)
        #expect(message.contains("may be read by others (mode 644)") && message.contains("chmod 600"))
        #expect(!message.contains("\n") && !message.contains("pa55"))
        // Saving does not quietly widen or keep a readable file either.
        #expect(throws: CredentialStoreError.self) { try store.save(.bearer("x"), for: "h2") }
        chmod(store.file.path, 0o600)
        #expect(try store.credentials(forHost: "h") == .basic(user: "ann", password: "pa55"))
    }

    @Test func aSymlinkOrGarbageIsNotRead() throws {
        let scratch = try Scratch()
        let store = CredentialStore(file: scratch.file("credentials.json"), keyring: nil)
        try "not json".write(to: scratch.file("other"), atomically: true, encoding: .utf8)
        chmod(scratch.file("other").path, 0o600)
        try FileManager.default.createSymbolicLink(at: store.file, withDestinationURL: scratch.file("other"))
        #expect(throws: CredentialStoreError.self) { try store.credentials(forHost: "h") }
        try FileManager.default.removeItem(at: store.file)
        try FileManager.default.moveItem(at: scratch.file("other"), to: store.file)
        let error = #expect(throws: CredentialStoreError.self) { try store.credentials(forHost: "h") }
        #expect(error?.description.contains("is not a credentials file") == true)
    }

    @Test func theSystemKeyringThroughSecretTool() throws {
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let tool = try #require(SecretTool(environment: keyring.environment, profile: "/test/profile"))
        #expect(tool.isAvailable)
        let store = CredentialStore(file: keyring.home.appendingPathComponent("credentials.json"), keyring: tool)
        #expect(store.location == "the system keyring")
        try store.save(.basic(user: "ann", password: "pa55 \"word\""), for: "books.example.org:8080")
        #expect(try store.credentials(for: URL(string: "http://books.example.org:8080/opds")!) == .basic(user: "ann", password: "pa55 \"word\""))
        #expect(!FileManager.default.fileExists(atPath: store.file.path))
        // Another profile does not see it.
        let other = CredentialStore(file: store.file, keyring: SecretTool(environment: keyring.environment, profile: "/other"))
        #expect(try other.credentials(forHost: "books.example.org:8080") == nil)
        #expect(try store.remove("books.example.org:8080"))
        #expect(try store.credentials(forHost: "books.example.org:8080") == nil)
    }

    @Test func withoutASecretServiceTheFileIsUsedAtOnce() throws {
        let scratch = try Scratch()
        let paths = Paths(environment: ["NEWSSTAND_HOME": scratch.directory.path])
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(scratch.file("no-bus").path)"
        environment["DISPLAY"] = nil
        let store = CredentialStore(paths: paths, environment: environment)
        #expect(store.keyring == nil)
        #expect(store.location == paths.config.appendingPathComponent("credentials.json").path)
        #expect(CredentialStore(paths: paths, environment: ["NEWSSTAND_KEYRING": "off", "PATH": "/usr/bin"]).keyring == nil)
    }
}

/// A Secret Service of the test's own: a private D-Bus session bus and gnome-keyring-daemon
/// (its keyring unlocked with a throwaway password) under a scratch HOME.
final class TestKeyring {
    let home: URL
    let environment: [String: String]
    private var pids: [Int32] = []

    struct Failure: Error, CustomStringConvertible { var description: String }

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-keyring-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = ["HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                           "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                           "XDG_RUNTIME_DIR": home.path, "PATH": "/usr/local/bin:/usr/bin:/bin"]
        let bus = try Self.run("/usr/bin/dbus-daemon", ["--session", "--fork", "--nopidfile", "--print-address=1", "--print-pid=1"], environment: environment)
        let lines = bus.split(separator: "\n").map(String.init)
        guard lines.count >= 2, let pid = Int32(lines[1]) else { throw Failure(description: "dbus-daemon said \(bus.debugDescription)") }
        pids.append(pid)
        // A failure from here on ends the bus (deinit does not run for an init that throws).
        var started = false
        defer { if !started { kill(pid, SIGKILL) } }
        environment["DBUS_SESSION_BUS_ADDRESS"] = lines[0]
        self.environment = environment
        // It forks; its first process exits once the daemon is up. Spawned directly and
        // waited for with waitpid: Foundation's Process notices an exit only when every
        // copy of a socket it gives the child is closed, and the daemon keeps one. The
        // password comes from a file, read to its end.
        let password = home.appendingPathComponent("password")
        try Data("throwaway".utf8).write(to: password)
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, password.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let arguments = ["/usr/bin/gnome-keyring-daemon", "--unlock", "--components=secrets", "--daemonize"]
        let environmentLines = environment.map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let spawned = Self.withCStrings(arguments) { argv in
            Self.withCStrings(environmentLines) { envp in posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp) }
        }
        guard spawned == 0 else { throw Failure(description: "cannot start gnome-keyring-daemon: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw Failure(description: "gnome-keyring-daemon exited with status \(status)") }
        started = true
    }

    func stop() {
        // The keyring daemon leaves when its bus goes.
        for pid in pids { kill(pid, SIGKILL) }  // test threads block SIGTERM, and children inherit it
        pids = []
        try? FileManager.default.removeItem(at: home)
    }

    deinit { stop() }

    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }

    /// dbus-daemon's two lines (address, pid); it forks, and the daemon keeps the pipe open.
    private static func run(_ path: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let stdout = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        var output = Data()
        let deadline = Date().addingTimeInterval(20)
        let handle = stdout.fileHandleForReading
        while Date() < deadline {
            let chunk = handle.availableData  // empty only at the end
            output += chunk
            let text = String(decoding: output, as: UTF8.self)
            if text.split(separator: "\n").count >= 2 { return text }
            if chunk.isEmpty { break }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
