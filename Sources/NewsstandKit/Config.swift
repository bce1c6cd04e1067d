import Foundation
import TOMLReader

/// `config.toml`: the user's settings. Unknown keys are refused with the file, key and
/// reason, so a typo never silently does nothing.
///
/// ```toml
/// max_concurrent_downloads = 3
///
/// [credentials."news.example.com"]     # answered to a 401 from this host, once
/// user = "reader"
/// password = "secret"
///
/// [credentials."comics.example.org"]
/// token = "…"                           # Bearer
/// ```
public struct Config: Sendable {
    public var maxConcurrentDownloads = 2
    /// By host name (with `:port` when one is given).
    public var credentials: [String: Credentials] = [:]
    /// `poll_interval` (seconds): how often `agent --watch` refreshes feeds without a push channel.
    public var pollInterval: TimeInterval = 3600
    /// `dont_throttle_newsstand_content_notifications`: no 24 h limit on automatic downloads.
    public var dontThrottleContentNotifications = false

    public init() {}

    public static let knownKeys: Set<String> = ["max_concurrent_downloads", "credentials", "theme", "cache_limit",
                                                "dont_throttle_newsstand_content_notifications", "poll_interval"]

    /// The configuration in `paths.configFile`, or the defaults when there is none.
    public static func load(paths: Paths) throws -> Config {
        guard let text = try? String(contentsOf: paths.configFile, encoding: .utf8) else { return Config() }
        return try parse(text, file: paths.configFile.path)
    }

    public static func parse(_ text: String, file: String) throws -> Config {
        let table: [String: TOMLValue]
        do { table = try TOML.parse(text) } catch { throw ConfigError(file: file, message: "\(error)") }
        var config = Config()
        for key in table.keys.sorted() where !knownKeys.contains(key) {
            throw ConfigError(file: file, message: "'\(key)' is not a setting (known: \(knownKeys.sorted().joined(separator: ", ")))")
        }
        if let value = table["max_concurrent_downloads"] {
            guard let count = value.integer, (1...16).contains(count) else {
                throw ConfigError(file: file, message: "max_concurrent_downloads must be a whole number from 1 to 16")
            }
            config.maxConcurrentDownloads = count
        }
        try parsePushSettings(table, file: file, into: &config)
        if let value = table["credentials"] {
            guard let hosts = value.table else { throw ConfigError(file: file, message: "credentials must be a table of hosts") }
            for (host, entry) in hosts {
                guard let fields = entry.table else {
                    throw ConfigError(file: file, message: "credentials.\"\(host)\" must be a table with user and password, or token")
                }
                for key in fields.keys where !["user", "password", "token"].contains(key) {
                    throw ConfigError(file: file, message: "credentials.\"\(host)\".\(key) is not a credential field (user, password, token)")
                }
                if let token = fields["token"]?.string {
                    config.credentials[host.lowercased()] = .bearer(token)
                } else if let user = fields["user"]?.string, let password = fields["password"]?.string {
                    config.credentials[host.lowercased()] = .basic(user: user, password: password)
                } else {
                    throw ConfigError(file: file, message: "credentials.\"\(host)\" needs user and password (strings), or token")
                }
            }
        }
        return config
    }

    /// The credentials for a URL's host (`host:port` first, then `host`).
    public func credentials(for url: URL) -> Credentials? {
        guard let host = url.host?.lowercased() else { return nil }
        if let port = url.port, let match = credentials["\(host):\(port)"] { return match }
        return credentials[host]
    }
}

public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var message: String
    public var description: String { "\(file): \(message)" }
}
