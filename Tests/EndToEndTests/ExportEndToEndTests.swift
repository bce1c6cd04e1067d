import Foundation
import Testing

/// `newsstand export ISSUE FILE.epub` (issue #23): the sample news feed's newest edition,
/// built by the real program, comes out as an EPUB that epubcheck accepts with no errors,
/// its cover and pictures inside; an EPUB issue exports too, other kinds say what does.
@Suite(.serialized) struct ExportEndToEndTests {
    let sandbox = Sandbox(["NEWSSTAND_RESOURCES=\(Sandbox.repository.path)"], samples: true)

    /// Debian's `/usr/bin/epubcheck` needs a binfmt handler for jars; the jar runs anywhere.
    static func epubcheck(_ file: URL) throws -> String {
        try Tmux.runWithStatus(["java", "-jar", "/usr/share/java/epubcheck.jar", file.path]).output
    }

    static func entries(of file: URL) throws -> [String] {
        try Tmux.run(["unzip", "-Z1", file.path]).split(separator: "\n").map(String.init)
    }

    @Test func anEditionExportsAsAnEPUBThatEpubcheckAccepts() throws {
        // The samples, the news feed among them, are subscribed before the first command.
        #expect(try sandbox.run("issues").status == 0)
        let newest = try sandbox.sql("SELECT name FROM issue WHERE contentType = 'application/x-newsstand-edition' ORDER BY date DESC LIMIT 1")
        #expect(newest.hasPrefix("edition:"), "no edition of the sample news feed: \(newest)")
        let notYet = try sandbox.run("export", newest, sandbox.home.appendingPathComponent("early.epub").path)
        #expect(notYet.status == 1 && notYet.output.contains("is not downloaded yet"), "\(notYet.output)")

        let built = try sandbox.run("download", newest, "--wait")
        #expect(built.status == 0, "\(built.output)")
        let file = sandbox.home.appendingPathComponent("wire.epub")
        let exported = try sandbox.run("export", newest, file.path)
        #expect(exported.status == 0 && exported.output.hasPrefix("Exported \(newest) to \(file.path)"), "\(exported.output)")
        let check = try Self.epubcheck(file)
        #expect(check.contains("Messages: 0 fatals / 0 errors"), "\(check)")
        let names = try Self.entries(of: file)
        #expect(names.first == "mimetype", "\(names)")
        #expect(names.contains("OEBPS/images/cover.png"), "no cover: \(names)")
        #expect(names.contains { $0.hasPrefix("OEBPS/images/p") && $0.hasSuffix(".png") }, "no pictures: \(names)")

        // An existing file stays unless --force is given.
        let before = try Data(contentsOf: file)
        try Data("mine".utf8).write(to: file)
        let refused = try sandbox.run("export", newest, file.path)
        #expect(refused.status == 1 && refused.output.contains("already exists (give --force to replace it)"), "\(refused.output)")
        #expect(try Data(contentsOf: file) == Data("mine".utf8))
        let forced = try sandbox.run("export", newest, file.path, "--force")
        #expect(forced.status == 0, "\(forced.output)")
        #expect(try Data(contentsOf: file).count == before.count)
        // Nothing half-written is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.home.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test func anEPUBIssueExportsAsIsAndAPDFSaysWhatExports() throws {
        #expect(try sandbox.run("download", "tidewater-2026-11", "--wait").status == 0)
        let file = sandbox.home.appendingPathComponent("tidewater.epub")
        let exported = try sandbox.run("export", "tidewater-2026-11", file.path)
        #expect(exported.status == 0, "\(exported.output)")
        let check = try Self.epubcheck(file)
        #expect(check.contains("Messages: 0 fatals / 0 errors"), "\(check)")
        #expect(try Self.entries(of: file).contains("OEBPS/text/01-ninety-one-nights.xhtml"))

        #expect(try sandbox.run("download", "lantern-2026-09", "--wait").status == 0)
        let pdf = try sandbox.run("export", "lantern-2026-09", sandbox.home.appendingPathComponent("lantern.epub").path)
        #expect(pdf.status == 1, "\(pdf.output)")
        #expect(pdf.output.trimmingCharacters(in: .whitespacesAndNewlines)
                == "newsstand: lantern-2026-09 is a PDF issue: only editions and EPUB issues export to EPUB")
        #expect(!FileManager.default.fileExists(atPath: sandbox.home.appendingPathComponent("lantern.epub").path))
    }
}
