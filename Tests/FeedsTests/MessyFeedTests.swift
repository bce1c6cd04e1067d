import Foundation
import Testing
@testable import Feeds

@Suite struct MessyFeedTests {
    @Test func declaredLatin1() throws {
        let doc = try Fixture.parse("latin1-rss.xml", url: "http://cafe.example/rss")
        #expect(doc.publication.title == "Le Café du Port")
        #expect(doc.publication.subtitle == "Chroniques maritimes — édition hebdomadaire")
        #expect(doc.entries.first?.title == "Numéro 12 : « Marée haute »")
        // French day and month abbreviations, no seconds.
        #expect(doc.entries.first?.date == utc("2026-02-05T06:15:00Z"))
    }

    @Test func utf16WithBOM() throws {
        let doc = try Fixture.parse("utf16le-bom.atom", url: "https://tokyo-bay.example/feed")
        #expect(doc.publication.title == "東京湾ニュース")
        #expect(doc.entries.first?.title == "二月号 🐟")
        #expect(doc.entries.first?.date == utc("2026-01-31T15:00:00Z"))
    }

    @Test func invalidUTF8IsReplaced() throws {
        let doc = try Fixture.parse("invalid-utf8-rss.xml", url: "https://bytes.example/rss")
        #expect(doc.entries.first?.title == "Caf\u{FFFD} \u{FFFD} edition")
        #expect(doc.problems.contains { $0.contains("UTF-8") })
    }

    @Test func truncatedFeedKeepsCompleteEntries() throws {
        let doc = try Fixture.parse("truncated.atom", url: "https://cut.example/feed.atom")
        #expect(doc.format == .newsstandAtom)
        #expect(doc.entries.prefix(2).map(\.name) == ["cut-1", "cut-2"])
        #expect(doc.entries[1].contentURL?.absoluteString == "https://cut.example/2.epub")
        #expect(doc.problems.first?.contains("not well-formed") == true)
    }

    @Test func entityBombAndExternalEntitiesStayInert() throws {
        let doc = try Fixture.parse("entity-bomb-rss.xml", url: "https://bomb.example/rss")
        #expect(doc.publication.title == "Laughs &lol9;")
        #expect(doc.entries.first?.title == "Secret: &xxe;")
        #expect(doc.problems.contains { $0.contains("entity declarations") })
    }

    @Test func controlCharactersAndBidiOverridesAreStripped() throws {
        let doc = try Fixture.parse("hostile-strings.atom", url: "https://hostile.example/feed")
        let entry = try #require(doc.entries.first)
        for text in [doc.publication.title, entry.name, entry.title, entry.summary ?? ""] {
            #expect(isClean(text), "\(text.debugDescription)")
        }
        #expect(doc.publication.title.hasPrefix("Evil Times"), "whole sequences go: \(doc.publication.title)")
        #expect(entry.name == "hostile-1")
        #expect(entry.summary == "line one line two")
    }

    @Test func notAFeed() throws {
        let url = try #require(URL(string: "https://x.example/page"))
        for text in ["<html><body>hi</body></html>", "{\"hello\": 1}", "plain words", "<svg/>"] {
            #expect(throws: FeedError.self) { try FeedParser.parse(Data(text.utf8), url: url) }
        }
        do {
            _ = try FeedParser.parse(Data("<html/>".utf8), url: url)
        } catch let error as FeedError {
            #expect(error.description == "feed at https://x.example/page is not a newsstand, OPDS, Atom, RSS or JSON feed")
        }
        #expect(throws: FeedError.unreadable(url, "it is empty")) { try FeedParser.parse(Data("  \n".utf8), url: url) }
        #expect(throws: FeedError.self) { try FeedParser.parse(Data("{\"version\": ".utf8), url: url) }
    }
}

