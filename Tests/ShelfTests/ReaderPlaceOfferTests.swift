import Foundation
import Synchronization
import Terminal
import Testing
import TextLayout
@testable import NewsstandKit
@testable import Shelf

/// The reader's side of place sync through its update alone: no library, no server. A
/// sync is an effect the reader asks for, its answer a message; the reader decides what
/// to do with a place another reader sent.
@Suite struct ReaderPlaceOfferTests {
    /// A clock the test moves.
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(by seconds: TimeInterval) { now.withLock { $0 += seconds } }
        var date: Date { now.withLock { $0 } }
    }

    static func opened(clock: Clock = Clock()) -> ReaderScreen {
        let issue = Issue(id: 1, publicationId: 1, name: "harbour", date: Date(timeIntervalSince1970: 0), title: "Harbour")
        let source = ReaderSource(issue: issue, content: ReaderPureModelTests.content, folder: "/nowhere/", weights: [1, 1, 1],
                                  isDocument: false, pages: [], articles: [0: ReaderPureModelTests.article("a")])
        return ReaderScreen(source, theme: .classic, size: (80, 24), clock: { clock.date })
    }

    static func offer(_ share: Double, from source: String = "kobo: Kobo", hoursAgo: Double, clock: Clock) -> PlaceOffer {
        let at = clock.date.addingTimeInterval(-hoursAgo * 3600)
        return PlaceOffer(locator: Locator(resource: "", progression: 0, totalProgression: share, updated: at), source: source, at: at)
    }

    static func saved(_ effects: [ReaderEffect]) -> Locator? {
        effects.lazy.compactMap { if case .save(let place) = $0 { place } else { nil } }.first
    }

    /// A place known only by how far through the issue it is (kosync's percentage, `place
    /// --set 40%`): the reader opens there, in the article and down into it, and the place it
    /// reads back is that far (it once opened at the top and saved 0 %, losing the place).
    @Test func aPlaceThatIsOnlyAPercentageOpensThatFarIntoTheIssue() throws {
        for share in [0.4, 0.5, 0.9] {
            var issue = Issue(id: 1, publicationId: 1, name: "harbour", date: Date(timeIntervalSince1970: 0), title: "Harbour")
            issue.locator = Locator(resource: "", progression: 0, totalProgression: share, updated: Date(timeIntervalSince1970: 0))
            let articles = [0: ReaderPureModelTests.article("a", paragraphs: 60), 1: ReaderPureModelTests.article("b", paragraphs: 60),
                            2: ReaderPureModelTests.article("c", paragraphs: 60)]
            let source = ReaderSource(issue: issue, content: ReaderPureModelTests.content, folder: "/nowhere/", weights: [1, 1, 1],
                                      isDocument: false, pages: [], articles: articles)
            var reader = ReaderScreen(source, theme: .classic, size: (80, 24), clock: { Date(timeIntervalSince1970: 0) })
            _ = reader.start()
            let here = reader.locator
            #expect(here.resource == "ch\(Int(share * 3) + 1).xhtml", "\(share): \(here)")
            #expect(abs(here.totalProgression - share) < 0.02, "\(share) read back as \(here.totalProgression)")
            // The screen shows that part of the article, not its top.
            let tag = ["a", "b", "c"][Int(share * 3)]
            #expect(!ReaderPureModelTests.text(reader).contains("\(tag)p0w0"), "\(share)")
        }
    }

    @Test func theReaderAsksForASyncAtTheStartAndAgainAMinuteAfterTheLastAnswer() {
        let clock = Clock()
        var reader = Self.opened(clock: clock)
        let started = reader.start()
        #expect(started.contains(.syncPlace(leaving: false)), "the first frame asks, and does not wait: \(started)")
        #expect(!reader.update(.key(.down)).contains(.syncPlace(leaving: false)), "one sync at a time")
        clock.advance(by: 120)
        #expect(!reader.update(.key(.down)).contains(.syncPlace(leaving: false)), "not while the answer is awaited")
        _ = reader.update(.loaded(.placeSynced(OpenIssueSync())))
        clock.advance(by: 59)
        #expect(!reader.update(.key(.down)).contains(.syncPlace(leaving: false)))
        clock.advance(by: 1)
        #expect(reader.update(.key(.down)).contains(.syncPlace(leaving: false)))
        // Leaving sends the place once more, after it is saved.
        let left = reader.update(.leave)
        #expect(left == [.save(reader.locator), .syncPlace(leaving: true), .leave])
    }

    @Test func aFarPlaceIsOfferedOnTheStatusLineAndEnterGoesThere() throws {
        let clock = Clock()
        var reader = Self.opened(clock: clock)
        _ = reader.start()
        let offer = Self.offer(0.75, hoursAgo: 2, clock: clock)
        #expect(reader.update(.loaded(.placeSynced(OpenIssueSync(offer: offer)))).isEmpty, "an offer moves nothing by itself")
        #expect(reader.statusLine.text == "kobo: Kobo: 75 %, 2 h ago — Enter to go, Esc to stay")
        #expect(reader.answersOffer && reader.takesEscape)
        #expect(ReaderPureModelTests.text(reader).contains("article 1 of 3"))

        // Other keys read on; the offer stays until it is answered.
        _ = reader.update(.key(.down))
        #expect(reader.statusLine.text?.hasSuffix("Enter to go, Esc to stay") == true)

        let went = reader.update(.key(.enter))
        #expect(went.contains(.answerOffer(take: true)))
        let place = try #require(Self.saved(went))
        #expect(place.resource == "ch3.xhtml", "75 % of three equal articles is in the third")
        #expect(ReaderPureModelTests.text(reader).contains("article 3 of 3"))
        #expect(!reader.answersOffer)
        #expect(reader.statusLine.text == "kobo: Kobo: 75 % (u goes back)")

        // The same remote place, told again by the next sync, is not offered twice.
        _ = reader.update(.loaded(.placeSynced(OpenIssueSync(offer: offer, history: reader.places.history))))
        #expect(!reader.answersOffer)

        // u: back where the reader was before the jump.
        let back = reader.update(.key(.character("u")))
        #expect(Self.saved(back)?.resource == "ch1.xhtml")
        #expect(ReaderPureModelTests.text(reader).contains("article 1 of 3"))
    }

    @Test func escapeStaysAndTheSamePlaceIsNotOfferedAgain() {
        let clock = Clock()
        var reader = Self.opened(clock: clock)
        _ = reader.start()
        let offer = Self.offer(0.9, hoursAgo: 0, clock: clock)
        _ = reader.update(.loaded(.placeSynced(OpenIssueSync(offer: offer))))
        #expect(reader.statusLine.text == "kobo: Kobo: 90 %, just now — Enter to go, Esc to stay")
        var adapter = ReaderAdapter(screen: reader)
        let stayed = adapter.update(.escape, bindings: .defaults)
        #expect(stayed.contains(.answerOffer(take: false)) && !stayed.contains(.leave), "Esc answers the offer; it does not leave the reader")
        #expect(adapter.screen.statusLine.text == "Staying here.")
        #expect(ReaderPureModelTests.text(adapter.screen).contains("article 1 of 3"))
        clock.advance(by: 61)
        _ = adapter.update(.down, bindings: .defaults)
        _ = adapter.screen.update(.loaded(.placeSynced(OpenIssueSync(offer: offer))))
        #expect(!adapter.screen.answersOffer && adapter.screen.statusLine.text == nil)
        // A newer place from the same reader is offered.
        let newer = Self.offer(0.5, hoursAgo: 0, clock: clock)
        _ = adapter.screen.update(.loaded(.placeSynced(OpenIssueSync(offer: newer))))
        #expect(adapter.screen.statusLine.text == "kobo: Kobo: 50 %, just now — Enter to go, Esc to stay")
        // Enter reaches the offer through the adapter, not the shared bindings.
        #expect(adapter.update(.enter, bindings: .defaults).contains(.answerOffer(take: true)))
        #expect(ReaderPureModelTests.text(adapter.screen).contains("article 2 of 3"))
    }

    @Test func aSmallMoveForwardIsTakenWithoutAsking() throws {
        let clock = Clock()
        var reader = Self.opened(clock: clock)
        _ = reader.start()
        let near = Self.offer(0.02, hoursAgo: 1, clock: clock)
        let effects = reader.update(.loaded(.placeSynced(OpenIssueSync(offer: near))))
        #expect(effects.first == .answerOffer(take: true))
        #expect(Self.saved(effects) != nil)
        #expect(!reader.answersOffer)
        #expect(reader.statusLine.text == "kobo: Kobo: on to 2 %")

        // A place the sync took into the library (a small move) is followed the same way;
        // one that is far from where the reader went meanwhile is offered, and Esc puts the
        // reader's own place back.
        var other = Self.opened(clock: clock)
        _ = other.start()
        let taken = Locator(resource: "", progression: 0, totalProgression: 0.8, updated: clock.date)
        #expect(other.update(.loaded(.placeSynced(OpenIssueSync(taken: taken, takenFrom: "kobo: Kobo")))).isEmpty)
        #expect(other.answersOffer)
        let kept = other.update(.key(.escape))
        #expect(kept.count == 1 && Self.saved(kept)?.resource == "ch1.xhtml", "\(kept)")
    }

    @Test func uGoesBackThroughThePlacesSyncedOnesReplaced() {
        let clock = Clock()
        var reader = Self.opened(clock: clock)
        _ = reader.start()
        #expect(Self.saved(reader.update(.key(.character("u"))))?.resource ?? "ch1.xhtml" == "ch1.xhtml")
        #expect(reader.statusLine.text == "No place was replaced by a synced one in this issue.")
        let history = [
            ReplacedPlace(locator: Locator(resource: "ch2.xhtml", progression: 0, totalProgression: 0.4, updated: clock.date),
                          replacedAt: clock.date, replacedBy: "kobo: Kobo"),
            ReplacedPlace(locator: Locator(legacyPosition: "{\"article\":2}", progress: 0.7, updated: clock.date)!,
                          replacedAt: clock.date, replacedBy: "place --set"),
        ]
        _ = reader.update(.loaded(.placeSynced(OpenIssueSync(history: history))))
        #expect(Self.saved(reader.update(.key(.character("u"))))?.resource == "ch2.xhtml")
        #expect(reader.statusLine.text == "Back to 40 %, left for kobo: Kobo (u: 1 older)")
        #expect(Self.saved(reader.update(.key(.character("u"))))?.resource == "ch3.xhtml")
        #expect(reader.statusLine.text == "Back to 70 %, left for place --set")
        #expect(Self.saved(reader.update(.key(.character("u")))) == nil, "nowhere older to go")
        #expect(reader.statusLine.text == "No older place in this issue's history.")
        #expect(ReaderPureModelTests.text(reader).contains("article 3 of 3"))
    }

    @Test func aComicStreamedFromACatalogIsNotSynced() {
        let issue = Issue(publicationId: nil, name: "streamed", date: Date(), title: "Streamed")
        let source = ReaderSource(issue: issue, content: ReaderPureModelTests.content, folder: "/nowhere/", weights: [1, 1, 1],
                                  isDocument: false, pages: [], articles: [0: ReaderPureModelTests.article("a")])
        var reader = ReaderScreen(source, theme: .classic, size: (80, 24))
        #expect(!reader.start().contains(.syncPlace(leaving: false)))
        #expect(!reader.update(.leave).contains(.syncPlace(leaving: true)))
    }
}
