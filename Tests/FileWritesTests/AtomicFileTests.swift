import FileWrites
import Foundation
import Testing

@Suite("A file written whole or not at all, beside its place")
struct AtomicFileTests {
    /// A fresh directory, removed when the test ends.
    final class Folder {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-file-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }
        func mode(_ name: String) -> mode_t {
            var info = stat()
            return stat(url.appendingPathComponent(name).path, &info) == 0 ? info.st_mode & 0o777 : 0
        }
    }

    @Test func aNewFileHasItsBytesAndTheModeAskedAndNoStagingFileIsLeft() throws {
        let folder = try Folder()
        let file = folder.url.appendingPathComponent("credentials.json")
        try AtomicFile.write(Data("secret".utf8), to: file, permissions: 0o600, sync: true)
        #expect(try Data(contentsOf: file) == Data("secret".utf8))
        // Never chmod-ed after creation: the file renamed into place had this mode from its first moment.
        #expect(folder.mode("credentials.json") == 0o600)
        #expect(try folder.names() == ["credentials.json"])
    }

    @Test func replacingAFileKeepsTheModeAskedNotTheOldOne() throws {
        let folder = try Folder()
        let file = folder.url.appendingPathComponent("credentials.json")
        try Data("old".utf8).write(to: file)
        chmod(file.path, 0o644)
        try AtomicFile.write(Data("new".utf8), to: file, permissions: 0o600)
        #expect(try Data(contentsOf: file) == Data("new".utf8))
        #expect(folder.mode("credentials.json") == 0o600)
        #expect(try folder.names() == ["credentials.json"])
    }

    @Test func withoutReplacingAnExistingFileStaysAndNoStagingFileIsLeft() throws {
        let folder = try Folder()
        let file = folder.url.appendingPathComponent("book.epub")
        try Data("old".utf8).write(to: file)
        let error = #expect(throws: FileWriteError.self) {
            try AtomicFile.write(to: file, replacing: false, purpose: "exporting") { staging in
                try Data("new".utf8).write(to: staging)
            }
        }
        #expect(error?.kind == .destinationExists)
        #expect(try Data(contentsOf: file) == Data("old".utf8))
        #expect(try folder.names() == ["book.epub"])
    }

    @Test func withoutReplacingANewFileIsPutInPlace() throws {
        let folder = try Folder()
        let file = folder.url.appendingPathComponent("book.epub")
        try AtomicFile.write(Data("new".utf8), to: file, replacing: false)
        #expect(try Data(contentsOf: file) == Data("new".utf8))
        #expect(try folder.names() == ["book.epub"])
    }

    @Test func aFailedFillLeavesTheOldFileAndNoStagingFile() throws {
        struct Broken: Error {}
        let folder = try Folder()
        let file = folder.url.appendingPathComponent("book.epub")
        try Data("old".utf8).write(to: file)
        var stagedBeside: URL?
        #expect(throws: Broken.self) {
            try AtomicFile.write(to: file, purpose: "writing") { staging in
                stagedBeside = staging.deletingLastPathComponent()
                try Data("half".utf8).write(to: staging)
                throw Broken()
            }
        }
        #expect(stagedBeside?.standardizedFileURL.path == folder.url.standardizedFileURL.path)
        #expect(try Data(contentsOf: file) == Data("old".utf8))
        #expect(try folder.names() == ["book.epub"])
    }

    @Test func aRenameThatFailsLeavesNoStagingFileAndSaysWhere() throws {
        let folder = try Folder()
        // A directory that is not empty cannot be replaced by a file.
        let place = folder.url.appendingPathComponent("cover.cells")
        try FileManager.default.createDirectory(at: place.appendingPathComponent("inside"), withIntermediateDirectories: true)
        let error = #expect(throws: FileWriteError.self) {
            try AtomicFile.write(Data("cells".utf8), to: place, permissions: 0o600)
        }
        #expect(error?.kind == .io)
        #expect(error?.description.contains(place.path) == true)
        #expect(try folder.names() == ["cover.cells"])
    }

    @Test func aMissingFolderIsRefusedInOneLine() throws {
        let folder = try Folder()
        let file = folder.url.appendingPathComponent("missing/credentials.json")
        let error = #expect(throws: FileWriteError.self) { try AtomicFile.write(Data("x".utf8), to: file) }
        #expect(error?.description == "cannot write into '\(folder.url.appendingPathComponent("missing").path)': No such file or directory")
        #expect(try folder.names() == [])
    }
}
