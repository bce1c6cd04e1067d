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
}

import TextLayout
enum DisplayWidthProbe {
    static func width(_ line: Substring) -> Int { DisplayWidth.of(line) }
}
