import Feeds
import Foundation
import IssueArchive
import NewsstandKit
import Testing
import TestSupport

@Suite struct ServeDownloadTests {
    @Test func anEPUBIssueDownloadsWholeAndByRange() async throws {
        try await ServedShelf.with { shelf in
            let issue = try shelf.installed(ServedShelf.epub, in: try shelf.publication("Tidewater"), title: "One")
            let whole = try shelf.get("/issues/\(issue.id!).epub")
            #expect(whole.status == 200 && whole.header("Content-Type") == "application/epub+zip")
            #expect(whole.body.count == Int(whole.header("Content-Length") ?? "") && whole.body.starts(with: Array("PK\u{03}\u{04}".utf8)))
            // The packed file is an EPUB another reader opens: mimetype first and stored.
            #expect(whole.body[30..<38].elementsEqual("mimetype".utf8))
            let part = try shelf.get("/issues/\(issue.id!).epub", headers: ["Range": "bytes=10-19"])
            #expect(part.status == 206 && part.body == whole.body[10..<20])
            #expect(part.header("Content-Range") == "bytes 10-19/\(whole.body.count)")
            let tail = try shelf.get("/issues/\(issue.id!).epub", headers: ["Range": "bytes=-5"])
            #expect(tail.status == 206 && tail.body == whole.body.suffix(5))
            #expect(try shelf.get("/issues/\(issue.id!).epub", headers: ["Range": "bytes=\(whole.body.count)-"]).status == 416)
            #expect(try shelf.get("/issues/\(issue.id!).epub", headers: ["If-None-Match": whole.header("ETag")!]).status == 304)
            // Asked as another kind than it is: nothing.
            #expect(try shelf.get("/issues/\(issue.id!).cbz").status == 404)
        }
    }