@Suite struct FeedDateTests {
    @Test(arguments: [
        ("2026-02-07T09:00:00Z", "2026-02-07T09:00:00Z"),
        ("2026-02-07T09:00:00+05:30", "2026-02-07T03:30:00Z"),
        ("2026-02-07T09:00:00-0800", "2026-02-07T17:00:00Z"),
        ("2026-02-07T09:00", "2026-02-07T09:00:00Z"),
        ("2026-02-07 09:00:00 GMT", "2026-02-07T09:00:00Z"),
        ("2026-02-07", "2026-02-07T00:00:00Z"),
        ("2026-02", "2026-02-01T00:00:00Z"),
        ("Sat, 07 Feb 2026 09:00:00 GMT", "2026-02-07T09:00:00Z"),
        ("Sat, 7 Feb 2026 09:00 PST", "2026-02-07T17:00:00Z"),
        ("Sat, 07 Feb 26 09:00:00 +0100", "2026-02-07T08:00:00Z"),
        ("07 Feb 2026 09:00:00 EDT", "2026-02-07T13:00:00Z"),
        ("Samstag, 07 Feb 2026 09:00:00 CET", "2026-02-07T08:00:00Z"),
        ("sáb, 07 dic 2026 09:00:00 +0000", "2026-12-07T09:00:00Z"),
        ("Sat Feb  7 09:00:00 2026", "2026-02-07T09:00:00Z"),
        ("February 7, 2026", "2026-02-07T00:00:00Z"),
        ("Saturday, 7 February 2026 9:00:00 UT", "2026-02-07T09:00:00Z"),
        ("1770454800", "2026-02-07T09:00:00Z"),
        ("Sat, 7 Feb 2026 9:00:00 PM EST", "2026-02-08T02:00:00Z"),
        ("February 7, 2026 12:15 AM", "2026-02-07T00:15:00Z"),
        ("2026/02/07 09:00", "2026-02-07T09:00:00Z"),
        ("07.02.2026 09:00 +0100", "2026-02-07T08:00:00Z"),
        ("25/12/2026", "2026-12-25T00:00:00Z"),
        ("12/25/2026", "2026-12-25T00:00:00Z"),
        ("Sat, 07 Feb 2026 09:00:00 +9223372036854775807", "2026-02-07T09:00:00Z"),  // an absurd offset is ignored
    ])
    func parses(_ input: String, _ expected: String) {
        #expect(FeedDates.parse(input) == utc(expected), "\(input)")
    }

    @Test func fractionsOfASecond() throws {
        let date = try #require(FeedDates.parse("2026-02-07t09:00:00.125z"))
        #expect(date.timeIntervalSince(utc("2026-02-07T09:00:00Z")) == 0.125)
    }

    @Test(arguments: ["", "soon", "2026-13-01", "99999999999999999999:00 7 Feb 2026", "32 Feb 2026", "Feb 2026", "03/04/2026", "2026/13/01", "2026-02-07T25:00:00Z", "yesterday 10:00"])
    func refuses(_ input: String) {
        #expect(FeedDates.parse(input) == nil, "\(input)")
    }
}

