import Foundation
import TOMLReader

extension Config {
    /// `poll_interval` (seconds, at least 60) and
    /// `dont_throttle_newsstand_content_notifications` (true or false).
    static func parsePushSettings(_ table: [String: TOMLValue], file: String, into config: inout Config) throws {
        if let value = table["poll_interval"] {
            guard let seconds = value.integer, seconds >= 60 else {
                throw ConfigError(file: file, message: "poll_interval must be a whole number of seconds, at least 60 (default 3600)")
            }
            config.pollInterval = TimeInterval(seconds)
        }
        if let flag = try boolean(table, "dont_throttle_newsstand_content_notifications", file: file) {
            config.dontThrottleContentNotifications = flag
        }
    }
}
