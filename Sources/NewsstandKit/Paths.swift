import Foundation

/// Where Newsstand keeps things, following the XDG base directories.
/// `NEWSSTAND_HOME=DIR` puts all four under DIR (tests and end-to-end runs use it).
public struct Paths: Sendable, Equatable {
    public var config: URL
    public var data: URL
    public var state: URL
    public var cache: URL

    public init(config: URL, data: URL, state: URL, cache: URL) {
        self.config = config; self.data = data; self.state = state; self.cache = cache
    }

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let home = environment["NEWSSTAND_HOME"], !home.isEmpty {
            let root = URL(fileURLWithPath: home, isDirectory: true)
            self.init(config: root.appendingPathComponent("config", isDirectory: true),
                      data: root.appendingPathComponent("data", isDirectory: true),
                      state: root.appendingPathComponent("state", isDirectory: true),
                      cache: root.appendingPathComponent("cache", isDirectory: true))
            return
        }
        let userHome = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        func xdg(_ variable: String, _ fallback: String) -> URL {
            let base: URL
            if let value = environment[variable], value.hasPrefix("/") {
                base = URL(fileURLWithPath: value, isDirectory: true)
            } else {
                base = userHome.appendingPathComponent(fallback, isDirectory: true)
            }
            return base.appendingPathComponent("newsstand", isDirectory: true)
        }
        self.init(config: xdg("XDG_CONFIG_HOME", ".config"), data: xdg("XDG_DATA_HOME", ".local/share"),
                  state: xdg("XDG_STATE_HOME", ".local/state"), cache: xdg("XDG_CACHE_HOME", ".cache"))
    }

    public var database: URL { data.appendingPathComponent("library.sqlite") }
    public var agentLock: URL { state.appendingPathComponent("agent.lock") }
    public var agentLog: URL { state.appendingPathComponent("agent.log") }
    public var issuesDirectory: URL { cache.appendingPathComponent("issues", isDirectory: true) }
    public var partialDirectory: URL { cache.appendingPathComponent("partial", isDirectory: true) }
    public var coversDirectory: URL { cache.appendingPathComponent("covers", isDirectory: true) }
    public var renderedCoversDirectory: URL { cache.appendingPathComponent("rendered", isDirectory: true) }
    public var configFile: URL { config.appendingPathComponent("config.toml") }
    public var userThemes: URL { config.appendingPathComponent("themes", isDirectory: true) }

    /// Creates every directory (0700: a library is personal).
    public func createAll() throws {
        for directory in [config, data, state, cache, issuesDirectory, partialDirectory, coversDirectory] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }
}
