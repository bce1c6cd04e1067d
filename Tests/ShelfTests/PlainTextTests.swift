import Foundation
import IssueArchive
import Testing
@testable import Shelf

@Suite struct PlainTextTests {
    @Test func anIssuesTextComesInReadingOrderWrappedAndClean() throws {
        let archive = ShelfHarness.sampleFeed.appendingPathComponent("tidewater-monthly/issues/tidewater-2026-11.epub")
        let (_, root) = try IssueReader.read(archive: archive)
        defer { try? FileManager.default.removeItem(at: root) }
        let text = try PlainText.render(directory: root, width: 60)
        let first = try #require(text.range(of: "The lamp at Gull Rock burned"))
        let tideTables = try #require(text.range(of: "Reading the Tide Tables", options: .caseInsensitive))
        #expect(first.lowerBound < tideTables.lowerBound)
        #expect(text.contains("[image: "))
        #expect(text.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) })   // the Japanese article
        #expect(text.split(separator: "\n").allSatisfy { DisplayWidthProbe.width($0) <= 60 })
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B })
    }

    @Test func aComicListsItsPages() throws {
        let archive = ShelfHarness.sampleFeed.appendingPathComponent("rocket-badger/issues/rocket-badger-001.cbz")
        let (_, root) = try IssueReader.read(archive: archive)
        defer { try? FileManager.default.removeItem(at: root) }
        let text = try PlainText.render(directory: root)
        #expect(text.components(separatedBy: "[page: ").count - 1 == 4)
    }

    @Test func svgPagesShowTheirPicturesAndText() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("svg-pages-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = [
            "mimetype": "application/epub+zip",
            "META-INF/container.xml": """
                <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>
                <rootfile full-path="p.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
                """,
            "p.opf": """
                <package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/><manifest>
                <item id="a" href="a.svg" media-type="image/svg+xml"/><item id="b" href="b.svg" media-type="image/svg+xml"/>
                </manifest><spine><itemref idref="a"/><itemref idref="b"/></spine></package>
                """,
            "a.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"><image xlink:href=\"crane.jpg\"/></svg>",
            "b.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"><image href=\"crane.jpg\"/></svg>",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let text = try PlainText.render(directory: root)
        #expect(text.components(separatedBy: "[image: ").count - 1 == 2)
        #expect(!text.contains("[page: "))
    }
}

import TextLayout
enum DisplayWidthProbe {
    static func width(_ line: Substring) -> Int { DisplayWidth.of(line) }
}
