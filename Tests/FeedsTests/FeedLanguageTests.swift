import Foundation
import Testing
@testable import Feeds

/// An article's language comes from its own entry, else its feed, in each format's way.
@Suite struct FeedLanguageTests {
    static func languages(_ text: String) throws -> [String: String?] {
        let doc = try FeedParser.parse(Data(text.utf8), url: URL(string: "https://wire.example/feed")!)
        return Dictionary(uniqueKeysWithValues: doc.articles.map { ($0.name, $0.language) })
    }

    @Test func rssItemsTakeTheirDublinCoreLanguageOrXMLLangElseTheChannels() throws {
        let found = try Self.languages("""
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Wire</title><language>en-us</language>
            <item><guid>a1</guid><title>Ferry</title><description>Words.</description></item>
            <item><guid>a2</guid><title>Markt</title><dc:language>de</dc:language><description>Wörter.</description></item>
            <item xml:lang="de_AT"><guid>a3</guid><title>Heuriger</title><description>Wörter.</description></item>
            <item><guid>a4</guid><title>Odd</title><dc:language>English</dc:language><description>Words.</description></item>
            </channel></rss>
            """)
        #expect(found == ["a1": "en-US", "a2": "de", "a3": "de-AT", "a4": "en-US"])
    }

    @Test func rssWithoutAnyLanguageLeavesItUnknown() throws {
        let found = try Self.languages("""
            <rss version="2.0"><channel><title>Wire</title>
            <item><guid>a1</guid><title>Ferry</title><description>Words.</description></item></channel></rss>
            """)
        #expect(Array(found.keys) == ["a1"] && found["a1"]! == nil)
    }

    @Test func atomEntriesInheritXMLLangFromTheFeedAndTheirContentSaysLast() throws {
        let found = try Self.languages("""
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-GB"><title>Wire</title><id>urn:w</id>
            <updated>2026-11-25T10:00:00Z</updated>
            <entry><id>e1</id><title>Ferry</title><updated>2026-11-25T10:00:00Z</updated><content type="html">Words.</content></entry>
            <entry xml:lang="de"><id>e2</id><title>Markt</title><updated>2026-11-25T10:00:00Z</updated><content type="html">Wörter.</content></entry>
            <entry xml:lang="de"><id>e3</id><title>Bilingual</title><updated>2026-11-25T10:00:00Z</updated>
              <content type="html" xml:lang="fr">Mots.</content></entry>
            </feed>
            """)
        #expect(found == ["e1": "en-GB", "e2": "de", "e3": "fr"])
    }

    @Test func jsonFeedsLanguageIsEveryItemsUnlessTheItemSaysOtherwise() throws {
        let found = try Self.languages("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "Wire", "language": "de-DE",
             "items": [{"id": "j1", "title": "Markt", "content_html": "<p>Wörter.</p>"},
                       {"id": "j2", "title": "Ferry", "language": "en", "content_text": "Words."}]}
            """)
        #expect(found == ["j1": "de-DE", "j2": "en"])
    }

    @Test func languageTagsAreMadeBCP47ShapedAndNonsenseIsRefused() {
        #expect(FeedLanguage.tag(" EN-us ") == "en-US")
        #expect(FeedLanguage.tag("zh-hant-tw") == "zh-Hant-TW")
        #expect(FeedLanguage.tag("de_CH") == "de-CH")
        for bad in ["English", "e", "", "en--us", "en-<script>", "fr-123456789", "d e"] { #expect(FeedLanguage.tag(bad) == nil, "\(bad)") }
    }
}
