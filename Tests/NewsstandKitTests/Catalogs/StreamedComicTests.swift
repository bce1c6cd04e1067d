import Foundation
import Synchronization
import Testing
import Feeds
@testable import NewsstandKit

/// A comic read from its server page by page (OPDS-PSE 1.2) through the one HTTP seam:
/// the page URLs, the pages fetched ahead, the caps and the failures, the cache folder.
@Suite struct StreamedComicTests {
    static let template = "http://comics.example/pse/7/{pageNumber}?width={maxWidth}"

    /// Bytes that start as a PNG does, different for each page.
    static func page(_ number: Int, size: Int = 64) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: UInt8(number & 0xFF), count: size))
    }

    static func url(_ index: Int, width: Int = 960) -> URL {
        URL(string: "http://comics.example/pse/7/\(index)?width=\(width)")!
    }

    final class Changes: Sendable {
        let count = Mutex(0)
        var seen: Int { count.withLock { $0 } }
    }

    struct Fixture {
        let web: MemoryHTTPClient
        let temp: TemporaryLibrary
        let comic: StreamedComic
        let changes: Changes
    }

    func fixture(pages: Int = 6, lastRead: Int? = nil, serve: Set<Int>? = nil, credentials: Credentials? = nil,
                 readAhead: Int = 2, maximumPageSize: Int64 = 1 << 20, budget: Int64 = 1 << 20) throws -> Fixture {
        let web = MemoryHTTPClient()
        for index in 0..<pages where serve?.contains(index) ?? true {
            web.serve(Self.url(index), headers: ["Content-Type": "image/png"], body: Self.page(index + 1), requiring: credentials)
        }
        let temp = try TemporaryLibrary(access: HTTPAccess(client: web) { _ in credentials })
        let changes = Changes()
        let stream = PageStream(template: Self.template, type: "image/png", count: pages, lastRead: lastRead)
        let comic = StreamedComic(stream: stream, title: "Night Trains", maxWidth: 960,
                                  folder: temp.library.paths.streamedPagesDirectory.appendingPathComponent("test"),
                                  access: temp.library.http, readAhead: readAhead, maximumPageSize: maximumPageSize, budget: budget,
                                  onChange: { changes.count.withLock { $0 += 1 } })
        return Fixture(web: web, temp: temp, comic: comic, changes: changes)
    }

    func fetched(_ comic: StreamedComic, _ index: Int) -> Data? {
        guard case .fetched(let file) = comic.state(ofPage: index) else { return nil }
        return try? Data(contentsOf: file)
    }

    @Test func pageNumbersCountFromZeroAndMaxWidthIsFilledIn() throws {
        let f = try fixture()
        #expect(f.comic.url(ofPage: 0) == Self.url(0))
        #expect(f.comic.url(ofPage: 5) == Self.url(5))
        #expect(f.comic.url(ofPage: 6) == nil)
        #expect(f.comic.url(ofPage: -1) == nil)
    }

    @Test func thePageReadComesFirstThenTheNextTwoAndNothingElse() throws {
        let f = try fixture()
        #expect(f.comic.state(ofPage: 0) == .waiting)
        f.comic.read(page: 0)
        f.comic.finishFetching()
        #expect(f.web.requests.map(\.url) == [Self.url(0), Self.url(1), Self.url(2)])
        #expect(fetched(f.comic, 0) == Self.page(1))
        #expect(fetched(f.comic, 2) == Self.page(3))
        #expect(f.comic.state(ofPage: 3) == .waiting)
        #expect(f.changes.seen == 3)
        #expect(f.web.requests.allSatisfy { $0.header("Accept")?.hasPrefix("image/png") == true })
    }

    @Test func turningAPageFetchesOnlyTheOneNotYetAhead() throws {
        let f = try fixture()
        f.comic.read(page: 0)
        f.comic.finishFetching()
        f.comic.read(page: 1)
        f.comic.read(page: 1)
        f.comic.finishFetching()
        #expect(f.web.requests.map(\.url) == [Self.url(0), Self.url(1), Self.url(2), Self.url(3)])
        f.comic.read(page: 5)
        f.comic.finishFetching()
        #expect(f.web.requests.map(\.url).suffix(1) == [Self.url(5)])
    }

    @Test func aPageThatFailsSaysWhyAndTheOthersStillCome() throws {
        let f = try fixture(serve: [0, 2])
        f.comic.read(page: 0)
        f.comic.finishFetching()
        guard case .failed(let reason) = f.comic.state(ofPage: 1) else {
            Issue.record("page 2 should have failed, is \(f.comic.state(ofPage: 1))")
            return
        }
        #expect(reason.contains("404"))
        #expect(fetched(f.comic, 2) == Self.page(3))
        // A failed page is not asked for again at every frame.
        let asked = f.web.requests.count
        f.comic.read(page: 1)
        f.comic.finishFetching()
        #expect(f.web.requests.count == asked + 1)   // page 4 only, read ahead
        #expect(f.web.requests.last?.url == Self.url(3))
    }

    @Test func aPageLargerThanTheCapIsRefused() throws {
        let f = try fixture(maximumPageSize: 32)
        f.comic.read(page: 0)
        f.comic.finishFetching()
        guard case .failed = f.comic.state(ofPage: 0) else {
            Issue.record("a 72-byte page passed a 32-byte cap: \(f.comic.state(ofPage: 0))")
            return
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.comic.folder.path).isEmpty)
    }

    @Test func somethingOtherThanAPictureIsRefusedInALine() throws {
        let f = try fixture(pages: 1)
        f.web.serve(Self.url(0), headers: ["Content-Type": "text/html"], body: Data("<html>Please log in</html>".utf8))
        f.comic.read(page: 0)
        f.comic.finishFetching()
        #expect(f.comic.state(ofPage: 0) == .failed("the server sent page 1 as something other than a PNG, JPEG or GIF picture"))
    }

    @Test func theServersCredentialsGoWithEveryPage() throws {
        let credentials = Credentials.basic(user: "reader", password: "page-secret")
        let f = try fixture(pages: 2, credentials: credentials)
        f.comic.read(page: 0)
        f.comic.finishFetching()
        #expect(fetched(f.comic, 0) == Self.page(1))
        #expect(fetched(f.comic, 1) == Self.page(2))
        #expect(f.web.requests.contains { $0.header("Authorization") == credentials.authorizationHeader })
    }

    @Test func readingStartsAfterThePageTheServerSaysWasReadLast() throws {
        #expect(try fixture(lastRead: nil).comic.startPage == 0)
        #expect(try fixture(lastRead: 0).comic.startPage == 0)
        // pse:lastRead counts from 1: page 4 read, page 4 (index 3) is where to go on.
        #expect(try fixture(lastRead: 4).comic.startPage == 3)
        #expect(try fixture(pages: 6, lastRead: 60).comic.startPage == 5)
    }

    @Test func pagesFarBehindGoOverTheBudgetAndCloseRemovesTheRest() throws {
        // Each page is 72 bytes: a budget of 200 keeps two.
        let f = try fixture(readAhead: 1, budget: 200)
        for page in 0..<5 {
            f.comic.read(page: page)
            f.comic.finishFetching()
        }
        #expect(f.comic.state(ofPage: 0) == .waiting)
        #expect(fetched(f.comic, 4) == Self.page(5))
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.comic.folder.path).count <= 2)
        f.comic.close()
        f.comic.finishFetching()
        #expect(!FileManager.default.fileExists(atPath: f.comic.folder.path))
        f.comic.read(page: 0)
        f.comic.finishFetching()
        #expect(f.comic.state(ofPage: 0) == .waiting)
    }
}
