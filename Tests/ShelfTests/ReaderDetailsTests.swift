import Foundation
import Imaging
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// What a new user tripped over in the reader (issue 21): pages that never drew, three `q`
/// to leave `newsstand read`, a figure before reading, a width the window does not show,
/// pictures that left gaps, and footnotes that could not be followed.
enum DetailsFixture {
    static func png(_ colour: (UInt8, UInt8, UInt8), width: Int = 200, height: Int = 300) throws -> Data {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<(width * height) { pixels += [colour.0, colour.1, colour.2, 255] }
        return Data(try ImageEncoder.png(RGBAImage(width: width, height: height, pixels: pixels)))
    }

    /// A comic whose second, third and fourth pages cannot be decoded: a JPEG cut short, a
    /// 0-byte PNG, and bytes that are no picture at all; the fifth is fine again.
    static func brokenComic() throws -> [String: Data] {
        var pixels: [UInt8] = []
        for y in 0..<300 { for x in 0..<200 { pixels += [UInt8(x % 256), UInt8(y % 256), 90, 255] } }
        let jpeg = try ImageEncoder.jpeg(RGBAImage(width: 200, height: 300, pixels: pixels))
        return [
            "page01.png": try png(ReaderFixture.red),
            "page02.jpg": Data(jpeg.prefix(jpeg.count / 3)),
            "page03.png": Data(),
            "page04.png": Data((0..<4000).map { UInt8(($0 * 7919) % 251) }),
            "page05.png": try png(ReaderFixture.green),
        ]
    }

    /// The magazine with a first article holding a footnote reference far from its note, a
    /// link into the second article's "Night Watch", a picture by a container-absolute path,
    /// and a missing picture with a long description.
    static func annotatedMagazine() throws -> [String: Data] {
        var body = "<h1>Harbour News</h1>"
        body += "<p>The pier was rebuilt<a epub:type=\"noteref\" href=\"#fn1\"><sup>1</sup></a> last spring, "
            + "see also <a href=\"ch2.xhtml#night\">the night watch</a>.</p>"
        for number in 0..<60 { body += "<p>\(ReaderFixture.paragraph("a", number))</p>" }
        body += "<aside epub:type=\"footnote\" id=\"fn1\"><p>Footnote: the pier footnoteword was 90 metres long.</p></aside>"
        var files = ReaderFixture.magazine()
        files["OEBPS/ch1.xhtml"] = ReaderFixture.chapter(title: "Harbour News", body: body)
        let alt = (0..<30).map { "altword\($0)" }.joined(separator: " ")
        files["OEBPS/ch3.xhtml"] = ReaderFixture.chapter(title: "Weather at Sea", body: """
            <h1>Weather at Sea</h1><p><img src="/OEBPS/media/imgs/chart.png" alt="Green chart"/></p>
            <p><img src="/OEBPS/media/imgs/gone.jpg" alt="\(alt)"/></p><p>afterthepicture comes next.</p>
            <p><img src="broken.png" alt="Broken chart"/></p><p>afterthebroken comes next.</p>
            """)
        files["OEBPS/media/imgs/chart.png"] = try png(ReaderFixture.green, width: 120, height: 60)
        return files
    }
}

extension ShelfHarness {
    /// A harness reading a fixture issue opened from its store (Enter on the shelf, Enter on
    /// the tile), not by `newsstand read`.
    static func readingFromTheStore(_ files: [String: Data], name: String, width: Int, height: Int) throws -> ShelfHarness {
        let h = try ShelfHarness(width: width, height: height, samples: false)
        _ = try ReaderFixture.install(files, in: h, name: name)
        h.app.reload()
        _ = h.settle()
        _ = h.key(.enter)
        _ = h.key(.enter)
        return h
    }

