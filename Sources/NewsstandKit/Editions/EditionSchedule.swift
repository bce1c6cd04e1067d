import Foundation

/// How often a publication's articles make an edition: `daily` (the local day),
/// `daily at HH` (from HH:00 one day to HH:00 the next, named by the day it starts),
/// `weekly` (Monday to Sunday) or `per refresh` (every refresh that brings articles).
public enum EditionSchedule: Equatable, Sendable, CustomStringConvertible {
    case daily(hour: Int)
    case weekly
    case perRefresh

    public static let standard = EditionSchedule.daily(hour: 0)

    /// Reads `daily`, `daily at 6`, `daily at 06`, `weekly`, `per refresh`.
    public init?(_ text: String) {
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" }).map(String.init)
        switch words {
        case ["daily"]: self = .daily(hour: 0)
        case ["weekly"]: self = .weekly
        case ["per", "refresh"]: self = .perRefresh
        case let list where list.count == 3 && list[0] == "daily" && list[1] == "at":
            let hour = list[2].hasSuffix(":00") ? String(list[2].dropLast(3)) : list[2]
            guard let value = Int(hour), (0..<24).contains(value) else { return nil }
            self = .daily(hour: value)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .daily(0): return "daily"
        case .daily(let hour): return String(format: "daily at %02d", hour)
        case .weekly: return "weekly"
        case .perRefresh: return "per refresh"
        }
    }

    /// When the edition holding an article of `date` starts; `now` for `per refresh`
    /// (every refresh is an edition of its own).
    public func start(of date: Date, now: Date, calendar: Calendar) -> Date {
        switch self {
        case .daily(let hour):
            let shifted = date.addingTimeInterval(-Double(hour) * 3600)
            let day = calendar.startOfDay(for: shifted)
            return calendar.date(byAdding: .hour, value: hour, to: day) ?? day
        case .weekly:
            var monday = calendar
            monday.firstWeekday = 2
            return monday.dateInterval(of: .weekOfYear, for: date)?.start ?? calendar.startOfDay(for: date)
        case .perRefresh:
            return now
        }
    }

    /// The part of an edition's name that says which one it is: `2026-11-26`,
    /// `2026-11-26T06`, `week-2026-11-23`, `refresh-2026-11-26T07:12:33`.
    public func key(for start: Date, calendar: Calendar) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: start)
        let day = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
        switch self {
        case .daily(0): return day
        case .daily: return day + String(format: "T%02d", c.hour ?? 0)
        case .weekly: return "week-" + day
        case .perRefresh: return "refresh-" + day + String(format: "T%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
        }
    }

    /// The edition's title: `Thursday 26 November 2026`, `week of 23 November 2026`,
    /// `26 November 2026, 07:12`; the `number`th edition of one period says so.
    public func title(for start: Date, number: Int, calendar: Calendar) -> String {
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_GB")
        switch self {
        case .daily(0): formatter.dateFormat = "EEEE d MMMM yyyy"
        case .daily: formatter.dateFormat = "EEEE d MMMM yyyy, HH:00"
        case .weekly: formatter.dateFormat = "'week of' d MMMM yyyy"
        case .perRefresh: formatter.dateFormat = "d MMMM yyyy, HH:mm"
        }
        let title = formatter.string(from: start)
        return number > 1 ? "\(title), edition \(number)" : title
    }
}
