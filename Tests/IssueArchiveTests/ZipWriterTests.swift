import Foundation
import Testing
import ZIPFoundation
@testable import IssueArchive

/// What `ZipWriter` writes, read back by our own strict reader and by ZIPFoundation.
@Suite struct ZipWriterTests {
    @Test func entriesStoredAndDeflatedReadBackByteForByteInTheOrderAdded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zip-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("out.zip")
        let text = Data(String(repeating: "the harbour wall, the ferry and the tides; ", count: 3_000).utf8)
        let noise = Data((0..<70_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
        let files: [(String, Data, Bool)] = [("mimetype", Data("application/epub+zip".utf8), false), ("empty.txt", Data(), true),
                                             ("OEBPS/text/été.xhtml", text, true), ("OEBPS/images/p.png", noise, false)]
        let writer = try ZipWriter(url: file)
        for (path, data, compressed) in files { try writer.add(path, data, compressed: compressed) }
        try writer.finish()

        #expect(try Data(contentsOf: file).count < text.count / 10 + noise.count + 1_000, "the text is deflated")
        let folder = directory.appendingPathComponent("extracted")
        try SafeExtractor.extract(archive: file, to: folder)
        for (path, data, _) in files {
            #expect(try Data(contentsOf: folder.appendingPathComponent(path)) == data, "\(path)")
        }
        let archive = try Archive(url: file, accessMode: .read)
        #expect(Array(archive).map(\.path) == files.map(\.0))
        #expect(Array(archive).map { $0.compressedSize == $0.uncompressedSize } == [true, false, false, true])
    }
}
