import Foundation
import Testing
import Terminal
@testable import Shelf

/// Links out of the issue drawn in the reader's text are also the canvas's link spans, which
/// a terminal that shows OSC 8 makes clickable; links inside the issue and other schemes are not.
@Suite(.serialized) struct ReaderHyperlinkTests {
    static let longText = (0..<30).map { "word\($0)" }.joined(separator: " ")

    static func magazine() -> [String: Data] {
        var files = ReaderFixture.magazine()
        files["OEBPS/ch1.xhtml"] = ReaderFixture.chapter(title: "Links", body: """
            <h1>Links</h1><p>Read <a href="https://example.org/source?a=1&amp;b=2">the source</a>, write to \
            <a href="mailto:ed@example.org">the editor</a>, skip <a href="javascript:alert(1)">this script</a>, \
            <a href="file:///etc/passwd">a file</a> and <a href="ch2.xhtml#night">the night watch</a>.</p>
            <p><a href="https://example.org/long">\(longText)</a></p>
            """)
        return files
    }

    /// The text of a span's cells.
    static func text(of span: LinkSpan, in canvas: Canvas) -> String {
        (span.x..<span.maxX).map { canvas[$0, span.y].glyph }.joined().trimmingCharacters(in: .whitespaces)
    }

    @Test func webAndMailLinksAreSpansOverTheirWordsAndNoOtherLinkIs() throws {
        let open = try OpenReader(Self.magazine())
        let reader = try open.open(width: 80, height: 30)
        let screen = open.screen(reader)
        #expect(screen.text.contains("skip this script, a file"), "\(screen.text)")
        let urls = Set(screen.links.map(\.url))
        #expect(urls == ["https://example.org/source?a=1&b=2", "mailto:ed@example.org", "https://example.org/long"])
        let source = try #require(screen.links.first { $0.url.hasSuffix("source?a=1&b=2") })
        #expect(Self.text(of: source, in: screen) == "the source")
        let mail = try #require(screen.links.first { $0.url.hasPrefix("mailto:") })
        #expect(Self.text(of: mail, in: screen) == "the editor")
        // A link wrapped over lines is a span on each, which together read as its words.
        let long = screen.links.filter { $0.url.hasSuffix("/long") }
        #expect(long.count >= 2)
        #expect(Set(long.map(\.y)).count == long.count)
        #expect(long.map { Self.text(of: $0, in: screen) }.joined(separator: " ") == Self.longText)
    }

    @Test func theWholeScreenKeepsTheSpansAndItsTextIsUnchanged() throws {
        let h = try ShelfHarness.reading(Self.magazine(), name: "links-1", width: 80, height: 30)
        let screen = h.settle()
        #expect(screen.text.contains("the source"))
        #expect(screen.links.contains { $0.url == "mailto:ed@example.org" })
        // The status line and the hint bar are no link.
        #expect(!screen.links.contains { $0.y >= screen.height - 2 })
        // A chosen link, drawn in the selection's colours, stays a link.
        let chosen = h.key(.tab)
        let source = try #require(chosen.links.first { $0.url.hasSuffix("source?a=1&b=2") })
        #expect(Self.text(of: source, in: chosen) == "the source")
        #expect(chosen[source.x, source.y].style == Theme.classic.selection)
    }
}
