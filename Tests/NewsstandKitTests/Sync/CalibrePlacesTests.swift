import Foundation
@testable import NewsstandKit
import Testing

/// How a book of calibre's content server is named and its places written and read, as
/// calibre's OPDS links and its viewer have them (the real server: CalibreSyncEndToEndTests).
@Suite("Places on calibre's content server") struct CalibrePlacesTests {
    let server = URL(string: "http://127.0.0.1:8080")!

    @Test func aBookIsKnownByTheAcquisitionLinkOfCalibresCatalog() throws {
        let book = try #require(CalibreBook(acquisition: URL(string: "http://127.0.0.1:8080/get/epub/12/My_Library")!, on: server))
        #expect(book == CalibreBook(library: "My_Library", id: 12, format: "EPUB"))
        #expect(book.document == "My_Library/12/EPUB")
        #expect(CalibreBook(document: book.document) == book)
        // Behind a URL prefix too; not a cover, another server, or another shape.
        #expect(CalibreBook(acquisition: URL(string: "http://127.0.0.1:8080/calibre/get/pdf/3/books")!, on: server)?.document == "books/3/PDF")
        #expect(CalibreBook(acquisition: URL(string: "http://127.0.0.1:8080/get/cover/12/My_Library")!, on: server) == nil)
        #expect(CalibreBook(acquisition: URL(string: "http://127.0.0.1:9090/get/epub/12/My_Library")!, on: server) == nil)
        #expect(CalibreBook(acquisition: URL(string: "http://127.0.0.1:8080/get/epub/twelve/My_Library")!, on: server) == nil)
        #expect(CalibreBook(document: "My_Library/12") == nil)
    }

    @Test func aPlaceIsWrittenAndReadAsCalibresViewerKeepsIt() throws {
        #expect(CalibrePlaces.cfi(spineIndex: 0) == "epubcfi(/2)")
        #expect(CalibrePlaces.cfi(spineIndex: 3) == "epubcfi(/8)")
        #expect(CalibrePlaces.spineIndex(of: "epubcfi(/8/4/2[p3]/1:10)") == 3)
        #expect(CalibrePlaces.spineIndex(of: "epubcfi(/8)") == 3)
        #expect(CalibrePlaces.spineIndex(of: "/8/4") == nil)
        #expect(CalibrePlaces.spineIndex(of: nil) == nil)

        let chapter = CalibrePlaces.locator(from: .init(device: "calibre", cfi: "epubcfi(/8/4/2:0)", epoch: 1_700_000_000.5, pos_frac: 0.4), paged: false)
        #expect(chapter.resourceIndex == 3 && chapter.page == nil && chapter.totalProgression == 0.4)
        #expect(chapter.updated == Date(timeIntervalSince1970: 1_700_000_000.5))
        let page = CalibrePlaces.locator(from: .init(device: "calibre", cfi: "epubcfi(/24)", epoch: 1, pos_frac: 0.11), paged: true)
        #expect(page.page == 11 && page.totalProgression == 0.11)
        let share = CalibrePlaces.locator(from: .init(device: "calibre", cfi: "nonsense", epoch: 1, pos_frac: 7), paged: false)
        #expect(share.resourceIndex == nil && share.totalProgression == 1)
    }
}
