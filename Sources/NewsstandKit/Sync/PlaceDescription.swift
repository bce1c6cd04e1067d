import Foundation

/// An issue's place as `newsstand place` prints it: in words, or as JSON for scripts.
public struct PlaceDescription: Sendable {
    public var issue: Issue
    public var offer: PlaceOffer?
    public var history: [ReplacedPlace]

    public init(issue: Issue, offer: PlaceOffer?, history: [ReplacedPlace]) {
        (self.issue, self.offer, self.history) = (issue, offer, history)
    }

    public var text: String {
        var lines = ["\(issue.name): " + (issue.locator.map(Self.words) ?? "not opened yet")]
        if let offer { lines.append("offered: \(offer.line(pageCount: nil, now: Date()))") }
        for replaced in history.prefix(3) {
            lines.append("before \(replaced.replacedBy) (\(replaced.replacedAt.formatted(.iso8601))): \(Self.words(replaced.locator))")
        }
        return lines.joined(separator: "\n")
    }

    public var json: String {
        struct Place: Encodable {
            var percentage: Double
            var page: Int?
            var updated: Date
            init(_ locator: Locator) {
                percentage = (locator.totalProgression * 10_000).rounded() / 100
                page = locator.page.map { $0 + 1 }
                updated = locator.updated
            }
        }
        struct Offered: Encodable { var place: Place; var source: String }
        struct Replaced: Encodable { var place: Place; var replacedAt: Date; var replacedBy: String }
        struct Whole: Encodable { var issue: String; var place: Place?; var offer: Offered?; var history: [Replaced] }
        let whole = Whole(issue: issue.name, place: issue.locator.map(Place.init),
                          offer: offer.map { Offered(place: Place($0.locator), source: $0.source) },
                          history: history.map { Replaced(place: Place($0.locator), replacedAt: $0.replacedAt, replacedBy: $0.replacedBy) })
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(whole)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func words(_ locator: Locator) -> String {
        let share = PlaceOffer.percent(locator.totalProgression)
        return (locator.page.map { "page \($0 + 1), " } ?? "") + share + ", " + locator.updated.formatted(.iso8601)
    }
}

extension PlaceOffer {
    /// The reader's status line for the offer: "Kobo: page 212 of 300 (71 %), 2 h ago — Enter to go, Esc to stay".
    public func line(pageCount: Int?, now: Date) -> String {
        "\(source): \(Self.words(locator, pageCount: pageCount)), \(Self.ago(now.timeIntervalSince(at))) — Enter to go, Esc to stay"
    }

    /// A place as the reader says it: "page 212 of 300 (71 %)", or "71 %" without a page.
    public static func words(_ locator: Locator, pageCount: Int?) -> String {
        let share = percent(locator.totalProgression)
        return locator.page.map { page in "page \(page + 1)" + (pageCount.map { " of \($0)" } ?? "") + " (\(share))" } ?? share
    }

    static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }

    static func ago(_ seconds: TimeInterval) -> String {
        switch max(0, seconds) {
        case ..<60: "just now"
        case ..<3600: "\(Int(seconds / 60)) min ago"
        case ..<86_400: "\(Int(seconds / 3600)) h ago"
        default: "\(Int(seconds / 86_400)) d ago"
        }
    }
}
