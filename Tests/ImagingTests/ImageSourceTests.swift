import Foundation
import Testing
@testable import Imaging

/// A document renderer of the tests' own: every page is a picture of one grey, as light
/// as the page number is high, at the size asked for; it counts the pages it draws.
final class GreyPages: DocumentRenderer, @unchecked Sendable {
    // `lock` guards `drawn`: cache workers call `render` from their threads.
    private let lock = NSLock()
    private var drawn: [(page: Int, size: (width: Int, height: Int)?)] = []

    var pagesDrawn: [Int] { lock.withLock { drawn.map(\.page) } }
    var sizesAsked: [(width: Int, height: Int)?] { lock.withLock { drawn.map(\.size) } }

    static func page(_ index: Int, width: Int = 20, height: Int = 30) -> RGBAImage {
        let grey = UInt8(min(40 * index, 255))
        return RGBAImage(width: width, height: height, filledWith: (grey, grey, grey, 255))
    }

    func render(_ page: DocumentPage, fitting size: (width: Int, height: Int)?) throws -> RGBAImage {
        lock.withLock { drawn.append((page.index, size)) }
        return Self.page(page.index)
    }
}

@Suite struct ImageSourceTests {
    @Test func aFileAndItsBytesDecodeToTheSamePicture() throws {
        let directory = try CoverCacheTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try CoverCacheTests.writeCover(in: directory)
        let bytes = try ImageDecoder.readBytes(atPath: file.path)

        let fromFile = try ImageDecoder.decode(.file(file))
        #expect(fromFile == Fixtures.gradient(width: 60, height: 90))
        #expect(try ImageDecoder.decode(.bytes(bytes, identity: "cover")) == fromFile)
        let options = RenderOptions(columns: 6, rows: 4)
        #expect(try ImageDecoder.decode(.bytes(bytes, identity: "cover"), drawnWith: options)
                == ImageDecoder.decode(.file(file), drawnWith: options))
    }

    @Test func aJPEGFileForCellsIsDecodedWholeHoweverSmallTheFrame() throws {
        let directory = try CoverCacheTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("cover.jpg")
        try Data(try ImageEncoder.jpeg(Fixtures.gradient(width: 800, height: 800))).write(to: file)

        let decoded = try ImageDecoder.decode(.file(file), drawnWith: RenderOptions(columns: 10, rows: 5))

        #expect(decoded.width == 800 && decoded.height == 800, "no DCT scaling: it would average in gamma space")
    }

    @Test func aPageIsDrawnByTheRendererRegisteredForItsKindAtTheSizeAsked() throws {
        let documents = DocumentRenderers()
        let renderer = GreyPages()
        documents.register(renderer, for: .pdf)
        let document = URL(fileURLWithPath: "/magazines/issue.pdf")

        let page = try ImageDecoder.decode(.page(2, of: document, kind: .pdf), size: (90, 120), documents: documents)

        #expect(page == GreyPages.page(2))
        #expect(renderer.pagesDrawn == [2])
        #expect(renderer.sizesAsked.first??.width == 90 && renderer.sizesAsked.first??.height == 120)
    }

    @Test func aPageOfAKindNobodyDrawsIsAClearError() throws {
        let documents = DocumentRenderers()
        documents.register(GreyPages(), for: DocumentKind(rawValue: "djvu"))
        let document = URL(fileURLWithPath: "/magazines/issue.pdf")

        let error = #expect(throws: ImageError.self) {
            try ImageDecoder.decode(.page(0, of: document, kind: .pdf), documents: documents)
        }

        #expect(error?.kind == .unsupported)
        #expect(error?.description == "cannot draw pages of PDF documents (issue.pdf): no renderer for them is installed")
    }

    @Test func bytesAreKnownByTheirIdentity() {
        let one = ImageSource.bytes([1, 2, 3], identity: "images/a.png")
        #expect(one == .bytes([9, 9], identity: "images/a.png"))
        #expect(one != .bytes([1, 2, 3], identity: "images/b.png"))
        #expect(ImageSource.page(0, of: URL(fileURLWithPath: "/a.pdf"), kind: .pdf).description == "page 1 of /a.pdf")
    }

    @Test func theCacheRendersBytesInTheBackgroundAndKeepsThem() async throws {
        let bytes = try ImageEncoder.png(Fixtures.gradient(width: 40, height: 40))
        let source = ImageSource.bytes(bytes, identity: "images/gradient.png")
        let options = RenderOptions(columns: 8, rows: 4)
        let cache = CoverCache(directory: nil, workers: 1)
        defer { cache.shutDown() }

        let ready = await withCheckedContinuation { (continuation: CheckedContinuation<CellPicture?, Never>) in
            let first = cache.picture(for: source, options: options) {
                continuation.resume(returning: cache.picture(for: source, options: options) {})
            }
            #expect(first == nil)
        }

        #expect(ready == CoverRenderer.render(try ImageDecoder.decode(bytes), options: options))
        #expect(cache.picture(for: source, options: options) { Issue.record("a kept picture was rendered again") } == ready)
    }

    @Test func theCacheKeepsPagesOnDiskUntilTheDocumentChanges() throws {
        let directory = try CoverCacheTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = directory.appendingPathComponent("issue.pdf")
        try Data("%PDF-1.7 first".utf8).write(to: document)
        let cells = directory.appendingPathComponent("cells")
        let documents = DocumentRenderers()
        let renderer = GreyPages()
        documents.register(renderer, for: .pdf)
        let options = RenderOptions(columns: 10, rows: 6)
        let page = ImageSource.page(3, of: document, kind: .pdf)

        let first = try CoverCache(directory: cells, workers: 1, documents: documents).renderNow(page, options: options)
        #expect(first == CoverRenderer.render(GreyPages.page(3), options: options))
        // Another cache (the next run) finds the page on disk without drawing it again.
        #expect(try CoverCache(directory: cells, workers: 1, documents: documents).renderNow(page, options: options) == first)
        #expect(renderer.pagesDrawn == [3])

        try Data("%PDF-1.7 second, longer".utf8).write(to: document)
        _ = try CoverCache(directory: cells, workers: 1, documents: documents).renderNow(page, options: options)
        #expect(renderer.pagesDrawn == [3, 3], "a changed document is drawn again")
    }

    @Test func theCacheReportsAPageNobodyCanDraw() async throws {
        let directory = try CoverCacheTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = directory.appendingPathComponent("issue.pdf")
        try Data("%PDF-1.7".utf8).write(to: document)
        let page = ImageSource.page(0, of: document, kind: .pdf)
        let options = RenderOptions(columns: 10, rows: 6)
        let cache = CoverCache(directory: nil, workers: 1, documents: DocumentRenderers())
        defer { cache.shutDown() }

        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            _ = cache.picture(for: page, options: options) { continuation.resume() }
        }

        #expect(cache.error(for: page, options: options)?.kind == .unsupported)
        #expect(cache.picture(for: page, options: options) { Issue.record("a failed page was drawn again") } == nil)
    }
}
