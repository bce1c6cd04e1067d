import Foundation

/// Times as ISO 8601 in UTC (`2026-11-29T07:40:07.049Z`), as the servers and exports the
/// library speaks to write them: calibre's annotations, OPDS progression, W3C and calibre
/// exports. One place for the format, read with or without fractional seconds.
enum ISOTime {
    static func string(_ date: Date, fractionalSeconds: Bool = true) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = fractionalSeconds ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
