import Foundation
import IssueArchive
import Testing
@testable import NewsstandKit

/// A highlight in an EPUB is named in EPUB CFI as the spec builds it: the spine step, the
/// element steps (even, with id assertions), the character data step (odd) and the offset.
@Suite struct HighlightCFITests {
    static let chapter = """
        <?xml version="1.0" encoding="utf-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title><style>p { color: red }</style></head>
        <body id="b">
          <h1>The Tide</h1>
          <p id="p1">The tide came <em>in</em> at dusk &amp; the herons left.</p>
          <!-- a comment does not split character data -->
          <p>Second para<!-- here -->graph: the herons stayed.</p>
        </body></html>
        """

    /// A book extracted in a temporary folder: two chapters in its spine.
    static func book(chapter: String = chapter) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cfi-\(UUID().uuidString)")
        let files = [
            "mimetype": "application/epub+zip",
            "META-INF/container.xml": """
                <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>
                <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
                """,
            "OEBPS/content.opf": """
                <package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/><manifest>
                <item id="front" href="front.xhtml" media-type="application/xhtml+xml"/>
                <item id="c1" href="text/one.xhtml" media-type="application/xhtml+xml"/>
                </manifest><spine><itemref idref="front"/><itemref id="ref-1" idref="c1"/></spine></package>
                """,
            "OEBPS/front.xhtml": "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>Front matter.</p></body></html>",
            "OEBPS/text/one.xhtml": chapter,
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    func cfi(_ exact: String, prefix: String = "", suffix: String = "", chapter: String = chapter) throws -> EPUBCFIRange? {
        let root = try Self.book(chapter: chapter)
        defer { try? FileManager.default.removeItem(at: root) }
        return HighlightCFI.range(of: TextQuoteSelector(exact: exact, prefix: prefix, suffix: suffix), document: "OEBPS/text/one.xhtml", book: root)
    }

    @Test func aQuoteAcrossAnElementIsARangeFromItsCommonParent() throws {
        let range = try #require(try cfi("came in at"))
        #expect(range.cfi == "epubcfi(/6/4[ref-1]!/4[b]/4[p1],/1:9,/3:3)")
        #expect(range.spineIndex == 1)
        #expect(range.startPath == "/4[b]/4[p1]/1:9")
        #expect(range.endPath == "/4[b]/4[p1]/3:3")
    }

    @Test func offsetsCountTheDecodedCharactersOfTheDocument() throws {
        // "&amp;" is one character of the text node: " at dusk & the herons" → "herons" starts at 15.
        let range = try #require(try cfi("herons left"))
        #expect(range.cfi == "epubcfi(/6/4[ref-1]!/4[b]/4[p1],/3:15,/3:26)")
    }

    @Test func aCommentDoesNotSplitCharacterData() throws {
        // "Second para" + "graph: the herons stayed." is one chunk, /1 of the second p (no id).
        let range = try #require(try cfi("the herons", prefix: "graph: ", suffix: " stayed"))
        #expect(range.cfi == "epubcfi(/6/4[ref-1]!/4[b]/6,/1:18,/1:28)")
    }

    @Test func aQuoteOverParagraphsIsFoundWithItsLineEndsAsSpaces() throws {
        let range = try #require(try cfi("left.\nSecond"))
        #expect(range.cfi == "epubcfi(/6/4[ref-1]!/4[b],/4[p1]/3:22,/6/1:6)")
    }

    @Test func charactersBeyondTheBasicPlaneCountTwoAsInTheDOM() throws {
        // Without a head, the body is the root's first element: /2.
        let chapter = "<html><body><p>A 𝄞 clef and a tide.</p></body></html>"
        let range = try #require(try cfi("clef", chapter: chapter))
        #expect(range.startPath == "/2/2/1:5")
    }

    @Test func idsWithCFIsSpecialCharactersAreEscaped() throws {
        let chapter = "<html><body><p id=\"a[1],b\">Words here.</p></body></html>"
        let range = try #require(try cfi("Words", chapter: chapter))
        #expect(range.startPath == "/2/2[a^[1^]^,b]/1:0")
        let parts = try #require(HighlightCFI.parts(of: range.cfi))
        #expect(parts.start == "/2/2[a^[1^]^,b]/1:0" && parts.end == "/2/2[a^[1^]^,b]/1:5" && parts.spineIndex == 1)
    }

    @Test func aQuoteNotInTheDocumentOrTwiceWithoutContextHasNoCFI() throws {
        #expect(try cfi("low tide") == nil)
        #expect(try cfi("the herons") == nil)
    }

    @Test func aDocumentNotInTheSpineHasNoCFI() throws {
        let root = try Self.book()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(EPUBDocumentText(book: root, document: "OEBPS/missing.xhtml") == nil)
    }
}
