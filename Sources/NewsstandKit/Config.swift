import Foundation
import TOMLReader

/// `config.toml`: the user's settings. Unknown keys are refused with the file, key and
/// reason, so a typo never silently does nothing.
///
/// ```toml
/// max_concurrent_downloads = 3
/// cache_limit = "2GB"                   # issue content kept on disk (default 2 GiB)
///
/// [credentials."news.example.com"]     # answered to a 401 from this host, once
/// user = "reader"
/// password = "secret"
///
/// [credentials."comics.example.org"]
/// token = "…"                           # Bearer
///
/// [keys]                                # action = key names; the shelf checks them
/// down = ["j", "Down"]
/// ```
public struct Config: Sendable {
    public var maxConcurrentDownloads = 2
    /// By host name (with `:port` when one is given).
    public var credentials: [String: Credentials] = [:]
    /// `[keys]` as written: each action's key names, in file order. The shelf knows the
    /// actions and key names, so it checks them (`KeyBindings`).
    public var keys: [KeyEntry] = []
    /// Where the configuration came from, for messages about it.
    public var file = ""

    public struct KeyEntry: Sendable, Equatable {
        public var action: String
        public var keys: [String]
        public var line: Int?
        public init(action: String, keys: [String], line: Int? = nil) { self.action = action; self.keys = keys; self.line = line }
    }
    /// Bytes of issue content the cache may hold (`cache_limit`: "2GB", "500 MiB", or bytes).
    public var cacheLimit = CacheBudget.defaultLimit

    /// `poll_interval` (seconds): how often `agent --watch` refreshes each feed that was not refreshed since (push channel or not).
    public var pollInterval: TimeInterval = 3600
    /// `dont_throttle_newsstand_content_notifications`: no 24 h limit on automatic downloads.
    public var dontThrottleContentNotifications = false
    /// `images`: how pictures are drawn (`auto`, `kitty`, `sixel`, `iterm2` or `halfblock`); nil: not set.
    public var images: String?
    /// `covers`: the shelf's covers in half blocks (`halfblock`, the default: the
    /// newsstand's look) or in the terminal's pixels (`pixels`) when it draws them.
    public var coversInPixels = false
    /// `kitty_placeholders`: kitty's pictures drawn as Unicode placeholder cells (`auto`:
    /// when the terminal says it is kitty 0.28 or later; `on`; `off`); nil: not set.
    public var kittyPlaceholders: String?
    /// `hyperlinks`: links in the reader's text sent as the terminal's OSC 8 hyperlinks
    /// (`auto`: where the terminal is known to show them; `off`); nil: not set.
    public var hyperlinks: String?
    /// `samples`: whether the first interactive start of the shelf subscribes the bundled
    /// sample publications (default true; `samples = false` keeps them out).
    public var samples = true
    /// `open_after_download`: Enter on an issue not downloaded opens it once it is here,
    /// while its store still shows it chosen (true, the default); false: it only downloads.
    public var openAfterDownload = true

    public init() {}

    /// The values `covers` may take.
    public static let coversValues = ["halfblock", "pixels"]

    /// The values `images` may take.
    public static let imagesValues = ["auto", "kitty", "sixel", "iterm2", "halfblock"]

    /// The values `kitty_placeholders` may take.
    public static let kittyPlaceholdersValues = ["auto", "on", "off"]

    /// The values `hyperlinks` may take.
    public static let hyperlinksValues = ["auto", "off"]

    public static let knownKeys: Set<String> = ["max_concurrent_downloads", "credentials", "theme", "cache_limit", "keys",
                                                "dont_throttle_newsstand_content_notifications", "poll_interval", "images", "covers",
                                                "kitty_placeholders", "samples", "open_after_download", "hyperlinks"]

    /// The configuration in `paths.configFile`, or the defaults when there is none.
    public static func load(paths: Paths) throws -> Config {
        guard let text = try? String(contentsOf: paths.configFile, encoding: .utf8) else { return Config() }
        return try parse(text, file: paths.configFile.path)
    }

    public static func parse(_ text: String, file: String) throws -> Config {
        let document: TOMLDocument
        do { document = try TOML.parseDocument(text) } catch { throw ConfigError(file: file, message: "\(error)") }
        let table = document.root
        var config = Config()
        config.file = file
        for key in table.keys.sorted() where !knownKeys.contains(key) {
            throw ConfigError(file: file, message: "'\(key)' is not a setting (known: \(knownKeys.sorted().joined(separator: ", ")))")
        }
        if let value = table["max_concurrent_downloads"] {
            guard let count = value.integer, (1...16).contains(count) else {
                throw ConfigError(file: file, message: "max_concurrent_downloads must be a whole number from 1 to 16")
            }
            config.maxConcurrentDownloads = count
        }
        if let value = table["images"] {
            guard let images = value.string, imagesValues.contains(images) else {
                throw ConfigError(file: file, message: "images must be one of \(imagesValues.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
            config.images = images
        }
        if let value = table["covers"] {
            guard let covers = value.string, coversValues.contains(covers) else {
                throw ConfigError(file: file, message: "covers must be one of \(coversValues.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
            config.coversInPixels = covers == "pixels"
        }
        if let value = table["kitty_placeholders"] {
            guard let choice = value.string, kittyPlaceholdersValues.contains(choice) else {
                throw ConfigError(file: file, message: "kitty_placeholders must be one of "
                    + kittyPlaceholdersValues.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            config.kittyPlaceholders = choice
        }
        if let value = table["hyperlinks"] {
            guard let choice = value.string, hyperlinksValues.contains(choice) else {
                throw ConfigError(file: file, message: "hyperlinks must be one of " + hyperlinksValues.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            config.hyperlinks = choice
        }
        if let flag = try boolean(table, "samples", file: file) { config.samples = flag }
        if let flag = try boolean(table, "open_after_download", file: file) { config.openAfterDownload = flag }
        if let value = table["cache_limit"] { config.cacheLimit = try CacheLimitSetting.bytes(of: value, file: file) }
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
        if let value = table["keys"] {
            config.keys = try keyEntries(value, document: document, file: file)
        }
        return config
    }

    /// A setting that is true or false; nil when it is not set.
    static func boolean(_ table: [String: TOMLValue], _ key: String, file: String) throws -> Bool? {
        guard let value = table[key] else { return nil }
        guard let flag = value.boolean else { throw ConfigError(file: file, message: "\(key) must be true or false") }
        return flag
    }

    private static func keyEntries(_ value: TOMLValue, document: TOMLDocument, file: String) throws -> [KeyEntry] {
        guard let actions = value.table else {
            throw ConfigError(file: file, line: document.line(of: ["keys"]), message: "keys must be a table ([keys]) of action = key names")
        }
        return try actions.map { action, names in
            let line = document.line(of: ["keys", action])
            let keys: [String]? = names.string.map { [$0] } ?? names.array.flatMap { items in
                let strings = items.compactMap(\.string)
                return strings.count == items.count ? strings : nil
            }
            guard let keys else {
                throw ConfigError(file: file, line: line, message: "keys.\(action) must be a key name or an array of them, like [\"j\", \"Down\"], not \(names.kind)")
            }
            return KeyEntry(action: action, keys: keys, line: line)
        }.sorted { ($0.line ?? 0, $0.action) < ($1.line ?? 0, $1.action) }
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
    public var line: Int?
    public var message: String
    public init(file: String, line: Int? = nil, message: String) { self.file = file; self.line = line; self.message = message }
    public var description: String { line.map { "\(file): line \($0): \(message)" } ?? "\(file): \(message)" }
}
