import NewsstandKit

/// `--editions SCHEDULE`, as `subscribe` and `set` read it.
enum EditionsOption {
    static let help = "How the feed's articles make editions: daily (the default), \"daily at HH\", weekly or \"per refresh\"."

    static func schedule(_ text: String?) throws -> EditionSchedule? {
        guard let text else { return nil }
        guard let schedule = EditionSchedule(text) else {
            throw CommandFailure("--editions must be daily, \"daily at HH\" (00 to 23), weekly or \"per refresh\", not \(text)")
        }
        return schedule
    }
}
