import Foundation
import Testing
@testable import IssueArchive

/// A format of the tests' own whose issue is one file, as a PDF's will be: a `.note` file
/// beginning "NOTE", its second line the title; one beginning "LOCKED" needs a password.
struct NoteFormat: IssueFormatReader {
    static let fileName = "issue.note"
    var format: IssueFormat { IssueFormat(rawValue: "note") }
    var packaging: IssuePackaging { .singleFile(name: Self.fileName) }

    func recognizes(_ download: DownloadedFile) -> Bool { download.fileExtension == "note" }
    func recognizes(_ files: ContentTree) -> Bool { files.contains(Self.fileName) }

    func open(_ files: ContentTree) throws -> IssueContent {
        let text = String(decoding: files.data(Self.fileName) ?? Data(), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        if lines.first == "LOCKED" { throw ArchiveError(.encrypted, "\(Self.fileName) needs a password") }
        guard lines.first == "NOTE", lines.count > 1 else {
            throw ArchiveError(.invalidContent, "\(Self.fileName) is not a note")
        }
        return IssueContent(format: format, metadata: IssueMetadata(title: lines[1]),
                            readingOrder: [Resource(path: Self.fileName, mediaType: "text/plain")])
    }
}

/// A format that would put its file where no issue file may go.
struct MisnamedFormat: IssueFormatReader {
    var format: IssueFormat { IssueFormat(rawValue: "misnamed") }
    var packaging: IssuePackaging { .singleFile(name: "../escaped.note") }
    func recognizes(_ download: DownloadedFile) -> Bool { download.fileExtension == "note" }
    func recognizes(_ files: ContentTree) -> Bool { false }
    func open(_ files: ContentTree) throws -> IssueContent { IssueContent(format: format) }
}

@Suite struct IssueFormatRegistryTests {
    static func notes() -> IssueFormats {
        let formats = IssueFormats()
        formats.register(NoteFormat())
        return formats
    }

    static func write(_ text: String, to url: URL) throws -> URL {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func aSingleFileFormatInstallsByPlacingTheFileInANewContentDirectory() throws {
        let scratch = try Scratch()
        let download = try Self.write("NOTE\nSpring issue\n", to: scratch.file("downloads/7.note"))
        let content = scratch.file("issues/7")
        try FileManager.default.createDirectory(at: scratch.file("issues"), withIntermediateDirectories: true)

        let installed = try IssueInstaller.install(download: download, into: content, formats: Self.notes())

        #expect(installed.format == IssueFormat(rawValue: "note"))
        #expect(installed.metadata.title == "Spring issue")
        #expect(try FileManager.default.contentsOfDirectory(atPath: content.path) == [NoteFormat.fileName])
        #expect(try String(contentsOf: content.appendingPathComponent(NoteFormat.fileName), encoding: .utf8) == "NOTE\nSpring issue\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("issues").path) == ["7"])
        #expect(try Self.notes().open(directory: content) == installed)
    }

    /// A document locked with a password (an encrypted PDF) is whole: it installs, and is
    /// opened once the user gives the password.
    @Test func aSingleFileThatNeedsAPasswordInstallsAllTheSame() throws {
        let scratch = try Scratch()
        let download = try Self.write("LOCKED\n", to: scratch.file("downloads/8.note"))
        let content = scratch.file("issues/8")
        try FileManager.default.createDirectory(at: scratch.file("issues"), withIntermediateDirectories: true)

        let installed = try IssueInstaller.install(download: download, into: content, formats: Self.notes())

        #expect(installed.format == IssueFormat(rawValue: "note") && installed.readingOrder.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: content.path) == [NoteFormat.fileName])
        #expect(throws: ArchiveError(.encrypted, "\(NoteFormat.fileName) needs a password")) { try Self.notes().open(directory: content) }
    }

    @Test func aSingleFileReplacesTheOldContentAndCanKeepItsOtherFiles() throws {
        let scratch = try Scratch()
        let content = scratch.file("issues/7")
        _ = try Self.write("old", to: content.appendingPathComponent("old.html"))
        _ = try Self.write("cover", to: content.appendingPathComponent("cover.jpg"))
        let download = try Self.write("NOTE\nSummer issue\n", to: scratch.file("downloads/7.note"))

        _ = try IssueInstaller.install(download: download, into: content, formats: Self.notes(), keepingOtherFiles: true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: content.path).sorted() == ["cover.jpg", NoteFormat.fileName, "old.html"])

        _ = try IssueInstaller.install(download: download, into: content, formats: Self.notes())
        #expect(try FileManager.default.contentsOfDirectory(atPath: content.path) == [NoteFormat.fileName])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("issues").path) == ["7"])
    }

    @Test func aSingleFileItsFormatCannotOpenLeavesTheOldContentAndNothingBehind() throws {
        let scratch = try Scratch()
        let content = scratch.file("issues/one")
        _ = try Self.write("<p>old</p>", to: content.appendingPathComponent("a.html"))
        let download = try Self.write("not a note at all", to: scratch.file("downloads/one.note"))

        let error = try #require(throws: ArchiveError.self) {
            try IssueInstaller.install(download: download, into: content, formats: Self.notes())
        }

        #expect(error.message == "issue.note is not a note")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("issues").path) == ["one"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: content.path) == ["a.html"])
    }

