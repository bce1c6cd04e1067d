import Foundation
import Testing
@testable import IssueArchive

/// Titles for articles a table of contents leaves out.
@Suite struct ArticleTitleTests {
    @Test func titleFirstHeadingMarkdownOrFileName() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-titles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("text"), withIntermediateDirectories: true)
        let files = [
            "text/a.xhtml": "<html><head><title>Letters  to the\nEditor</title></head><body><h1>Other</h1></body></html>",
            "text/b.html": "<html><head></head><body><h1 class=\"x\">Weather &amp; Tides</h1></body></html>",
            "text/c.md": "Intro line\n\n## Ferry Times\n\ntext",
            "text/d-notes.txt": "plain words",
        ]
        for (path, text) in files { try Data(text.utf8).write(to: root.appendingPathComponent(path)) }
        #expect(IssueReader.articleTitle("text/a.xhtml", in: root) == "Letters to the Editor")
        #expect(IssueReader.articleTitle("text/b.html#part", in: root) == "Weather & Tides")
        #expect(IssueReader.articleTitle("text/c.md", in: root) == "Ferry Times")
        #expect(IssueReader.articleTitle("text/d-notes.txt", in: root) == "d-notes")
        // A missing file or a path leaving the issue still gets a name, never a crash.
        #expect(IssueReader.articleTitle("text/missing.xhtml", in: root) == "missing")
        #expect(IssueReader.articleTitle("../../etc/passwd", in: root) == "passwd")
    }
}
