import Foundation
import Testing
@testable import IssueArchive

@Suite struct ArchiveReportTests {
    @Test func summaryListsFormatMetadataContentsAndCount() {
        let content = IssueContent(
            format: .cbz, metadata: IssueMetadata(title: "Tide\u{1B}]52;c;aGk=\u{07} Pool", creators: ["A", "B"]),
            tableOfContents: [TOCEntry(title: "One", path: "p1.jpg", children: [TOCEntry(title: "\u{202E}Two", path: "p2.jpg")])],
            readingOrder: [Resource(path: "p1.jpg", mediaType: "image/jpeg"), Resource(path: "p2.jpg", mediaType: "image/jpeg")],
            coverImage: "p1.jpg", rightToLeft: true)
        #expect(ArchiveReport.summary(content) == """
        format: cbz
        title: Tide]52;c;aGk= Pool
        creators: A, B
        cover: p1.jpg
        direction: right-to-left
        pages: 2
        contents:
          One  (p1.jpg)
            Two  (p2.jpg)
        """)
    }

    @Test func jsonRoundTrips() throws {
        let content = IssueContent(format: .epub, metadata: IssueMetadata(title: "T", language: "en"),
                                   readingOrder: [Resource(path: "a/b.xhtml", mediaType: "application/xhtml+xml")])
        let json = try ArchiveReport.json(content)
        #expect(json.contains("\"path\" : \"a/b.xhtml\""))
        #expect(try JSONDecoder().decode(IssueContent.self, from: Data(json.utf8)) == content)
    }
}
