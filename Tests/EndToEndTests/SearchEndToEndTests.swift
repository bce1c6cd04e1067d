import Foundation
import Testing

/// `newsstand search` through the real program: an EPUB's chapters and a PDF's pages (read
/// by the PDF worker) indexed, found, marked, and a hostile query answered in one line.
@Suite struct SearchEndToEndTests {
    let sandbox = Sandbox()

    static let book = Sandbox.repository.appendingPathComponent("sample-feed/tidewater-monthly/issues/tidewater-2026-11.epub")
    static let pdf = Sandbox.repository.appendingPathComponent("sample-feed/lantern-quarterly/issues/lantern-2026-06.pdf")

    func takeIn(_ files: URL...) throws {
        for file in files {
            let taken = try sandbox.run("read", "--plain", file.path)
            #expect(taken.status == 0, "\(taken.output)")
        }
    }

    @Test func anEPUBsChaptersAndAPDFsPagesAreFoundWithWhereTheyAre() throws {
        try takeIn(Self.book, Self.pdf)
        let json = try sandbox.run("search", "humpbacks", "--json")
        #expect(json.status == 0, "\(json.output)")
        let found = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let issues = try #require(found["issues"] as? [[String: Any]])
        #expect(issues.count == 1)
        let match = try #require((issues.first?["matches"] as? [[String: Any]])?.first)
        #expect(match["kind"] as? String == "page")
        #expect((match["resource"] as? String)?.hasPrefix("issue.pdf#page=") == true)
        let snippet = try #require(match["snippet"] as? String)
        let marks = try #require(match["marks"] as? [[Int]])
        let first = try #require(marks.first)
        let scalars = Array(snippet.unicodeScalars)
        #expect(String(String.UnicodeScalarView(scalars[first[0]..<(first[0] + first[1])])).lowercased() == "humpbacks")

        let text = try sandbox.run("search", "harbo*", "-lantern")
        #expect(text.status == 0)
        #expect(text.output.contains("Tidewater"), "\(text.output)")
        #expect(text.output.contains("[harbour]"), "\(text.output)")
        #expect(!text.output.contains("Lantern"), "\(text.output)")
    }

    @Test func aHostileOrEmptyQueryIsOneClearLine() throws {
        try takeIn(Self.book)
        let syntax = try sandbox.run("search", "NEAR(\"", "AND")
        #expect(syntax.status == 0 && syntax.output == "nothing found\n", "\(syntax.output)")
        let onlyOut = try sandbox.run("search", "--", "-tide")
        #expect(onlyOut.status == 1, "\(onlyOut.output)")
        #expect(onlyOut.output == "newsstand: cannot search: give a word to search for, not only words to leave out (-word)\n")
    }

    @Test func rebuildIndexesAgainWhatIsThere() throws {
        try takeIn(Self.book)
        let rebuilt = try sandbox.run("search", "--rebuild")
        #expect(rebuilt.status == 0 && rebuilt.output.contains("search index rebuilt: 1 issue(s)"), "\(rebuilt.output)")
        #expect(try sandbox.sql("SELECT count(*) FROM searchPending") == "0")
        #expect(try sandbox.sql("SELECT count(*) FROM searchPart WHERE kind = 'text'") != "0")
    }
}
