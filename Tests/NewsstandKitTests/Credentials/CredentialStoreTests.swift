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
        let started = Date()
        let store = CredentialStore(paths: paths, environment: environment)
        #expect(store.keyring == nil)
        #expect(store.location == paths.config.appendingPathComponent("credentials.json").path)
        #expect(Date().timeIntervalSince(started) < 3)   // the probe's own limit
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
        environment["DBUS_SESSION_BUS_ADDRESS"] = lines[0]
        let keyring = try Self.run("/usr/bin/gnome-keyring-daemon", ["--unlock", "--components=secrets", "--daemonize"], environment: environment, input: "throwaway")
        guard keyring.contains("GNOME_KEYRING_CONTROL") else { throw Failure(description: "gnome-keyring-daemon said \(keyring.debugDescription)") }
        self.environment = environment
    }

    func stop() {
        // The keyring daemon leaves when its bus goes.
        for pid in pids { kill(pid, SIGTERM) }
        pids = []
        try? FileManager.default.removeItem(at: home)
    }

    deinit { stop() }

    private static func run(_ path: String, _ arguments: [String], environment: [String: String], input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // Both fork: the parent prints and exits; the output's write end stays with the daemon.
        var output = Data()
        let deadline = Date().addingTimeInterval(20)
        let handle = stdout.fileHandleForReading
        while Date() < deadline {
            output += handle.availableData
            let text = String(decoding: output, as: UTF8.self)
            if path.hasSuffix("dbus-daemon") ? text.split(separator: "\n").count >= 2 : text.contains("\n") { return text }
            if !process.isRunning && handle.availableData.isEmpty { break }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
