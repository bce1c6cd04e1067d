import Foundation
import Testing
@testable import Feeds
import Markup

/// Cut and corrupted versions of every fixture: each must give a document or a FeedError
/// (never a crash), and whatever is read must still be clean.
@Suite struct DamagedFeedTests {
    static let fixtures = [
        "newsstand-magazine.atom", "opds1-acquisition.xml", "opds1-navigation.xml", "opds2.json", "rss2-enclosures.xml",
        "rss1.rdf", "atom-enclosures.xml", "jsonfeed-1.1.json", "jsonfeed-1.0.json", "tutorial.plist",
        "tutorial-lowercase.plist", "latin1-rss.xml", "utf16le-bom.atom", "invalid-utf8-rss.xml", "truncated.atom",
        "entity-bomb-rss.xml", "hostile-strings.atom",
    ]

    /// SplitMix64: a fixed sequence, so a failure can be replayed.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    func check(_ data: Data, _ label: String) {
        let url = URL(string: "https://damaged.example/feeds/feed.xml")!
        do {
            let doc = try FeedParser.parse(data, url: url)
            let publication: [String?] = [doc.publication.title, doc.publication.subtitle, doc.publication.id]
            let entries: [String?] = doc.entries.flatMap { [$0.name, $0.title, $0.summary, $0.contentType, $0.sha256] }
            let links: [String?] = doc.publication.links.flatMap { [$0.title, $0.summary, $0.rel, $0.type] }
            let strings = publication + entries + links
            for text in strings.compactMap({ $0 }) where !isClean(text) {
                Issue.record("\(label): unclean string \(text.debugDescription)")
            }
            let feedURLs: [URL?] = [doc.publication.coverURL, doc.publication.pushURL, doc.publication.nextPage]
            let entryURLs: [URL?] = doc.entries.flatMap { [$0.contentURL, $0.coverURL, $0.thumbnailURL] }
            let urls = feedURLs + entryURLs + doc.publication.links.map(\.url)
            for link in urls.compactMap({ $0 }) where !["http", "https"].contains(link.scheme ?? "") {
                Issue.record("\(label): link with scheme \(link.scheme ?? "none"): \(link)")
            }
            #expect(Set(doc.entries.map(\.name)).count == doc.entries.count, "\(label): duplicate names")
        } catch is FeedError {
            // A clear refusal is a fine answer for damaged input.
        } catch {
            Issue.record("\(label): unexpected error \(error)")
        }
    }

    @Test(arguments: fixtures) func everyPrefix(_ name: String) throws {
        let data = try Fixture.data(name)
        for length in stride(from: 0, through: data.count, by: 6) { check(data.prefix(length), "\(name)[..<\(length)]") }
    }

    @Test(arguments: fixtures) func corruptedBytes(_ name: String) throws {
        let data = try Fixture.data(name)
        var random = Random(state: UInt64(truncatingIfNeeded: name.utf8.count &* 7919))
        let specials: [UInt8] = [0x00, 0x1B, 0x3C, 0x3E, 0x26, 0x22, 0x27, 0x2F, 0x3A, 0x7B, 0x7D, 0x5B, 0x5D, 0xC2, 0x9B, 0xFF]
        for round in 0..<100 {
            var bytes = [UInt8](data)
            for _ in 0..<(1 + random.next(8)) {
                let at = random.next(bytes.count)
                switch random.next(3) {
                case 0: bytes[at] = specials[random.next(specials.count)]
                case 1: bytes.remove(at: at)
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + random.next(40))], at: random.next(bytes.count))
                }
                if bytes.isEmpty { break }
            }
            check(Data(bytes), "\(name) round \(round)")
        }
    }
}

/// Inputs found by fuzzing that once crashed, kept so they never do again.
@Suite struct FuzzRegressionTests {
    /// Found by the feed target's differential check: an item inside a second root element
    /// was read while streaming, though the document leaves everything after the root out.
    @Test func itemsAfterTheRootAreNotRead() throws {
        let xml = "<rss v/>\n<hink><item><guid>late</guid><enclosure url=\"a.zip\"/></item></hink>"
        let doc = try FeedParser.parse(Data(xml.utf8), url: try #require(URL(string: "https://f.example/rss")))
        #expect(doc.entries.isEmpty)
        #expect(doc.problems.contains { $0.contains("second root") })
        var streamed = 0
        _ = MarkupParser.parse(Data(xml.utf8), streaming: ["item"]) { _ in streamed += 1 }
        #expect(streamed == 0)
    }

    @Test func mediaTypeOfOnlyParameters() throws {
        let xml = "<rss><channel><item><guid>a</guid><enclosure url=\"a.zip\" type=\";\"/></item></channel></rss>"
        let doc = try FeedParser.parse(Data(xml.utf8), url: try #require(URL(string: "https://f.example/rss")))
        #expect(doc.entries.first?.contentURL?.absoluteString == "https://f.example/a.zip")
    }

    /// Found by the feed target's leak check: `PropertyListSerialization` leaked its error
    /// for bytes that start like a binary property list but are none (it went on to try the
    /// text formats). Binary property lists are read by `PropertyListDecoder` now.
    @Test func aDamagedBinaryPlistIsUnreadable() throws {
        let url = try #require(URL(string: "https://f.example/p"))
        let unreadable = FeedError.unreadable(url, "its binary property list is damaged")
        let bytes = Data("bplist00rsion=\"1. \"eVGc0noding=\"U-CSTF-8\"?>\n<rdf:RDF xmlns:rdf=kly,s".utf8)
            + Data([0x80, 0x69, 0x70, 0x22, 0x0F, 0x00, 0x00, 0x00]) + Data(" type=\"application/zip\"/>\n</rdf:RDF>".utf8)
        #expect(throws: unreadable) { try FeedParser.parse(bytes, url: url) }
        // A sound frame around damaged objects, and a cut one.
        let issues: [[String: Any]] = [["Name": "a", "Content": "a.zip"]]
        let good = try PropertyListSerialization.data(fromPropertyList: issues, format: .binary, options: 0)
        var damaged = good
        damaged.replaceSubrange(8..<10, with: [0xFF, 0xFF])
        #expect(throws: unreadable) { try FeedParser.parse(damaged, url: url) }
        #expect(throws: unreadable) { try FeedParser.parse(good.dropLast(), url: url) }
    }

    /// Arrays nested past `maximumDepth` are refused, not followed down the stack.
    @Test func aDeeplyNestedBinaryPlistIsUnreadable() throws {
        var nested: Any = [["Name": "deep", "Content": "d.zip"]]
        for _ in 0..<100 { nested = [nested] }
        let data = try PropertyListSerialization.data(fromPropertyList: nested, format: .binary, options: 0)
        let url = try #require(URL(string: "https://f.example/p"))
        #expect(throws: FeedError.unreadable(url, "its binary property list is damaged")) { try FeedParser.parse(data, url: url) }
    }
}
