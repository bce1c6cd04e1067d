import Foundation
import NewsstandKit
import TextLayout
import Terminal

/// The reader's side of place sync: what the last sync of the open issue said (an offer
/// from another reader, the places replaced so far) and what the reader did with it. The
/// sync itself is an effect (`ReaderEffect.syncPlace`); its answer a message
/// (`.loaded(.placeSynced)`).
struct ReaderPlaces {
    /// A place from another reader shown on the status line until Enter or Esc.
    struct Shown: Equatable {
        var offer: PlaceOffer
        var line: String
        /// The sync put it in the library already (the reader had moved on meanwhile): Esc
        /// puts the reader's own place back rather than declining an offer.
        var inLibrary: Bool
    }

    var shown: Shown?
    /// Offers answered in this reader: the same remote place is not offered again.
    var answered: [PlaceOffer] = []
    /// Places replaced by synced ones, newest first, as the last sync read them.
    var history: [ReplacedPlace] = []
    /// The history entry `u` went to last; the next `u` goes one older.
    var historyStep: Int?
    /// When this reader last asked for a sync, and whether its answer is still to come.
    var asked: Date?
    var awaiting = false
    /// A server's trouble is said once a reader.
    var toldProblem = false
}

extension ReaderScreen {
    /// While an issue is open its place is synced again this often (on the next message
    /// after it, so an idle reader asks nothing).
    static let syncInterval: TimeInterval = 60

    /// Only an issue of the library is synced (not a comic streamed from a catalog).
    var syncsPlace: Bool { issue.id != nil && streamed == nil }

    /// Enter and Escape answer the offer shown.
    var answersOffer: Bool { mode == .reading && places.shown != nil }

    /// The first frame asks for a sync; the reader shows its page without waiting for it.
    mutating func askForSync() -> [ReaderEffect] {
        guard syncsPlace else { return [] }
        places.asked = clockNow
        places.awaiting = true
        return [.syncPlace(leaving: false)]
    }

    /// Another sync once `syncInterval` passed since the last answer came.
    mutating func syncIfDue() -> [ReaderEffect] {
        guard syncsPlace, !places.awaiting, let asked = places.asked,
              clockNow.timeIntervalSince(asked) >= Self.syncInterval else { return [] }
        return askForSync()
    }

    /// What a sync of this issue said: a small move forward is taken without asking, a jump
    /// back or further is offered on the status line, the same remote place never twice.
    mutating func receiveSynced(_ synced: OpenIssueSync) -> [ReaderEffect] {
        places.awaiting = false
        places.asked = clockNow
        if places.history != synced.history { places.historyStep = nil }
        places.history = synced.history
        if let problem = synced.problems.first, !places.toldProblem {
            places.toldProblem = true
            if note == nil { note = ReaderNote(text: "Places not synced: \(problem)", isError: true) }
        }
        if let taken = synced.taken {
            let offer = PlaceOffer(locator: taken, source: synced.takenFrom ?? "another reader", at: taken.updated)
            return consider(offer, inLibrary: true)
        }
        guard let offer = synced.offer, offer != places.shown?.offer, !places.answered.contains(offer) else { return [] }
        return consider(offer, inLibrary: false)
    }

    private mutating func consider(_ offer: PlaceOffer, inLibrary: Bool) -> [ReaderEffect] {
        let here = locator
        switch PlaceMove(from: here, to: offer.locator) {
        case .none:
            places.answered.append(offer)
            return inLibrary ? [] : [.answerOffer(take: false)]
        case .small:
            places.answered.append(offer)
            note = ReaderNote(text: "\(offer.source): on to \(PlaceOffer.words(offer.locator, pageCount: pageCount))")
            return (inLibrary ? [] : [.answerOffer(take: true)]) + go(to: offer.locator)
        case .far:
            places.shown = ReaderPlaces.Shown(offer: offer, line: offer.line(pageCount: pageCount, now: clockNow), inLibrary: inLibrary)
            return []
        }
    }

