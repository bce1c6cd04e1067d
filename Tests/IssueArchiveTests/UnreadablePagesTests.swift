import Foundation
import Testing
@testable import IssueArchive

/// Small page images whose bytes are whole (a 1×1 grey PNG, the shortest JPEG shape).
enum PageBytes {
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3A, 0x7E, 0x9B,
        0x55, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x68, 0x00, 0x00, 0x00,
        0x82, 0x00, 0x81, 0x77, 0xCD, 0x72, 0xB6, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
        0x42, 0x60, 0x82,
    ]
    /// A JPEG's start (SOI, an APP0 segment) cut off before its end marker.
    static let truncatedJPEG: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01]
    /// A PNG whose chunks stop before IEND.
    static var truncatedPNG: [UInt8] { Array(png.prefix(40)) }
}

/// Issue #21, item 3 (install side): a comic whose pages are all unreadable is refused.
@Suite struct UnreadablePagesTests {
    func page(_ name: String, _ bytes: [UInt8]) -> ZipFixture.Entry {
        ZipFixture.Entry(bytes: Array(name.utf8), content: bytes)
    }

    func expectRefused(_ entries: [ZipFixture.Entry], mentioning texts: [String]) throws {
        let scratch = try Scratch()
        let archive = try scratch.zip("comic.cbz", entries)
        let before = scratch.listing()
        let content = scratch.file("issue")
        for install in [{ _ = try IssueInstaller.install(download: archive, into: content) }] {
            do {
                try install()
                Issue.record("a comic with no readable page was installed")
            } catch let error as ArchiveError {
                #expect(error.kind == .invalidContent, "\(error)")
                #expect(!error.description.contains("\n"), "\(error)")
                for text in texts { #expect(error.description.contains(text), "\(error)") }
            }
            #expect(scratch.listing() == before)
        }
    }

    @Test func aComicWhosePagesAreAllUnreadableIsRefusedSayingWhy() throws {
        try expectRefused([
            page("p1.jpg", PageBytes.truncatedJPEG),
            page("p2.png", []),
            page("p3.jpg", Array("these bytes are no picture at all".utf8)),
        ], mentioning: ["no page that can be shown", "p1.jpg is cut short", "p2.png is empty", "p3.jpg is not a PNG, JPEG, GIF or WebP image"])
    }

    @Test func aTruncatedPNGIsUnreadable() throws {
        try expectRefused([page("only.png", PageBytes.truncatedPNG)], mentioning: ["only.png is cut short"])
    }

    @Test func manyUnreadablePagesAreSummedUpOnOneLine() throws {
        try expectRefused((1...9).map { page("page\($0).png", []) }, mentioning: ["page1.png is empty", "and 6 more"])
    }

    @Test func oneReadablePageIsEnoughToInstall() throws {
        let scratch = try Scratch()
        let archive = try scratch.zip("comic.cbz", [page("p1.jpg", PageBytes.truncatedJPEG), page("p2.png", PageBytes.png)])
        let content = try IssueInstaller.install(download: archive, into: scratch.file("issue"))
        #expect(content.format == .cbz)
        #expect(content.readingOrder.map(\.path) == ["p1.jpg", "p2.png"])
    }

    @Test func aJPEGsEndIsLookedForAfterItsScanNotInItsThumbnail() throws {
        let scratch = try Scratch()
        let thumbnail: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0xFF, 0xD9]
        let exif = Array("Exif".utf8) + [0, 0] + thumbnail
        let app1: [UInt8] = [0xFF, 0xE1, 0x00, UInt8(exif.count + 2)] + exif
        let scan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34, 0xFF, 0x00, 0x56]
        let whole = [0xFF, 0xD8] + app1 + scan + [0xFF, 0xD9]
        let cut = Array(whole.dropLast(2))
        let good = try scratch.zip("whole.cbz", [page("p.jpg", whole)])
        #expect(try IssueInstaller.install(download: good, into: scratch.file("issue")).format == .cbz)
        try expectRefused([page("p.jpg", cut)], mentioning: ["p.jpg is cut short"])
    }

    @Test func wholeGIFAndWebPPagesCountAsReadable() throws {
        let scratch = try Scratch()
        let gif = Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x3B]
        let webpBody = Array("WEBPVP8 ".utf8) + [0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let webp = Array("RIFF".utf8) + [UInt8(webpBody.count), 0, 0, 0] + webpBody
        for (name, bytes) in [("a.gif", gif), ("b.webp", webp)] {
            let archive = try scratch.zip("\(name).cbz", [page(name, bytes)])
            #expect(try IssueInstaller.install(download: archive, into: scratch.file("issue-\(name)")).format == .cbz)
        }
    }
}
