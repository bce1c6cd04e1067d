import Foundation

/// HTTP's dates (RFC 9110, 5.6.7): written as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`),
/// read in the three forms a recipient must accept. The fixdate is written and read by hand:
/// a DateFormatter made for each served answer (ICU's date symbols copied every time) was the
/// largest cost of a catalog answer after the socket. The obsolete forms (RFC 850's and
/// asctime's), which few clients still send, are read by DateFormatter.
public enum HTTPDate {
    static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The date, or nil for text in none of the three forms.
    public static func parse(_ text: String) -> Date? { fixdate(text) ?? obsolete(text) }

    private static func fixdate(_ text: String) -> Date? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[0].count == 4, fields[0].hasSuffix(","), days.contains(String(fields[0].dropLast())),
              fields[5] == "GMT", let day = Int32(fields[1]), fields[1].count == 2, let month = months.firstIndex(of: String(fields[2])),
              let year = Int32(fields[3]), fields[3].count == 4 else { return nil }
        let clock = fields[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = Int32(clock[0]), let minute = Int32(clock[1]),
              let second = Int32(clock[2]), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              (0...60).contains(second) else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    private static func obsolete(_ text: String) -> Date? {
        for format in ["EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