    @Test func aComicIsServedAsACBZWithItsPagesOnly() async throws {
        try await ServedShelf.with { shelf in
            let issue = try shelf.installed(ServedShelf.cbz, in: try shelf.publication("Badger"), title: "Three")
            // A symlink planted in the installed folder leads out of the library: it is not packed.
            let folder = shelf.library.paths.contentDirectory(for: issue)
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("secret.png").path, withDestinationPath: "/etc/passwd")
            let answer = try shelf.get("/issues/\(issue.id!).cbz")
            #expect(answer.status == 200)
            let unpacked = shelf.home.appendingPathComponent("unpacked")
            let file = shelf.home.appendingPathComponent("got.cbz")
            try answer.body.write(to: file)
            _ = try SafeExtractor.extract(archive: file, to: unpacked, limits: .standard, storage: SystemStorage())
            let names = try FileManager.default.contentsOfDirectory(atPath: unpacked.path).sorted()
            #expect(names.contains("page-01.png") && !names.contains("secret.png"), "\(names)")
        }
    }

    @Test func noPathFromARequestReachesAFileOutsideTheLibrarysIssues() async throws {
        try await ServedShelf.with { shelf in
            let issue = try shelf.installed(ServedShelf.epub, in: try shelf.publication("Tidewater"), title: "One")
            let id = issue.id!
            let attempts = [
                "/issues/../data/library.sqlite", "/issues/%2e%2e/%2e%2e/etc/passwd", "/issues/%2E%2E%2Fdata%2Flibrary.sqlite",
                "/issues//etc/passwd", "/covers/../../etc/passwd", "/etc/passwd", "//etc/passwd", "/opds/../issues/\(id).epub",
                "/issues/\(id).epub/../../../etc/passwd", "/issues/\(id)/../\(id).epub", "/issues/-1.epub", "/issues/\(id).EPUB",
                "/issues/\(id).epub%00.png", "/issues/9999.epub", "/covers/9999", "/issues/\(id)", "http://evil/issues/\(id).epub",
            ]
            for target in attempts {
                let answer = try shelf.get(target)
                #expect(answer.status == 404 || answer.status == 400, "\(target): \(answer.status)")
                #expect(!answer.text.contains("root:") && !answer.body.starts(with: Array("SQLite".utf8)), "\(target)")
            }
        }
    }

    @Test func anIssueStillBeingWrittenOrAwayIsNeverServed() async throws {
        try await ServedShelf.with { shelf in
            var issue = try shelf.installed(ServedShelf.epub, in: try shelf.publication("Tidewater"), title: "One")
            for status in [Issue.Status.downloading, .none] {
                issue.status = status
                issue = try shelf.library.store.save(issue)
                #expect(try shelf.get("/issues/\(issue.id!).epub").status == 404, "\(status)")
            }
            let newest = try CatalogParserProbe.titles(try shelf.get("/opds2/newest").body)
            #expect(newest.isEmpty)
        }
    }

    @Test func aCoverThatIsASymlinkOutOfTheLibraryIsNotServed() async throws {
        try await ServedShelf.with { shelf in
            let issue = try shelf.installed(ServedShelf.cbz, in: try shelf.publication("Badger"), title: "Three")
            let cover = shelf.library.paths.contentDirectory(for: issue).appendingPathComponent(try #require(try shelf.library.store.issue(id: issue.id!)?.contentCover))
            let outside = shelf.home.appendingPathComponent("outside.png")
            try FileManager.default.copyItem(at: cover, to: outside)
            try FileManager.default.removeItem(at: cover)
            try FileManager.default.createSymbolicLink(at: cover, withDestinationURL: outside)
            #expect(try shelf.get("/covers/\(issue.id!)").status == 404)
        }
    }

    @Test func aClientGetsAFewDownloadsAtOnceAndNoMore() async throws {
        try await ServedShelf.with { shelf in
            let issue = try shelf.bigIssue()
            var held: [Int32] = []
            defer { held.forEach { close($0) } }
            held = try shelf.downloadsNobodyReads(of: issue)
            let refused = try #require(try poll(timeout: 20) { () -> HTTPAnswer? in
                let answer = try shelf.get("/issues/\(issue.id!).cbz", headers: ["Range": "bytes=0-0"])
                return answer.status == 429 ? answer : nil
            }, "\(shelf.lines.all.filter { !$0.contains(" 206 1 B") }.suffix(30))")
            #expect(refused.header("Retry-After") == "5", "\(shelf.lines.all.suffix(8))")
            #expect(try shelf.get("/opds").status == 200, "catalogs are not downloads")
            held.forEach { close($0) }
            held = []
            let again = try #require(try poll(timeout: 20) { () -> HTTPAnswer? in
                let answer = try shelf.get("/issues/\(issue.id!).cbz", headers: ["Range": "bytes=0-0"])
                return answer.status == 206 ? answer : nil
            })
            #expect(again.body.count == 1)
        }
    }

    @Test func oversizedHeadersBodiesAndOtherMethodsAreRefused() async throws {
        // A bound of 2 KB here: FlyingFox reads a header line a byte at a time, so one of tens of KB takes seconds in a debug build.
        try await ServedShelf.with(maxHeaderBytes: 2048) { shelf in
            let huge = String(repeating: "a", count: 3000)
            let answer = try shelf.get("/opds", headers: ["X-Huge": huge])
            #expect(answer.status == 431)
            #expect(try shelf.get("/opds" + "?x=" + String(repeating: "b", count: 2100)).status == 431)
            #expect(try shelf.get("/opds", headers: ["X-Small": "ok"]).status == 200)
            let post = try shelf.raw("POST /opds HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello")
            #expect(post.status == 405)
            let body = try shelf.raw("GET /opds HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello")
            #expect(body.status == 413)
        }
    }
}

enum CatalogParserProbe {
    static func titles(_ data: Data) throws -> [String] {
        try CatalogParser.parse(data, url: URL(string: "http://127.0.0.1/opds2")!).books.map(\.title)
    }
}
