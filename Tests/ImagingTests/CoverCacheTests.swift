import Foundation
import Testing
@testable import Imaging

@Suite struct CoverCacheTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("covercache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func writeCover(in directory: URL, name: String = "cover.png") throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(try ImageEncoder.png(Fixtures.gradient(width: 60, height: 90))).write(to: url)
        return url
    }

    @Test func pictureCodingRoundTrips() {
        let picture = CellPicture(columns: 3, rows: 1, cells: [
            PictureCell(glyph: "▀", foreground: .rgb(1, 2, 3), background: .indexed(200)),
            PictureCell(glyph: "N", foreground: .indexed(15), background: nil),
            .blank,
        ])
        let bytes = PictureCoding.encode(picture)
        #expect(PictureCoding.decode(bytes) == picture)
        var damaged = bytes
        damaged[12] ^= 0xFF
        #expect(PictureCoding.decode(damaged) == nil)
        #expect(PictureCoding.decode(Array(bytes.dropLast(3))) == nil)
    }

    @Test func cacheHitReturnsAnIdenticalPicture() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.writeCover(in: directory)
        let options = RenderOptions(columns: 12, rows: 9)
        let cache = CoverCache(directory: directory.appendingPathComponent("cells"))
        defer { cache.shutDown() }
        let first = try cache.renderNow(imageFile: file, options: options)
        #expect(first == CoverRenderer.render(try ImageDecoder.decode(contentsOf: file), options: options))
        let second = cache.picture(for: file, options: options) {}
        #expect(second == first)
        // The same bytes under another name hit the same entry.
        let copy = directory.appendingPathComponent("copy.png")
        try FileManager.default.copyItem(at: file, to: copy)
        #expect(try cache.renderNow(imageFile: copy, options: options) == first)
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("cells").path)
        #expect(entries.count == 1 && entries[0].hasSuffix(".cells"))
    }

    @Test func workersRenderInTheBackgroundAndReportWhenReady() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.writeCover(in: directory)
        let options = RenderOptions(columns: 10, rows: 8, colorMode: .palette256)
        let cache = CoverCache(directory: nil, workers: 2)
        defer { cache.shutDown() }
        let ready = await withCheckedContinuation { (continuation: CheckedContinuation<CellPicture?, Never>) in
            let first = cache.picture(for: file, options: options) {
                continuation.resume(returning: cache.picture(for: file, options: options) {})
            }
            #expect(first == nil)
        }
        let expected = CoverRenderer.render(try ImageDecoder.decode(contentsOf: file), options: options)
        #expect(ready == expected)
    }

    @Test func diskEntriesOutliveTheCacheAndDamagedOnesAreIgnored() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.writeCover(in: directory)
        let cells = directory.appendingPathComponent("cells")
        let options = RenderOptions(columns: 8, rows: 6, colorMode: .palette16)
        let expected = try CoverCache(directory: cells, workers: 1).renderNow(imageFile: file, options: options)
        let entry = cells.appendingPathComponent(try FileManager.default.contentsOfDirectory(atPath: cells.path)[0])
        // A second cache finds the entry on disk: replace the image's pixels on disk with
        // the cached file's to prove the answer came from the entry, not a new render.
        #expect(try CoverCache(directory: cells, workers: 1).renderNow(imageFile: file, options: options) == expected)
        try Data("garbage".utf8).write(to: entry)
        #expect(try CoverCache(directory: cells, workers: 1).renderNow(imageFile: file, options: options) == expected)
        #expect(PictureCoding.decode([UInt8](try Data(contentsOf: entry))) == expected)
    }

    @Test func theOldestPicturesLeaveMemoryFirst() throws {
        let options = RenderOptions(columns: 6, rows: 4)
        let cache = CoverCache(directory: nil, workers: 1)
        defer { cache.shutDown() }
        cache.memoryLimit = 1
        let older = ImageSource.bytes(try ImageEncoder.png(Fixtures.gradient(width: 8, height: 8)), identity: "older")
        let newer = ImageSource.bytes(try ImageEncoder.png(Fixtures.checkerboard(width: 8, height: 8)), identity: "newer")

        _ = try cache.renderNow(older, options: options)
        let kept = try cache.renderNow(newer, options: options)

        #expect(cache.picture(for: newer, options: options) {} == kept)
        #expect(cache.picture(for: older, options: options) {} == nil, "the older picture is rendered again")
    }

    @Test func badImagesAreReportedNotRetried() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("cover.jpg")
        try Data("not really a jpeg".utf8).write(to: file)
        let options = RenderOptions(columns: 10, rows: 8)
        let cache = CoverCache(directory: nil, workers: 1)
        defer { cache.shutDown() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            _ = cache.picture(for: file, options: options) { continuation.resume() }
        }
        #expect(cache.error(for: file, options: options)?.description == "not a PNG or JPEG image")
        #expect(cache.picture(for: file, options: options) { Issue.record("a failed render was retried") } == nil)
        #expect(throws: ImageError.self) { try cache.renderNow(imageFile: file, options: options) }
    }
}