    /// The status line's "read N%", if shown.
    func readFigure(_ screen: Canvas) -> Int? {
        let status = screen.row(screen.height - 2)
        guard let match = status.range(of: #"read (\d+)%"#, options: .regularExpression) else { return nil }
        return Int(status[match].dropFirst(5).dropLast())
    }
}

@Suite(.serialized) struct ReaderBrokenPageTests {
    @Test func aPageThatCannotBeDecodedSaysWhyAndTheReaderMovesOn() throws {
        let h = try ShelfHarness.reading(try DetailsFixture.brokenComic(), name: "broken-1", width: 100, height: 30)
        var screen = h.waitFor { !$0.cells(near: ReaderFixture.red).isEmpty }
        #expect(screen.text.contains("page 1 of 5"))
        for (page, kind) in [(2, "a JPEG cut short"), (3, "a 0-byte PNG"), (4, "garbage bytes")] {
            _ = h.key(.character(" "))
            // Ready or failed, never pending for good: what can be shown, or one line why not.
            screen = h.waitFor { !$0.text.contains("Drawing the page…") }
            #expect(screen.text.contains("page \(page) of 5"), "\(kind)")
            #expect(!screen.text.contains("Drawing the page…"), "\(kind) never draws:\n\(screen.text)")
            let drawn = screen.cells(near: ReaderFixture.red).isEmpty == false || screen.text.contains("This page cannot be shown: ")
            #expect(drawn, "\(kind):\n\(screen.text)")
            if page > 2 {
                let line = try #require(screen.text.split(separator: "\n").first { $0.contains("This page cannot be shown: ") })
                #expect(line.trimmingCharacters(in: .whitespaces).count > "This page cannot be shown: ".count + 3, "the decoder's reason")
            }
        }
        screen = h.key(.character(" "))
        screen = h.waitFor { !$0.cells(near: ReaderFixture.green).isEmpty }
        #expect(screen.text.contains("page 5 of 5") && !screen.text.contains("cannot be shown"))
        for _ in 0..<4 { _ = h.key(.backspace) }
        screen = h.waitFor { !$0.cells(near: ReaderFixture.red).isEmpty }
        #expect(screen.text.contains("page 1 of 5"))
        #expect(h.app.state.screen == .reader)
    }
}

@Suite(.serialized) struct ReaderLeavingTests {
    @Test func qLeavesTheProgramWhenTheReaderWasOpenedByRead() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "leave-1", width: 100, height: 30)
        _ = h.key(.right)
        _ = h.key(.character("q"))
        #expect(h.app.state.quit, "one q is enough after `newsstand read`")
        let stored = try #require(try h.library.store.issue(named: "leave-1")?.locator)
        #expect(stored.resource == "OEBPS/ch2.xhtml", "the place is still saved")
    }

    @Test func qGoesBackToTheStoreWhenTheReaderWasOpenedFromIt() throws {
        let h = try ShelfHarness.readingFromTheStore(ReaderFixture.magazine(), name: "leave-2", width: 100, height: 30)
        #expect(h.app.state.screen == .reader)
        _ = h.key(.character("q"))
        #expect(h.app.state.screen == .store && !h.app.state.quit)
    }
}

@Suite(.serialized) struct ReaderFirstScreenTests {
    @Test func anIssueOpenedAtItsStartShowsNothingReadUntilTheReaderMoves() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "first-1", width: 100, height: 30)
        var screen = h.settle()
        #expect((h.readFigure(screen) ?? 0) == 0, "\(screen.row(screen.height - 2))")
        screen = h.key(.pageDown)
        #expect((h.readFigure(screen) ?? 0) > 0)

        let comic = try ShelfHarness.reading(try ReaderFixture.comic(manga: false), name: "first-2", width: 100, height: 30)
        screen = comic.settle()
        #expect((comic.readFigure(screen) ?? 0) == 0, "\(screen.row(screen.height - 2))")
        screen = comic.key(.character(" "))
        #expect((comic.readFigure(screen) ?? 0) > 0)
    }
}

@Suite(.serialized) struct ReaderWidthNoteTests {
    @Test func theWidthSaidIsTheWidthInUseAndTheWindowIsNamedAsTheLimit() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "width-1", width: 120, height: 30)
        var screen = h.settle()
        for _ in 0..<3 { screen = h.key(.character("+")) }
        // 80 → 90 → 100 → 110: all fit a 116-column window.
        #expect(screen.text.contains("Text width 110 columns"), "\(screen.row(screen.height - 2))")
        screen = h.key(.character("+"))
        #expect(screen.text.contains("Text width 116 columns"), "\(screen.row(screen.height - 2))")
        #expect(screen.text.contains("window"))
        for _ in 0..<10 { screen = h.key(.character("+")) }
        let status = screen.row(screen.height - 2)
        #expect(status.contains("Text width 116 columns") && status.contains("window") && !status.contains("200"), "\(status)")
        // One step back narrows what is shown at once.
        screen = h.key(.character("-"))
        #expect(screen.row(screen.height - 2).contains("Text width 106 columns"), "\(screen.row(screen.height - 2))")
    }
}

