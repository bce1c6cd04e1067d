import Foundation
import Testing
import ZIPFoundation
@testable import NewsstandKit

/// Issue #21, item 3: the agent refuses a comic none of whose pages can be drawn, saying why.
@Suite struct UnreadableComicTests {
    @Test func aComicOfUnreadablePagesFailsItsDownloadWithTheReasonAndInstallsNothing() throws {
        let temp = try TemporaryLibrary()
        let url = temp.root.appendingPathComponent("broken.cbz")
        let archive = try Archive(url: url, accessMode: .create)
        let pages: [(String, Data)] = [("01.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10])), ("02.png", Data()), ("03.jpg", Data("garbage".utf8))]
        for (path, data) in pages {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .none) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        let (_, issue) = try temp.publicationWithIssue(content: url)
        try temp.library.downloads.enqueue(issue)
        #expect(try CancelDownloadTests.agent(for: temp.library).run() == .finished)

        let stored = try #require(try temp.library.store.issue(named: issue.name))
        #expect(stored.status == .none)
        let reason = try #require(stored.lastError)
        #expect(reason.contains("no page that can be shown: 01.jpg is cut short, 02.png is empty, 03.jpg is not a PNG, JPEG, GIF or WebP image"), "\(reason)")
        #expect(!reason.contains("\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.library.paths.issuesDirectory.path).isEmpty)
        #expect(CancelDownloadTests.partials(temp.library).isEmpty)
    }
}
