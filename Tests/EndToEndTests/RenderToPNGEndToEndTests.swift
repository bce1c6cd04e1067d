import Foundation
import Imaging
import Testing

/// `render FILE.pdf --page N --output PAGE.png --pixels WxH`: the page as the reader draws
/// it into that box of pixels, written as a PNG (issue #31), and its mistakes in one line
/// naming the user's file.
@Suite(.serialized) struct RenderToPNGEndToEndTests {
    private func harbour(in sandbox: Sandbox) throws -> URL {
        try FileManager.default.createDirectory(at: sandbox.home, withIntermediateDirectories: true)
        let file = sandbox.home.appendingPathComponent("harbour.pdf")
        try PDFReadingEndToEndTests.writePDF(to: file)
        return file
    }

    @Test func thePageIsFittedInsideThePixelsAndDecodes() throws {
        let sandbox = Sandbox()
        let file = try harbour(in: sandbox)
        let png = sandbox.home.appendingPathComponent("page.png")
        let result = try sandbox.run(["render", file.path, "--page", "2", "--output", png.path, "--pixels", "300x200"])
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
        let picture = try ImageDecoder.decode(contentsOf: png)
        // A 612×792-point page in 300×200: fitted by height.
        #expect(picture.width == 155 && picture.height == 200)
        func grey(_ x: Int, _ y: Int) -> UInt8 { picture.pixels[(y * picture.width + x) * 4 + 1] }
        // Page 2's black rectangle (100-300 pt across, 242-392 pt down) where it was put, on white paper.
        #expect(grey(50, 80) < 20 && grey(5, 5) > 235 && grey(150, 195) > 235)

        let whole = try sandbox.run(["render", file.path, "--output", png.path])
        #expect(whole.status == 0, "\(whole.output)")
        let page = try ImageDecoder.decode(contentsOf: png)
        #expect(page.width == 612 && page.height == 792, "one pixel a point without --pixels")
    }

    @Test(arguments: ["0x100", "300", "300x", "wide", "20000x10"])
    func pixelsThatAreNotABoxAreRefused(_ pixels: String) throws {
        let sandbox = Sandbox()
        let file = try harbour(in: sandbox)
        let png = sandbox.home.appendingPathComponent("page.png")
        let result = try sandbox.run(["render", file.path, "--output", png.path, "--pixels", pixels])
        #expect(result.status != 0)
        #expect(result.output.contains("--pixels") && result.output.contains(pixels), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: png.path))
    }

    @Test func pixelsWithoutAnOutputAndTwoFilesForOneOutputAreRefused() throws {
        let sandbox = Sandbox()
        let file = try harbour(in: sandbox)
        let alone = try sandbox.run(["render", file.path, "--pixels", "300x200"])
        #expect(alone.status != 0 && alone.output.contains("--output"), "\(alone.output)")
        let two = try sandbox.run(["render", file.path, file.path, "--output", sandbox.home.appendingPathComponent("a.png").path])
        #expect(two.status != 0 && two.output.contains("one file"), "\(two.output)")
    }

    @Test func aMissingPageAnUnreadableFileAndAnUnwritableOutputNameTheUsersFile() throws {
        let sandbox = Sandbox()
        let file = try harbour(in: sandbox)
        let png = sandbox.home.appendingPathComponent("page.png")
        let missing = try sandbox.run(["render", file.path, "--page", "9", "--output", png.path, "--pixels", "300x200"])
        #expect(missing.status == 1)
        #expect(missing.output == "newsstand: \(file.path): harbour.pdf has no page 9 (it has 3)\n", "\(missing.output)")
        #expect(!FileManager.default.fileExists(atPath: png.path))

        let notPDF = sandbox.home.appendingPathComponent("notes.pdf")
        try Data("these are notes, not a PDF".utf8).write(to: notPDF)
        let unreadable = try sandbox.run(["render", notPDF.path, "--output", png.path])
        #expect(unreadable.status == 1 && unreadable.output.hasPrefix("newsstand: \(notPDF.path): notes.pdf"), "\(unreadable.output)")

        let nowhere = sandbox.home.appendingPathComponent("no/such/folder/page.png")
        let unwritable = try sandbox.run(["render", file.path, "--output", nowhere.path])
        #expect(unwritable.status == 1 && unwritable.output.hasPrefix("newsstand: \(nowhere.path):"), "\(unwritable.output)")
    }
}
