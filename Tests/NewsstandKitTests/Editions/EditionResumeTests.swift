import Foundation
import Testing
import IssueArchive
@testable import NewsstandKit

/// An edition's build stopped halfway goes on where it was: what it fetched is kept in its
/// work area and not fetched again; the book still appears whole or not at all.
@Suite(.serialized) struct EditionResumeTests {
    /// Stops the build at its `after + 1`th fetch.
    // @unchecked: `asked` is read and written only under `lock`.
    final class StopAfter: @unchecked Sendable {
        let lock = NSLock()
        let after: Int
        var asked = 0
        init(_ after: Int) { self.after = after }
        func shouldStop() -> Bool { lock.withLock { asked += 1; return asked > after } }
    }

    // @unchecked: `seen` is read and written only under `lock`.
    final class Progress: @unchecked Sendable {
        let lock = NSLock()
        var seen: [EditionBuildProgress] = []
        func add(_ progress: EditionBuildProgress) { lock.withLock { seen.append(progress) } }
    }

    struct Fixture {
        let server: FeedTestServer
        let temporary: TemporaryLibrary
        let edition: NewsstandKit.Issue
        let pictures: [String]

        /// Five articles with two pictures each.
        init() throws {
            server = try FeedTestServer()
            var items: [EditionFeed.Item] = []
            var pictures: [String] = []
            for article in 1...5 {
                var html = "<p>Article \(article).</p>"
                for n in 1...2 {
                    let name = "img/a\(article)-\(n).png"
                    try FileManager.default.createDirectory(at: server.root.appendingPathComponent("img"), withIntermediateDirectories: true)
                    try TestPNG.make(width: 20 + article, height: 10 + n, rgb: (UInt8(article * 40), 90, UInt8(n * 100)))
                        .write(to: server.root.appendingPathComponent(name))
                    html += "<p><img src=\"/\(name)\" alt=\"Picture \(article)-\(n)\"></p>"
                    pictures.append(name)
                }
                items.append(.init(id: "a\(article)", title: "Article \(article)", when: (2026, 11, 24, 8 + article), html: html))
            }
            self.pictures = pictures
            try server.put("lamp.xml", EditionFeed(items: items).xml)
            temporary = try TemporaryLibrary()
            let (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: server.url("lamp.xml"))
            edition = try #require(try temporary.library.store.issues(publicationID: publication.id!).first(where: Library.isEdition))
        }

        /// The pictures fetched, once the server has logged at least `atLeast` of them (it
        /// logs a request as its response ends, a moment after the client has it).
        func fetches(atLeast: Int) -> [String: Int] {
            var counts: [String: Int] = [:]
            for request in server.requests(where: { $0.path.hasPrefix("/img/") }, atLeast: atLeast) {
                counts[String(request.path.dropFirst()), default: 0] += 1
            }
            return counts
        }
    }

    @Test func aBuildStoppedAfterFourPicturesFetchesOnlyTheOtherSixWhenItGoesOn() throws {
        let f = try Fixture()
        defer { f.server.stop() }
        let work = EditionWorkArea(directory: f.temporary.root.appendingPathComponent("edition.work"))
        let file = f.temporary.root.appendingPathComponent("edition.epub")
        var first = f.temporary.library.downloads.editionBuilder
        first.workArea = work
        let stop = StopAfter(4)
        first.shouldStop = { stop.shouldStop() }
        #expect(throws: EditionBuildStopped.self) { try first.build(f.edition, into: file) }
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let before = f.fetches(atLeast: 4)
        #expect(before.values.reduce(0, +) == 4 && before.values.allSatisfy { $0 == 1 }, "\(before)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: work.directory.appendingPathComponent("pictures").path)
        #expect(kept.filter { !$0.hasSuffix(".part") }.count == 4, "\(kept)")

        var second = f.temporary.library.downloads.editionBuilder
        second.workArea = work
        let progress = Progress()
        second.progress = { progress.add($0) }
        try second.build(f.edition, into: file)
        // Every picture fetched once over both builds: none of the first four again.
        let after = f.fetches(atLeast: 10)
        #expect(after == Dictionary(uniqueKeysWithValues: f.pictures.map { ($0, 1) }), "\(after)")
        let (_, root) = try IssueReader.read(archive: file, in: f.temporary.root)
        let images = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("OEBPS/images").path)
        #expect(images.filter { $0.hasPrefix("p") }.count == 10)
        #expect(progress.seen.first == EditionBuildProgress(articles: 0, articlesTotal: 5))
        #expect(progress.seen.contains(EditionBuildProgress(articles: 5, articlesTotal: 5, pictures: 10, picturesTotal: 10)))
        #expect(progress.seen.map(\.fraction).max() == 1 && progress.seen.first?.fraction == 0)
    }

    @Test func theAgentCountsTheBuildInArticlesAndPicturesAndLeavesNoWorkAreaBehind() throws {
        let f = try Fixture()
        defer { f.server.stop() }
        let library = f.temporary.library
        try library.downloads.enqueue(f.edition)
        #expect(try Agent(library: library).run() == .finished)
        let download = try #require(try library.store.downloads(issueID: f.edition.id!).last)
        #expect(download.build == EditionBuildProgress(articles: 5, articlesTotal: 5, pictures: 10, picturesTotal: 10))
        #expect(download.fraction == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.paths.partialDirectory.path).isEmpty)
    }

    @Test func aWorkAreaNoDownloadOwnsIsRemovedLikeAStrayPart() throws {
        let temporary = try TemporaryLibrary()
        let stray = temporary.library.paths.partialDirectory.appendingPathComponent("gone-asset.work/pictures", isDirectory: true)
        try FileManager.default.createDirectory(at: stray, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: stray.appendingPathComponent("kept"))
        #expect(try temporary.library.downloads.removeOrphanedPartials() == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.library.paths.partialDirectory.path).isEmpty)
    }
}
