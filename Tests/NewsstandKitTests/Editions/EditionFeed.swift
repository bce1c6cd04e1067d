import Foundation

/// An RSS feed of articles (and issues) written by a test, dated in the machine's time zone.
struct EditionFeed {
    struct Item {
        var id: String
        var title: String
        /// Local date and hour, e.g. (2026, 11, 24, 10).
        var when: (Int, Int, Int, Int)?
        var category: String? = nil
        var html: String = "<p>Words.</p>"
        var archive: String? = nil
        /// The item's `dc:language`.
        var language: String? = nil
    }

    var title = "The Daily Lamp"
    var items: [Item]
    /// The channel's `<language>`.
    var language: String? = nil

    static func date(_ when: (Int, Int, Int, Int)) -> Date {
        Calendar.current.date(from: DateComponents(year: when.0, month: when.1, day: when.2, hour: when.3))!
    }

    var xml: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        let entries = items.map { item -> String in
            let date = item.when.map { "<pubDate>\(formatter.string(from: Self.date($0)))</pubDate>" } ?? ""
            let category = item.category.map { "<category>\($0)</category>" } ?? ""
            let archive = item.archive.map { "<enclosure url=\"\($0)\" type=\"application/zip\" length=\"10\"/>" } ?? ""
            let language = item.language.map { "<dc:language>\($0)</dc:language>" } ?? ""
            let escaped = item.html.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            return """
                <item><title>\(item.title)</title><guid isPermaLink="false">\(item.id)</guid><link>articles/\(item.id).html</link>
                \(date)\(category)\(language)<description>\(escaped)</description>\(archive)</item>
                """
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>\(title)</title><link>https://lamp.example/</link>
            \(language.map { "<language>\($0)</language>" } ?? "")
            \(entries)
            </channel></rss>
            """
    }
}
