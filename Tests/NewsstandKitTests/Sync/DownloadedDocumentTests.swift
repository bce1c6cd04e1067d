import Foundation
import Testing
@testable import NewsstandKit

/// An issue downloaded as an archive (an EPUB, a comic, a zip) is unpacked into the cache,
/// after which no file is left for KOReader's id: the agent names the file as downloaded,
/// before it unpacks it, and the sync uses that id.
@Suite("KOReader's id of a downloaded issue, taken before it is unpacked")
struct DownloadedDocumentTests {
    @Test func theAgentKeepsThePartialMD5OfTheFileAsDownloadedAndTheSyncNamesTheIssueByIt() throws {
        let temp = try TemporaryLibrary()
        // Words that do not repeat, so the packed file is large enough for many of KOReader's samples.
        var generator = SystemRandomNumberGenerator()
        let words = (0..<60_000).map { _ in String((0..<6).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement(using: &generator)! }) }
        let archive = try AgentTests.makeIssueArchive(in: temp.root, name: "tide-2026-11.zip", article: words.joined(separator: " "))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int)
        #expect(size > 262_144, "samples at 0, 1, 4, 16, 64 and 256 KiB")
        let (_, issue) = try temp.publicationWithIssue(content: archive)
        try temp.library.downloads.enqueue(issue)
        #expect(try AgentTests().runAgent(temp.library) == .finished)
        let installed = try #require(try temp.library.store.issue(named: issue.name))
        #expect(installed.status == .available)

        let script = KOSyncDocumentTests.reference.components(separatedBy: "folder = sys.argv[1]")[0]
            + "print(partial_md5(sys.argv[1]), hashlib.md5(os.path.basename(sys.argv[1]).encode()).hexdigest())\n"
        let expected = try #require(try KOSyncDocumentTests.python(script, arguments: [archive.path]).first?.split(separator: " ").map(String.init))
        let recorded = try #require(try temp.library.store.downloadedDocument(of: installed))
        #expect(recorded.partialMD5 == expected[0], "KOReader's partial MD5 of the bytes downloaded")
        #expect(recorded.fileName == "tide-2026-11.zip")

        // The file downloaded is gone and the content is a folder: the sync still names the
        // issue, either way KOReader can.
        try FileManager.default.removeItem(at: archive)
        let sync = temp.library.sync
        #expect(PlaceSync.contentFile(of: installed, in: temp.library.downloads.contentDirectory(for: installed)) == nil)
        #expect(sync.documentID(of: installed, by: .binary) == expected[0])
        #expect(sync.documentID(of: installed, by: .filename) == expected[1])
    }
}
