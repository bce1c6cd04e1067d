import Foundation
import Testing
@testable import Imaging

/// `newsstand render`'s work, in-process: argument forms, and hostile image files, each
/// of which must give one error line and a non-zero status (never a crash or a hang).
@Suite struct RenderToolTests {
    @Test func plainCommandLinesAreParsedAndAnythingElseIsLeftToTheFullParser() {
        #expect(RenderTool.parse(["render", "a.png"]) == RenderTool.Request(images: ["a.png"]))
        #expect(RenderTool.parse(["render", "--size", "30x22", "a.png", "--colors=16", "b.jpg", "--symbols", "ascii"])
            == RenderTool.Request(images: ["a.png", "b.jpg"], size: .init(columns: 30, rows: 22),
                                  colorMode: .palette16, symbols: .ascii))
        #expect(RenderTool.parse(["render", "--colors", "auto", "--", "-odd.png"])
            == RenderTool.Request(images: ["-odd.png"]))
        #expect(RenderTool.parse(["render", "--colors", "none", "x.png"])?.colorMode == ColorMode.none)
        for arguments in [["render"], ["render", "--help"], ["render", "-h", "a.png"], ["render", "--size", "0x5", "a.png"],
                          ["render", "--size", "30by22", "a.png"], ["render", "--colors", "8", "a.png"],
                          ["render", "--symbols", "braille", "a.png"], ["render", "--frobnicate", "a.png"],
                          ["render", "a.png", "--size"], ["shelf"], []] {
            #expect(RenderTool.parse(arguments) == nil, "\(arguments)")
        }
    }

    @Test func runWritesThePicturesInOneGoAndReturnsZero() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("cover.png", ImageEncoder.png(Fixtures.gradient(width: 60, height: 90)))
        let result = try run(RenderTool.Request(images: [file], size: .init(columns: 10, rows: 8), colorMode: .truecolor))
        #expect(result.status == 0)
        #expect(result.errors.isEmpty)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 8)
        #expect(result.output.contains("\u{1B}[38;2;") && result.output.contains("▀"))
    }

    /// Every kind of bad file, as the lead's reliability list names them.
    static let hostileCases: [(name: String, expected: String)] = [
        ("empty.png", "not a PNG or JPEG image"),
        ("text.png", "not a PNG or JPEG image"),
        ("truncated.png", "corrupt PNG: "),
        ("truncated.jpg", "corrupt JPEG: file is truncated"),
        ("corrupt.png", "corrupt PNG: "),
        ("corrupt.jpg", "corrupt JPEG: "),
        ("bomb.png", "image too large (100000×100000)"),
        ("bomb.jpg", "image too large (60000×60000)"),
        ("sparse-bomb.png", "cannot hold 7000×7000 pixels"),
        ("zero-width.png", "corrupt PNG: "),
        ("zero-height.jpg", "corrupt JPEG: "),
        ("endless-scans.jpg", "corrupt JPEG: too many progressive scans"),
        ("huge-file.png", "is too large for an image (300 MB)"),
        ("fifo.png", "not a regular file"),
        ("directory.png", "not a regular file"),
        ("missing.png", "no such file"),
    ]

    @Test func hostileFilesGiveOneErrorLineEachAndANonZeroStatus() throws {
        let directory = try TemporaryDirectory()
        let png = try ImageEncoder.png(Fixtures.gradient(width: 120, height: 90))
        let jpeg = try ImageEncoder.jpeg(Fixtures.gradient(width: 120, height: 90))
        var corruptPNG = png
        // Damage the compressed data (its CRC now fails) and the JPEG's Huffman table.
        for index in stride(from: 60, to: min(corruptPNG.count - 20, 400), by: 7) { corruptPNG[index] ^= 0x5A }
        var corruptJPEG = jpeg
        if let dht = (0..<(jpeg.count - 1)).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC4 }) {
            for index in (dht + 5)..<(dht + 21) { corruptJPEG[index] = 0xFF }
        }
        var zeroHeightJPEG = jpeg
        if let sof = (0..<(jpeg.count - 1)).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }) {
            zeroHeightJPEG[sof + 5] = 0
            zeroHeightJPEG[sof + 6] = 0
        }
        var paths: [String: String] = [:]
        paths["empty.png"] = try directory.write("empty.png", [])
        paths["text.png"] = try directory.write("text.png", Array("<html>not a cover</html>\n".utf8))
        paths["truncated.png"] = try directory.write("truncated.png", Array(png.prefix(png.count / 2)))
        paths["truncated.jpg"] = try directory.write("truncated.jpg", Array(jpeg.prefix(jpeg.count / 2)))
        paths["corrupt.png"] = try directory.write("corrupt.png", corruptPNG)
        paths["corrupt.jpg"] = try directory.write("corrupt.jpg", corruptJPEG)
        paths["bomb.png"] = try directory.write("bomb.png", Fixtures.pngClaiming(width: 100_000, height: 100_000))
        paths["bomb.jpg"] = try directory.write("bomb.jpg", Fixtures.jpegClaiming(width: 60_000, height: 60_000))
        // Under the pixel limit (49 MP) but with a few hundred bytes of data: refused
        // before 196 MB are allocated.
        paths["sparse-bomb.png"] = try directory.write("sparse-bomb.png", Fixtures.pngClaiming(width: 7000, height: 7000))
        paths["zero-width.png"] = try directory.write("zero-width.png", Fixtures.pngClaiming(width: 0, height: 10))
        paths["zero-height.jpg"] = try directory.write("zero-height.jpg", zeroHeightJPEG)
        paths["endless-scans.jpg"] = try directory.write("endless-scans.jpg", Fixtures.endlessScansJPEG())
        paths["huge-file.png"] = try directory.sparseFile("huge-file.png", size: 300 << 20, startingWith: png)
        paths["fifo.png"] = try directory.fifo("fifo.png")
        paths["directory.png"] = try directory.subdirectory("directory.png")
        paths["missing.png"] = directory.path + "/missing.png"

        for (name, expected) in Self.hostileCases {
            let path = try #require(paths[name])
            let started = Date()
            let result = try run(RenderTool.Request(images: [path], size: .init(columns: 20, rows: 10), colorMode: .truecolor))
            #expect(result.status == 1, "\(name)")
            #expect(result.output.isEmpty, "\(name)")
            let lines = result.errors.split(separator: "\n")
            #expect(lines.count == 1, "\(name): \(result.errors)")
            #expect(result.errors.hasPrefix("Error: ") && result.errors.contains(expected) && result.errors.contains(path),
                    "\(name): \(result.errors)")
            #expect(Date().timeIntervalSince(started) < 5, "\(name) took too long")
        }

        // All at once, with a good image among them: it is still drawn; one line per bad file.
        let good = try directory.write("good.png", png)
        let all = Self.hostileCases.compactMap { paths[$0.name] }
        let result = try run(RenderTool.Request(images: all + [good], size: .init(columns: 20, rows: 10), colorMode: .truecolor))
        #expect(result.status == 1)
        #expect(result.errors.split(separator: "\n").count == all.count)
        #expect(result.output.contains("▀"))
    }

    @Test func aPNGNamedJPEGIsDrawnByItsContent() throws {
        let directory = try TemporaryDirectory()
        let png = try ImageEncoder.png(Fixtures.gradient(width: 40, height: 60))
        let misnamed = try directory.write("really-a-png.jpg", png)
        let named = try directory.write("cover.png", png)
        let request = { (path: String) in RenderTool.Request(images: [path], size: .init(columns: 8, rows: 6), colorMode: .truecolor) }
        let first = try run(request(misnamed)), second = try run(request(named))
        #expect(first.status == 0 && first.output == second.output && !first.output.isEmpty)
    }

    // MARK: Helpers

    /// Runs the command with its output and errors captured in files.
    func run(_ request: RenderTool.Request) throws -> (status: Int32, output: String, errors: String) {
        let directory = try TemporaryDirectory()
        let outputPath = directory.path + "/out", errorPath = directory.path + "/err"
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let errors = open(errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(output >= 0 && errors >= 0)
        let status = RenderTool.run(request, output: output, errors: errors)
        close(output)
        close(errors)
        return (status, try String(contentsOfFile: outputPath, encoding: .utf8),
                try String(contentsOfFile: errorPath, encoding: .utf8))
    }
}

/// A directory under /tmp, removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "/imaging-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// A file of `size` bytes that takes no space (a hole after `bytes`).
    func sparseFile(_ name: String, size: Int, startingWith bytes: [UInt8]) throws -> String {
        let file = try write(name, bytes)
        guard truncate(file, off_t(size)) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return file
    }

    func fifo(_ name: String) throws -> String {
        let file = path + "/" + name
        guard mkfifo(file, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return file
    }

    func subdirectory(_ name: String) throws -> String {
        let directory = path + "/" + name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }
}