    /// Enter goes to the offered place (the one left goes to the history), Esc stays.
    mutating func answerOffer(_ key: Key) -> [ReaderEffect] {
        guard let shown = places.shown else { return [] }
        places.shown = nil
        places.answered.append(shown.offer)
        if key == .enter {
            note = ReaderNote(text: "\(shown.offer.source): \(PlaceOffer.words(shown.offer.locator, pageCount: pageCount)) (u goes back)")
            if !shown.inLibrary {
                // The place left is the history's newest now: `u` goes back to it.
                places.history.insert(ReplacedPlace(locator: locator, replacedAt: clockNow, replacedBy: shown.offer.source), at: 0)
                places.historyStep = nil
            }
            return (shown.inLibrary ? [] : [.answerOffer(take: true)]) + go(to: shown.offer.locator)
        }
        note = ReaderNote(text: "Staying here.")
        guard shown.inLibrary else { return [.answerOffer(take: false)] }
        // The library holds the other reader's place: this reader's own goes back.
        let here = locator
        markSaved(here)
        return [.save(here)]
    }

    /// `u`: back through the places replaced by synced ones, one older each time.
    mutating func stepBackThroughHistory() -> [ReaderEffect] {
        let next = (places.historyStep ?? -1) + 1
        guard places.history.indices.contains(next) else {
            note = ReaderNote(text: places.history.isEmpty ? "No place was replaced by a synced one in this issue."
                                                           : "No older place in this issue's history.")
            return []
        }
        places.historyStep = next
        let replaced = places.history[next]
        let older = places.history.count - next - 1
        note = ReaderNote(text: "Back to \(PlaceOffer.words(replaced.locator, pageCount: pageCount)), left for \(replaced.replacedBy)"
                          + (older > 0 ? " (u: \(older) older)" : ""))
        return go(to: replaced.locator)
    }

    /// The reader at `place` (a place another reader sent, named as that reader could:
    /// a page, a chapter, or a share of the issue), saved at once.
    private mutating func go(to place: Locator) -> [ReaderEffect] {
        remakePager(at: placed(place))
        pager.settle()
        let here = locator
        markSaved(here)
        return [.save(here)]
    }

    /// `place` with its resource named in this issue (`placed(_:in:weights:)`).
    func placed(_ place: Locator) -> Locator {
        Self.placed(place, in: content.readingOrder.map(\.path), weights: pagerWeights)
    }

    /// `place` with its resource named in `order`: a chapter by its index, a page by its
    /// number, and a share of the issue by the articles' `weights`, down to how far into
    /// its article (what a percentage from another device or `place --set 40%` says).
    static func placed(_ place: Locator, in order: [String], weights given: [Double]) -> Locator {
        guard !order.isEmpty else { return place }
        if place.resourceIndex != nil, let resolved = place.resolved(in: order) { return resolved }
        if order.contains(place.resource) { return place }
        if let page = place.page {
            let index = min(page, order.count - 1)
            return Locator(resource: order[index], progression: 0, totalProgression: place.totalProgression, page: index, updated: place.updated)
        }
        let weights = given.count == order.count ? given : Array(repeating: 1, count: order.count)
        let wanted = max(0, min(1, place.totalProgression)) * weights.reduce(0, +)
        var before = 0.0
        let index = weights.firstIndex { weight in
            defer { before += weight }
            return before + weight > wanted
        } ?? order.count - 1
        let start = weights[..<index].reduce(0, +)
        let within = weights[index] > 0 ? max(0, min(1, (wanted - start) / weights[index])) : 0
        return Locator(resource: order[index], progression: within, totalProgression: place.totalProgression, updated: place.updated)
    }

    /// The pages a paged issue has, for the offer's "page 212 of 300".
    private var pageCount: Int? {
        guard locator.page != nil || view == .pages || content.format == .cbz else { return nil }
        return content.readingOrder.count
    }
}
