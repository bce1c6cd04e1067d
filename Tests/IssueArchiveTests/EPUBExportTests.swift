import Foundation
import Testing
import ZIPFoundation
@testable import IssueArchive

/// An installed EPUB (the folder an install extracted) packs back into one EPUB file.
@Suite struct EPUBExportTests {
    /// A folder holding a book the project wrote, extracted as the installer does.
    static func installedBook(in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent("written.epub")
        try EPUBWriterTests.book().write(to: file)
        let folder = directory.appendingPathComponent("installed")
        try SafeExtractor.extract(archive: file, to: folder)
        try FileManager.default.removeItem(at: file)
        return folder
    }

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("epub-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func theFolderPacksWithTheMimetypeFirstStoredAndEveryFileInIt() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try Self.installedBook(in: directory)
        let out = directory.appendingPathComponent("out/book.epub")
        try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
        let count = try EPUBExport.write(folder: folder, to: out, replacing: false)

        let archive = try Archive(url: out, accessMode: .read)
        let entries = Array(archive)
        #expect(entries.first?.path == "mimetype" && entries.first?.compressedSize == entries.first?.uncompressedSize)
        let bytes = [UInt8](try Data(contentsOf: out).prefix(58))
        #expect(bytes[8] == 0 && bytes[9] == 0, "the mimetype is stored, not compressed")
        #expect(String(decoding: bytes[38..<58], as: UTF8.self) == "application/epub+zip")
        let packed = Set(entries.map(\.path))
        #expect(packed == Set(try ContentTree(root: folder).files))
        #expect(count == entries.count)
        // The cover travels, byte for byte.
        var cover = Data()
        _ = try archive.extract(try #require(archive["OEBPS/images/cover.png"])) { cover.append($0) }
        #expect(cover == (try Data(contentsOf: folder.appendingPathComponent("OEBPS/images/cover.png"))))
        // It reads as the same book, and nothing was left beside it.
        let (content, root) = try IssueReader.read(archive: out, in: directory)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.format == .epub && content.coverImage == "OEBPS/images/cover.png")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path) == ["book.epub"])
    }

    @Test func anExistingFileIsReplacedOnlyWhenAsked() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try Self.installedBook(in: directory)
        let out = directory.appendingPathComponent("book.epub")
        try Data("keep me".utf8).write(to: out)
        #expect(throws: ArchiveError.self) { try EPUBExport.write(folder: folder, to: out, replacing: false) }
        do { try EPUBExport.write(folder: folder, to: out, replacing: false) } catch let error as ArchiveError {
            #expect(error.kind == .destinationExists && error.message.contains("--force"), "\(error)")
        }
        #expect(try Data(contentsOf: out) == Data("keep me".utf8))
        try EPUBExport.write(folder: folder, to: out, replacing: true)
        #expect(try Data(contentsOf: out).prefix(4) == Data([0x50, 0x4B, 0x03, 0x04]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["book.epub", "installed"])
    }

    /// A folder that is not an EPUB (pictures only: a comic) is refused after packing, and
    /// nothing is written.
    @Test func aFolderThatIsNoEPUBIsRefusedAndLeavesNothing() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("comic")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: folder.appendingPathComponent("page-01.png"))
        let out = directory.appendingPathComponent("comic.epub")
        #expect(throws: ArchiveError.self) { try EPUBExport.write(folder: folder, to: out, replacing: false) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["comic"])
    }
}
