import FileWrites
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the credentials a user signs in with are kept, by host (`host` or `host:port`,
/// as `HTTPAuthenticationRequired.host` names it): the system keyring through
/// `secret-tool` when a Secret Service answers, otherwise `credentials.json` beside
/// config.toml, a file only its owner may read (mode 0600, checked at every read). Never
/// the library database. `HTTPAccess` asks it after config.toml's `[credentials]`.
public struct CredentialStore: Sendable {
    /// The file used when there is no keyring.
    public let file: URL
    /// The keyring, when one answered.
    let keyring: SecretTool?

    /// `keyring` nil keeps everything in the file.
    init(file: URL, keyring: SecretTool?) {
        self.file = file
        self.keyring = keyring
    }

    /// The store for `paths`: the keyring when `secret-tool` is installed and a Secret
    /// Service answers within a few seconds (never when `NEWSSTAND_KEYRING=off`), else the file.
    public init(paths: Paths, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let file = paths.config.appendingPathComponent("credentials.json")
        let keyring = environment["NEWSSTAND_KEYRING"] == "off" ? nil
            : SecretTool(environment: environment, profile: paths.config.path).flatMap { $0.isAvailable ? $0 : nil }
        self.init(file: file, keyring: keyring)
    }

    /// "the system keyring" or the file's path, for messages.
    public var location: String { keyring == nil ? file.path : "the system keyring" }

    /// The credentials saved for `url`'s host (`host:port` first, then `host`).
    /// Throws `CredentialStoreError` when the file is readable by others or unreadable.
    public func credentials(for url: URL) throws -> Credentials? {
        let host = url.host?.lowercased() ?? ""
        for key in [url.port.map { "\(host):\($0)" }, host].compactMap({ $0 }) {
            if let found = try credentials(forHost: key) { return found }
        }
        return nil
    }

    /// The credentials saved under exactly `host`.
    public func credentials(forHost host: String) throws -> Credentials? {
        if let keyring { return try keyring.lookup(host: host.lowercased()).flatMap(Credentials.init(stored:)) }
        return try readFile()[host.lowercased()].flatMap(Credentials.init(stored:))
    }

    /// Keeps `credentials` for `host`, replacing what was there.
    public func save(_ credentials: Credentials, for host: String) throws {
        let key = host.lowercased()
        if let keyring { return try keyring.store(host: key, secret: credentials.stored) }
        var all = try readFile()
        all[key] = credentials.stored
        try writeFile(all)
    }

    /// Forgets `host`'s credentials; false when there were none.
    @discardableResult
    public func remove(_ host: String) throws -> Bool {
        let key = host.lowercased()
        if let keyring { return try keyring.clear(host: key) }
        var all = try readFile()
        guard all.removeValue(forKey: key) != nil else { return false }
        try writeFile(all)
        return true
    }

    // MARK: - The file

    private func readFile() throws -> [String: String] {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT { return [:] }
            throw CredentialStoreError("cannot read \(file.path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw CredentialStoreError("\(file.path) is not a regular file; credentials are not read from it")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw CredentialStoreError(String(format: "%@ may be read by others (mode %03o); run: chmod 600 %@", file.path, info.st_mode & 0o777, file.path))
        }
        guard info.st_uid == getuid() else {
            throw CredentialStoreError("\(file.path) belongs to another user; credentials are not read from it")
        }
        let data = FileHandle(fileDescriptor: fd, closeOnDealloc: false).readDataToEndOfFile()
        if data.isEmpty { return [:] }
        guard let entries = try? JSONDecoder().decode([String: String].self, from: data) else {
            throw CredentialStoreError("\(file.path) is not a credentials file (JSON of host to credentials); fix or remove it")
        }
        return entries
    }

    /// Written to a new 0600 file beside it, then renamed over it: never readable by others, never half written.
    private func writeFile(_ entries: [String: String]) throws {
        let directory = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(entries)
        do { try AtomicFile.write(data, to: file, permissions: 0o600, sync: true) } catch let error as FileWriteError {
            throw CredentialStoreError("cannot write \(file.path): \(error.reason)")
        }
    }
}

/// Why the credential store could not be read or written, in one line (never a secret).
public struct CredentialStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension Credentials {
    /// The one string a store keeps: `{"user":…,"password":…}` or `{"token":…}`.
    var stored: String {
        let fields: [String: String]
        switch self {
        case let .basic(user, password): fields = ["user": user, "password": password]
        case let .bearer(token): fields = ["token": token]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(fields)) ?? Data(), as: UTF8.self)
    }

    init?(stored: String) {
        guard let fields = try? JSONDecoder().decode([String: String].self, from: Data(stored.utf8)) else { return nil }
        if let token = fields["token"] {
            self = .bearer(token)
        } else if let user = fields["user"], let password = fields["password"] {
            self = .basic(user: user, password: password)
        } else {
            return nil
        }
    }
}