    @Test func aFormatNamingItsFileOutsideTheIssueIsRefusedBeforeAnythingIsWritten() throws {
        let scratch = try Scratch()
        let download = try Self.write("NOTE\nTitle\n", to: scratch.file("downloads/x.note"))
        let formats = IssueFormats()
        formats.register(MisnamedFormat())
        let before = scratch.listing()

        let error = try #require(throws: ArchiveError.self) {
            try IssueInstaller.install(download: download, into: scratch.file("issues-x"), formats: formats)
        }

        #expect(error.kind == .unsafePath)
        #expect(scratch.listing() == before)
    }

    @Test func zipDownloadsExtractAsBeforeAndOpenByWhatTheyHold() throws {
        let scratch = try Scratch()
        let comic = try scratch.zip("42.download", [.init(bytes: Array("1.jpg".utf8), content: PageBytes.png), .init(bytes: Array("2.jpg".utf8), content: PageBytes.png)])
        let articles = try scratch.zip("43.cbz", [.init("a.html", "<p>hello</p>")])

        #expect(try IssueInstaller.install(download: comic, into: scratch.file("comic"), formats: Self.notes()).format == .cbz)
        #expect(try IssueInstaller.install(download: articles, into: scratch.file("articles"), formats: Self.notes()).format == .zip)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("comic").path).sorted() == ["1.jpg", "2.jpg"])
    }

    @Test func aFileNoFormatKnowsIsRefusedInTheExtractorsWords() throws {
        let scratch = try Scratch()
        let download = try Self.write("%PDF-1.7 but nobody reads PDF yet", to: scratch.file("issue.pdf"))
        let before = scratch.listing()

        let viaDownload = try #require(throws: ArchiveError.self) {
            try IssueInstaller.install(download: download, into: scratch.file("issue"), formats: Self.notes())
        }
        let viaExtractor = try #require(throws: ArchiveError.self) {
            try SafeExtractor.extract(archive: download, to: scratch.file("extracted"))
        }

        #expect(viaDownload == viaExtractor)
        #expect(scratch.listing() == before)
    }

    @Test func downloadsAreRecognisedByNameAndFirstBytes() throws {
        let scratch = try Scratch()
        let formats = Self.notes()
        let epub = try scratch.zip("book.zip", [.init("mimetype", "application/epub+zip", method: 0), .init("a.xhtml", "<p/>")])
        let comic = try scratch.zip("pages.cbz", [.init("1.jpg", "x")])
        let plain = try scratch.zip("issue", [.init("a.html", "<p/>")])
        let note = try Self.write("NOTE\nx\n", to: scratch.file("n.note"))
        let other = try Self.write("plain text", to: scratch.file("readme.txt"))

        func format(_ url: URL) throws -> IssueFormat? { formats.reader(for: try DownloadedFile(url: url))?.format }

        #expect(try format(epub) == .epub)
        #expect(try format(comic) == .cbz)
        #expect(try format(plain) == .zip)
        #expect(try format(note) == IssueFormat(rawValue: "note"))
        #expect(try format(other) == nil)
    }

    @Test func registeredFormatsAreAskedFirstAndOnlyWhereTheyAreRegistered() throws {
        let scratch = try Scratch()
        let directory = scratch.file("issue")
        _ = try Self.write("NOTE\nA note\n", to: directory.appendingPathComponent(NoteFormat.fileName))
        _ = try Self.write("<p>an article</p>", to: directory.appendingPathComponent("a.html"))

        #expect(try Self.notes().open(directory: directory).format == IssueFormat(rawValue: "note"))
        #expect(try IssueReader.open(directory: directory).format == .zip, "the shared formats know no notes")
        #expect(Self.notes().readers.map(\.format) == [IssueFormat(rawValue: "note"), .epub, .cbz, .zip])
    }

    @Test func theSizeAnInstallWritesIsTheUnpackedZipOrTheFileItself() throws {
        let scratch = try Scratch()
        let note = try Self.write("NOTE\nTwelve bytes\n", to: scratch.file("n.note"))
        let archive = try scratch.zip("issue.zip", [.init("a.html", String(repeating: "a", count: 5000))])

        #expect(try IssueInstaller.installedSize(of: note, formats: Self.notes()) == 18)
        #expect(try IssueInstaller.installedSize(of: archive, formats: Self.notes()) == 5000)
    }

    @Test func aCopiedFileGoesThroughStorageAndAFullDiskSaysSo() throws {
        let scratch = try Scratch()
        let source = try Self.write(String(repeating: "n", count: 100_000), to: scratch.file("big.note"))

        let error = try #require(throws: ArchiveError.self) {
            try FileSystem.copy(source, to: scratch.file("copy-full"), storage: FillingDisk(room: 60_000))
        }
        #expect(error.isOutOfSpace)

        try FileSystem.copy(source, to: scratch.file("copy"), storage: FillingDisk(room: 100_000))
        #expect(try Data(contentsOf: scratch.file("copy")) == Data(contentsOf: source))
    }

    @Test func contentWrittenBeforeFormatsWereOpenEndedStillDecodes() throws {
        let json = Data(#"{"format":"cbz","metadata":{"creators":[]},"tableOfContents":[],"readingOrder":[],"rightToLeft":false}"#.utf8)
        let content = try JSONDecoder().decode(IssueContent.self, from: json)
        #expect(content.format == .cbz)
        #expect(String(decoding: try JSONEncoder().encode(IssueFormat.epub), as: UTF8.self) == #""epub""#)
    }
}
