import Foundation

/// How far a place from another reader would move this one, as the reader decides it:
/// forward by a few pages (or hundredths) is small and taken, back or further is far and
/// offered (`PlaceSync.move`, the one rule the sync and the reader share).
public enum PlaceMove: Sendable, Equatable {
    case none, small, far

    public init(from here: Locator, to there: Locator) {
        switch PlaceSync.move(from: here, to: there) {
        case .none: self = .none
        case .small: self = .small
        case .far: self = .far
        }
    }
}

/// What the open reader learns from a sync of its issue: the place another reader offers,
/// the place this sync took in (a small move forward), and the places replaced so far.
public struct OpenIssueSync: Sendable, Equatable {
    public var offer: PlaceOffer?
    /// The issue's place when this sync took one from a server; nil when it kept its own.
    public var taken: Locator?
    /// Which server and device the taken place came from.
    public var takenFrom: String?
    /// Places replaced by synced ones (and by the offers taken), newest first.
    public var history: [ReplacedPlace]
    /// Why a server was not reached, in a sentence a server (said on the status line once).
    public var problems: [String]

    public init(offer: PlaceOffer? = nil, taken: Locator? = nil, takenFrom: String? = nil, history: [ReplacedPlace] = [],
                problems: [String] = []) {
        (self.offer, self.taken, self.takenFrom, self.history, self.problems) = (offer, taken, takenFrom, history, problems)
    }
}

extension PlaceSync {
    /// Syncs the open issue's place with every server, off the reader's key path (the
    /// shelf's effect runner), and says what the reader should know. A server that is down
    /// leaves the place waiting with the usual backoff (`postponeSync`). With `leaving`, the
    /// reader has closed: the place is only sent.
    public func syncOpenIssue(id: Int64, leaving: Bool = false) -> OpenIssueSync {
        let before = try? store.issue(id: id)?.locator
        let report = sync(issues: [id])
        guard !leaving, let issue = try? store.issue(id: id) else { return OpenIssueSync(problems: report.problems) }
        let history = (try? store.placeHistory(of: issue)) ?? []
        var taken: Locator?, takenFrom: String?
        if report.received > 0, let now = issue.locator, now != before {
            taken = now
            // The place it replaced names the server and device; a first place replaced none.
            takenFrom = before == nil ? (try? store.syncTargets())?.map(\.name).joined(separator: ", ") : history.first?.replacedBy
        }
        return OpenIssueSync(offer: try? store.placeOffer(for: issue), taken: taken, takenFrom: takenFrom,
                             history: history, problems: report.problems)
    }

    /// Esc on the reader's offer: the reader stays, and the same remote place is not offered
    /// again (its server time stays the one seen).
    public func declineOffer(for issue: Issue) throws {
        try store.declinePlaceOffer(for: issue)
    }
}
