import Foundation

/// Dates as feeds really write them: RFC 3339 / ISO 8601 (with or without time, zone or
/// fraction), RFC 822 / 1123 with named zones, no seconds, two-digit years or localized day
/// and month names, asctime, "January 5, 2024" and Unix timestamps.
public enum FeedDates {
    public static func parse(_ raw: String?) -> Date? {
        guard let text = FeedText.line(raw) else { return nil }
        let bytes = text.utf8Bytes
        if let date = iso8601(bytes) { return date }
        if bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), bytes.count >= 9, bytes.count <= 11,
           let seconds = Double(text) {
            return Date(timeIntervalSince1970: seconds)
        }
        return tokens(text)
    }

    // MARK: ISO 8601

    private static func iso8601(_ b: [UInt8]) -> Date? {
        var i = 0
        func number(_ digits: Int) -> Int? {
            guard i + digits <= b.count else { return nil }
            var value = 0
            for k in i..<(i + digits) {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                value = value * 10 + Int(b[k] - 0x30)
            }
            i += digits
            return value
        }
        func take(_ c: UInt8) -> Bool {
            if i < b.count, b[i] == c { i += 1; return true }
            return false
        }
        guard let year = number(4), take(UInt8(ascii: "-")), let month = number(2) else { return nil }
        var day = 1
        if take(UInt8(ascii: "-")) { guard let d = number(2) else { return nil }; day = d }
        var hour = 0, minute = 0
        var second = 0.0
        var offset = 0
        if i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == 0x20 {
            i += 1
            guard let h = number(2), take(UInt8(ascii: ":")), let m = number(2) else { return nil }
            hour = h
            minute = m
            if take(UInt8(ascii: ":")) {
                guard let s = number(2) else { return nil }
                second = Double(s)
                if take(UInt8(ascii: ".")) || take(UInt8(ascii: ",")) {
                    var scale = 0.1
                    while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                        second += Double(b[i] - 0x30) * scale
                        scale /= 10
                        i += 1
                    }
                }
            }
            if i < b.count, b[i] == 0x20 { i += 1 }
            if take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) {
                offset = 0
            } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard let oh = number(2) else { return nil }
                _ = take(UInt8(ascii: ":"))
                let om = number(2) ?? 0
                offset = sign * (oh * 3600 + om * 60)
            } else if i < b.count {
                // "2024-03-01 10:00 GMT" and friends.
                let rest = String(decoding: b[i...], as: UTF8.self).uppercased()
                guard let zone = zones[rest] else { return nil }
                offset = zone
                i = b.count
            }
        }
        guard i == b.count else { return nil }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    // MARK: RFC 822 and other word-based forms

    private static func tokens(_ text: String) -> Date? {
        var year: Int?, month: Int?, day: Int?
        var hour = 0, minute = 0
        var second = 0.0
        var offset: Int?
        var sawTime = false
        var meridiem: String?
        let separators = CharacterSet(charactersIn: " ,\t")
        for rawToken in text.components(separatedBy: separators) where !rawToken.isEmpty {
            var token = rawToken
            while token.hasSuffix(".") { token.removeLast() }
            guard !token.isEmpty else { continue }
            if !sawTime, token.contains(":"), let first = token.first, first.isNumber {
                let parts = token.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count >= 2, let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
                hour = h
                minute = m
                if parts.count >= 3 {
                    guard let s = Double(parts[2]) else { return nil }
                    second = s
                }
                sawTime = true
                continue
            }
            if let first = token.first, first == "+" || first == "-", token.count >= 3 {
                let digits = token.dropFirst().replacingOccurrences(of: ":", with: "")
                if digits.count <= 4, let value = Int(digits), digits.allSatisfy(\.isNumber) {
                    let sign = first == "-" ? -1 : 1
                    let (h, m) = digits.count <= 2 ? (value, 0) : (value / 100, value % 100)
                    offset = sign * (h * 3600 + m * 60)
                    continue
                }
            }
            if let numeric = numericDate(token) {
                (year, month, day) = (numeric.year, numeric.month, numeric.day)
                continue
            }
            if token.allSatisfy(\.isNumber) {
                guard let value = Int(token) else { continue }
                if token.count == 4 {
                    year = value
                } else if day == nil, token.count <= 2 {
                    day = value
                } else if year == nil, token.count <= 2 {
                    year = value < 50 ? 2000 + value : 1900 + value
                }
                continue
            }
            let upper = token.uppercased()
            if upper == "AM" || upper == "PM" {
                meridiem = upper
                continue
            }
            if offset == nil, let zone = zones[upper] {
                offset = zone
                continue
            }
            if month == nil, let m = monthNumber(token.lowercased()) {
                month = m
                continue
            }
            // Day names in any language, "de", "le", ordinals: ignored.
        }
        guard let year, let month, let day else { return nil }
        if meridiem == "PM", hour < 12 { hour += 12 }
        if meridiem == "AM", hour == 12 { hour = 0 }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset ?? 0)
    }

    /// `2026/02/10` (year first), `10.02.2026` (day first, as dotted dates are written), or
    /// `10/02/2026` when one of the first two numbers can only be a day.
    private static func numericDate(_ token: String) -> (year: Int, month: Int, day: Int)? {
        let separator: Character = token.contains("/") ? "/" : "."
        let parts = token.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) }),
              let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2]) else { return nil }
        if parts[0].count == 4 { return (a, b, c) }
        guard parts[2].count == 4 else { return nil }
        if separator == "." || a > 12 { return (c, b, a) }
        if b > 12 { return (c, a, b) }
        return nil  // 03/04/2026: no telling which is the month
    }

    private static func monthNumber(_ word: String) -> Int? {
        if let m = months[word] { return m }
        // Full names and other lengths: match on the first three or four letters.
        for length in [4, 3] where word.count > length {
            if let m = months[String(word.prefix(length))] { return m }
        }
        return nil
    }

    private static let months: [String: Int] = {
        var table: [String: Int] = [:]
        let names: [[String]] = [
            ["jan", "janv", "ene", "gen", "jän"],
            ["feb", "févr", "fév", "fev", "fevr"],
            ["mar", "mär", "mrz", "mars"],
            ["apr", "avr", "abr"],
            ["may", "mai", "mei", "mag"],
            ["jun", "juin", "giu"],
            ["jul", "juil", "lug"],
            ["aug", "août", "aou", "ago"],
            ["sep", "sept", "set"],
            ["oct", "okt", "ott", "out"],
            ["nov"],
            ["dec", "déc", "dez", "dic", "dét"],
        ]
        for (index, words) in names.enumerated() {
            for word in words { table[word] = index + 1 }
        }
        return table
    }()

    private static let zones: [String: Int] = {
        let hours: [String: Double] = [
            "GMT": 0, "UT": 0, "UTC": 0, "Z": 0, "WET": 0,
            "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
            "AKST": -9, "AKDT": -8, "HST": -10, "AST": -4, "ADT": -3, "NST": -3.5, "NDT": -2.5,
            "BST": 1, "IST": 5.5, "CET": 1, "CEST": 2, "MEZ": 1, "MESZ": 2, "MET": 1, "MEST": 2, "WEST": 1, "EET": 2, "EEST": 3,
            "MSK": 3, "JST": 9, "KST": 9, "HKT": 8, "SGT": 8, "AWST": 8, "ACST": 9.5, "AEST": 10,
            "AEDT": 11, "NZST": 12, "NZDT": 13,
        ]
        return hours.mapValues { Int($0 * 3600) }
    }()

    // MARK: Calendar arithmetic

    static func make(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double, offset: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour),
              (0...59).contains(minute), second >= 0, second < 61, (1...9999).contains(year) else { return nil }
        // Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 - offset) + second
        return Date(timeIntervalSince1970: seconds)
    }
}
