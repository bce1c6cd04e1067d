import Foundation
import Testing
@testable import Imaging

/// `newsstand render`'s work, in-process: sizes, and hostile image files, each of which
/// must give one failure naming it and a non-zero status (never a crash or a hang).
@Suite struct RenderToolTests {
    @Test func sizesAreColumnsByRowsAndTheWindowLeavesARowForThePrompt() {
        #expect(RenderTool.CellSize(argument: "30x22") == .init(columns: 30, rows: 22))
        #expect(RenderTool.CellSize(argument: "30X22") == .init(columns: 30, rows: 22))
        for bad in ["0x5", "30by22", "x", "1001x5", "5x", ""] { #expect(RenderTool.CellSize(argument: bad) == nil, "\(bad)") }
        #expect(RenderTool.CellSize.window(columns: 120, rows: 40) == .init(columns: 120, rows: 39))
        #expect(RenderTool.CellSize.window(columns: nil, rows: nil) == .fallback)
        #expect(RenderTool.CellSize.window(columns: 80, rows: 1) == .fallback)
    }

    @Test func runWritesThePicturesInOneGoAndReturnsZero() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("cover.png", ImageEncoder.png(Fixtures.gradient(width: 60, height: 90)))
        let result = try run([file], columns: 10, rows: 8)
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
            let result = try run([path], columns: 20, rows: 10)
            #expect(result.status == 1, "\(name)")
            #expect(result.output.isEmpty, "\(name)")
            let lines = result.errors.split(separator: "\n")
            #expect(lines.count == 1, "\(name): \(result.errors)")
            #expect(result.errors.contains(expected) && result.errors.contains(path), "\(name): \(result.errors)")
        }

        // All at once, with a good image among them: it is still drawn; one line per bad file.
        let good = try directory.write("good.png", png)
        let all = Self.hostileCases.compactMap { paths[$0.name] }
        let result = try run(all + [good], columns: 20, rows: 10)
        #expect(result.status == 1)
        #expect(result.errors.split(separator: "\n").count == all.count)
        #expect(result.output.contains("▀"))
    }

    @Test func aPNGNamedJPEGIsDrawnByItsContent() throws {
        let directory = try TemporaryDirectory()
        let png = try ImageEncoder.png(Fixtures.gradient(width: 40, height: 60))
        let misnamed = try directory.write("really-a-png.jpg", png)
        let named = try directory.write("cover.png", png)
        let first = try run([misnamed], columns: 8, rows: 6), second = try run([named], columns: 8, rows: 6)
        #expect(first.status == 0 && first.output == second.output && !first.output.isEmpty)
    }

    // MARK: Helpers

    /// Runs the command in truecolor with its output captured in a file and its failures
    /// one a line.
    func run(_ images: [String], columns: Int, rows: Int) throws -> (status: Int32, output: String, errors: String) {
        let directory = try TemporaryDirectory()
        let outputPath = directory.path + "/out"
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(output >= 0)
        let options = RenderOptions(columns: columns, rows: rows, colorMode: .truecolor, symbols: .half, letterbox: false)
        var errors = ""
        let succeeded = RenderTool.run(images, options: options, output: output) { errors += $0 + "\n" }
        close(output)
        return (succeeded ? 0 : 1, try String(contentsOfFile: outputPath, encoding: .utf8), errors)
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