@Suite(.serialized) struct ReaderPictureGapTests {
    @Test func aContainerAbsolutePathIsFoundAndAPictureThatCannotBeDrawnLeavesItsWholeDescription() throws {
        let h = try ShelfHarness.reading(try DetailsFixture.annotatedMagazine(), name: "pictures-1", width: 100, height: 60)
        _ = h.key(.right)
        _ = h.key(.right)
        var screen = h.waitFor { !$0.cells(near: ReaderFixture.green).isEmpty }
        #expect(screen.text.contains("article 3 of 4"))
        #expect(!screen.cells(near: ReaderFixture.green).isEmpty, "/OEBPS/media/imgs/chart.png is drawn:\n\(screen.text)")
        screen = h.waitFor { $0.text.contains("afterthebroken") && $0.text.contains("[image: Broken chart]") }
        let rows = screen.text.components(separatedBy: "\n")
        for word in 0..<30 { #expect(screen.text.contains("altword\(word)"), "altword\(word) is shown:\n\(screen.text)") }
        let lastAlt = try #require(rows.lastIndex { $0.contains("altword29") })
        let after = try #require(rows.firstIndex { $0.contains("afterthepicture") })
        #expect(after - lastAlt <= 2, "no gap after a missing picture:\n\(screen.text)")
        let broken = try #require(rows.firstIndex { $0.contains("[image: Broken chart]") })
        let afterBroken = try #require(rows.firstIndex { $0.contains("afterthebroken") })
        #expect(afterBroken - broken <= 2, "no gap after a picture that cannot be decoded:\n\(screen.text)")
    }
}

@Suite(.serialized) struct ReaderPictureHeightTests {
    @Test func aDrawnPictureTakesTheRowsItNeedsAndTheTextFollowsIt() throws {
        var files = ReaderFixture.magazine()
        files["OEBPS/ch1.xhtml"] = ReaderFixture.chapter(title: "Banner", body: """
            <h1>Harbour News</h1><p><img src="banner.png" alt="A wide banner"/></p><p>afterbanner comes next.</p>
            """)
        files["OEBPS/banner.png"] = try DetailsFixture.png(ReaderFixture.green, width: 200, height: 40)
        let h = try ShelfHarness.reading(files, name: "banner-1", width: 100, height: 60)
        // The frame once the picture is drawn and the text laid out under it (a frame drawn
        // while the picture was on its way kept rows for it at a guessed height).
        func gap(_ screen: Canvas) -> Int? {
            guard let lastPictureRow = screen.cells(near: ReaderFixture.green).map(\.y).max(),
                  let after = screen.text.components(separatedBy: "\n").firstIndex(where: { $0.contains("afterbanner") }) else { return nil }
            return after - lastPictureRow
        }
        let screen = h.waitFor { (gap($0) ?? .max) <= 2 }
        let lastPictureRow = try #require(screen.cells(near: ReaderFixture.green).map(\.y).max())
        let rows = screen.text.components(separatedBy: "\n")
        let after = try #require(rows.firstIndex { $0.contains("afterbanner") })
        #expect(after - lastPictureRow <= 2, "no empty rows under a wide picture:\n\(screen.text)")
        #expect(Set(screen.cells(near: ReaderFixture.green).map(\.x)).count >= 70, "drawn as wide as the column:\n\(screen.text)")
    }
}

@Suite(.serialized) struct ReaderLinkTests {
    @Test func tabChoosesALinkEnterFollowsItAndBackspaceComesBack() throws {
        let h = try ShelfHarness.reading(try DetailsFixture.annotatedMagazine(), name: "links-1", width: 100, height: 30)
        var screen = h.settle()
        #expect(!screen.text.contains("footnoteword"))
        #expect(screen.row(screen.height - 2).contains("Tab chooses one of 2 links on screen"), "links are discoverable")
        screen = h.key(.tab)
        #expect(screen.text.contains("Enter follow"), "the hint bar says what Enter does:\n\(screen.text)")
        screen = h.key(.enter)
        #expect(screen.text.contains("footnoteword"), "the footnote is on screen:\n\(screen.text)")
        #expect(screen.text.contains("Backspace"), "the way back is said")
        screen = h.key(.backspace)
        #expect(h.app.state.screen == .reader)
        #expect(screen.text.contains("The pier was rebuilt") && !screen.text.contains("footnoteword"), "\(screen.text)")

        // The second link leads into another article, and back.
        _ = h.key(.tab)
        screen = h.key(.tab)
        screen = h.key(.enter)
        #expect(screen.text.contains("article 2 of 4") && screen.row(2).contains("Night Watch"), "\(screen.text)")
        screen = h.key(.backspace)
        #expect(screen.text.contains("article 1 of 4") && screen.text.contains("The pier was rebuilt"))
        // With nowhere left to go back to, Backspace leaves as before.
        _ = h.key(.backspace)
        #expect(h.app.state.quit || h.app.state.screen != .reader)
    }

    @Test func theHelpNamesTheLinkKeys() {
        let help = ReaderScreen.helpLines.map { $0.0 + " " + $0.1 }.joined(separator: "\n")
        #expect(help.contains("Tab") && help.contains("follow") && help.contains("Bksp"), "\(help)")
    }
}