@Suite struct MoreMessyFeedTests {
    @Test func atomWithoutNamespaceAndCDATAHtmlTitle() throws {
        let xml = """
            <feed><title><![CDATA[<b>Plain</b> &amp; simple]]></title><updated>2026-01-02T00:00:00Z</updated>
            <entry><id>p-1</id><title type="html"><![CDATA[Issue <i>one</i>]]></title><updated>2026-01-01T00:00:00Z</updated>
            <link rel="enclosure" href="p1.epub"/></entry></feed>
            """
        let doc = try FeedParser.parse(Data(xml.utf8), url: try #require(URL(string: "https://plain.example/f.xml")))
        #expect(doc.format == .atom)
        #expect(doc.publication.title == "Plain & simple")
        #expect(doc.entries.map(\.title) == ["Issue one"])
        #expect(doc.entries.first?.contentURL?.absoluteString == "https://plain.example/p1.epub")
        #expect(doc.entries.first?.date == utc("2026-01-01T00:00:00Z"))
    }

    @Test func rssWithDublinCoreTitlesAndUndeclaredHTMLEntities() throws {
        // Real feeds write HTML's entity names without declaring them, and some give the
        // channel only a dc:title.
        let xml = """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
            <dc:title>Caf&eacute; &amp; Co&nbsp;Weekly</dc:title>
            <item><dc:title>No&nbsp;1 &mdash; &Eacute;t&eacute;</dc:title><guid>c-1</guid>
            <enclosure url="c1.epub" type="application/epub+zip" length="1"/></item></channel></rss>
            """
        let doc = try FeedParser.parse(Data(xml.utf8), url: try #require(URL(string: "https://cafe.example/rss")))
        #expect(doc.publication.title == "Café & Co Weekly")  // no-break spaces read as spaces in titles
        #expect(doc.entries.map(\.title) == ["No 1 — Été"])
    }

    @Test func deeplyNestedJSONIsRefusedOrRead() throws {
        let url = try #require(URL(string: "https://deep.example/feed.json"))
        let deep = "{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": " + String(repeating: "[", count: 100_000)
            + String(repeating: "]", count: 100_000) + ", \"items\": []}"
        do {
            let doc = try FeedParser.parse(Data(deep.utf8), url: url)
            #expect(doc.entries.isEmpty)
        } catch let error as FeedError {
            #expect(error.description.contains("JSON"))
        }
    }

    @Test func htmlSummariesLoseScriptsStylesAndTags() throws {
        #expect(FeedText.fromHTML("<p>One<br/>two</p><SCRIPT>alert('x')</script><style>p{}</style>three &amp;c &hellip; &bogus;")
            == "One two three &c … &bogus;")
        #expect(FeedText.fromHTML("a < b and c<d") == "a < b and c")
        #expect(FeedText.fromHTML("x <script>never closed") == "x")
    }

    /// `line` against the rule it implements, spelled out on scalars, over many generated
    /// strings of letters, spaces of every kind and characters that are stripped.
    @Test func lineCollapsesSpacesAndStripsLikeTheRuleSays() {
        let spaces: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r", "\u{A0}", "\u{2028}", "\u{2029}"]
        let stripped: Set<Unicode.Scalar> = ["\u{07}", "\u{7F}", "\u{200E}", "\u{202E}", "\u{2066}", "\u{FEFF}", "\u{061C}"]
        let alphabet: [Unicode.Scalar] = ["a", "b", "Z", "1", ".", "é", "—", "中", "😀"] + Array(spaces) + Array(stripped)
        func rule(_ text: String) -> String? {
            var out = ""
            var pendingSpace = false
            for scalar in text.unicodeScalars where !stripped.contains(scalar) {
                if spaces.contains(scalar) { pendingSpace = !out.isEmpty; continue }
                if pendingSpace { out += " "; pendingSpace = false }
                out.unicodeScalars.append(scalar)
            }
            return out.isEmpty ? nil : out
        }
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<(next() % 24) { text.unicodeScalars.append(alphabet[next() % alphabet.count]) }
            #expect(FeedText.line(text) == rule(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func wholeEscapeSequencesGoNotJustTheirEscape() {
        let esc = "\u{1B}"
        // OSC 52 (clipboard) ended by BEL, OSC 8 (link) ended by ST, CSI with parameters.
        #expect(FeedText.line("Evil\(esc)]52;c;aGk=\u{07} title") == "Evil title")
        #expect(FeedText.line("\(esc)]8;;https://x.example\(esc)\\link\(esc)]8;;\(esc)\\ here") == "link here")
        #expect(FeedText.line("red \(esc)[1;31mALERT\(esc)[0m done") == "red ALERT done")
        // C1 CSI and C1 OSC (as UTF-8), ESC with one byte, and a string never ended.
        #expect(FeedText.line("a\u{9B}2Jb") == "ab")
        #expect(FeedText.line("a\u{9D}0;title\u{9C}b") == "ab")
        #expect(FeedText.line("keep \(esc)c this") == "keep this")
        #expect(FeedText.line("cut \(esc)]0;no end") == "cut")
        // Plain text is untouched.
        #expect(FeedText.line("Gull Rock, 灯台守 — No. 31") == "Gull Rock, 灯台守 — No. 31")
    }
}

@Suite struct WebPageTests {
    @Test func aWebPageNamesTheFeedsItAnnounces() throws {
        let html = """
            <!DOCTYPE html>
            <html lang=en><head><meta charset=utf-8><title>Harbour</title>
            <link rel="stylesheet" href="/s.css">
            <link rel=alternate type="application/atom+xml" title="Issues" href="/feeds/issues.atom">
            <link rel="alternate" type="application/rss+xml; charset=utf-8" href="https://harbour.example/rss">
            <link rel="alternate" type="text/html" href="/fr/">
            </head><body><p>Hello<br>world</body></html>
            """
        let url = try #require(URL(string: "https://harbour.example/index.html"))
        do {
            _ = try FeedParser.parse(Data(html.utf8), url: url)
            Issue.record("a web page was read as a feed")
        } catch let error as FeedError {
            #expect(error.alternates.map(\.absoluteString) == ["https://harbour.example/feeds/issues.atom", "https://harbour.example/rss"])
            #expect(error.description.contains("is a web page, not a feed"))
        }
    }
}

/// Feed titles and articles read named references from one table, HTML5's whole list.
@Suite struct FeedEntityTests {
    @Test func aTitleDecodesNamesOnlyArticlesUsedToKnowAndHTML5Names() throws {
        // `&check;`, `&star;` and `&Zcaron;` were in the article table only; `&NotEqualTilde;` in neither.
        let xml = """
            <rss version="2.0"><channel><title>Done &check; &star;</title>
            <item><guid>1</guid><title>&NotEqualTilde; &Zcaron;ivot &weierp;</title><enclosure url="a.zip"/></item></channel></rss>
            """
        let doc = try FeedParser.parse(Data(xml.utf8), url: try #require(URL(string: "https://f.example/rss")))
        #expect(doc.publication.title == "Done ✓ ☆")
        #expect(doc.entries.first?.title == "\u{2242}\u{338} Život ℘")
    }
}
