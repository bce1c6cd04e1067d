import Foundation
import Testing

/// `newsstand highlight` and `newsstand highlights` through the real program: a quote in an
/// EPUB highlighted with a note, refused in one line when it is not there once, and written
/// in each format other tools read.
@Suite struct HighlightEndToEndTests {
    let sandbox = Sandbox()

    static let book = Sandbox.repository.appendingPathComponent("sample-feed/tidewater-monthly/issues/tidewater-2026-11.epub")

    init() throws {
        let taken = try sandbox.run("read", "--plain", Self.book.path)
        #expect(taken.status == 0, "\(taken.output)")
    }

    @Test func aQuoteIsHighlightedAndExportedInEveryFormat() throws {
        let made = try sandbox.run("highlight", "my-files/1", "--quote", "counting the flashes: two white, one",
                                   "--note", "Two white, one red.\nEvery twenty seconds.", "--color", "blue")
        #expect(made.status == 0, "\(made.output)")
        #expect(made.output.hasPrefix("highlighted in Ninety-One Nights Alone: "), "\(made.output)")

        let markdown = try sandbox.run("highlights")
        #expect(markdown.output.contains("# Tidewater — No. 31 · November 2026\n"), "\(markdown.output)")
        #expect(markdown.output.contains("## Ninety-One Nights Alone\n\n> counting the flashes: two white, one\n\nTwo white, one red.  \nEvery twenty seconds.\n"),
                "\(markdown.output)")

        let w3c = try sandbox.run("highlights", "my-files/1", "--format", "w3c")
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(w3c.output.utf8)) as? [String: Any])
        let annotation = try #require(((collection["first"] as? [String: Any])?["items"] as? [[String: Any]])?.first)
        let selectors = try #require((annotation["target"] as? [String: Any])?["selector"] as? [[String: Any]])
        #expect(selectors.map { $0["type"] as? String } == ["TextQuoteSelector", "FragmentSelector"])
        #expect(selectors[0]["exact"] as? String == "counting the flashes: two white, one")
        #expect((selectors[1]["value"] as? String)?.hasPrefix("epubcfi(/6/") == true)

        let calibre = try sandbox.run("highlights", "--format", "calibre")
        let file = try #require(try JSONSerialization.jsonObject(with: Data(calibre.output.utf8)) as? [String: Any])
        let highlight = try #require((file["highlights"] as? [[String: Any]])?.first)
        #expect((highlight["start_cfi"] as? String)?.hasPrefix("/2/4/") == true)
        #expect(highlight["style"] as? [String: String] == ["kind": "color", "type": "builtin", "which": "blue"])

        let json = try sandbox.run("highlights", "--format", "json")
        let ours = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((ours["highlights"] as? [[String: Any]])?.first?["note"] as? String == "Two white, one red.\nEvery twenty seconds.")
    }

    @Test func aQuoteNotThereOnceIsRefusedInOneLine() throws {
        let twice = try sandbox.run("highlight", "my-files/1", "--quote", "the")
        #expect(twice.status == 1)
        #expect(twice.output.hasPrefix("newsstand: the quote is in "), "\(twice.output)")
        #expect(twice.output.split(separator: "\n").count == 1, "\(twice.output)")
        let absent = try sandbox.run("highlight", "my-files/1", "--quote", "purple elephants")
        #expect(absent.status == 1)
        #expect(absent.output == "newsstand: the quote is not in 'Tidewater — No. 31 · November 2026': its words must be exactly as `newsstand read ISSUE --plain` shows them, within one paragraph\n")
        let colour = try sandbox.run("highlight", "my-files/1", "--quote", "lamp", "--color", "mauve")
        #expect(colour.status == 64, "\(colour.output)")
        let none = try sandbox.run("highlights", "--format", "json")
        let ours = try #require(try JSONSerialization.jsonObject(with: Data(none.output.utf8)) as? [String: Any])
        #expect((ours["highlights"] as? [Any])?.isEmpty == true, "\(none.output)")
    }
}
