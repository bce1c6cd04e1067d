import Foundation
import Testing
import Terminal
import TextLayout
@testable import NewsstandKit
@testable import Shelf

/// Titles from feeds: wide, emoji and combining text is cut by display width with an
/// ellipsis, never through a character; every size from too small to 300×100 draws a
/// well-formed canvas.
@Suite(.serialized) struct ShelfTextTests {
    static let wide = "東京湾の灯台守と海の物語を語る月刊誌・特別増刊号"
    static let emoji = "👩‍👩‍👧‍👦 Family 🇯🇵 Weekly ❤️ with a long name"
    static let combining = "Cafe\u{301} Ame\u{301}lie Zu\u{308}rich Ñandu\u{301} Gazette of Everything"

    func harness(width: Int = 120, height: Int = 40) throws -> ShelfHarness {
        let h = try ShelfHarness(width: width, height: height, samples: false)
        for (index, title) in [Self.wide, Self.emoji, Self.combining].enumerated() {
            let publication = try h.library.store.save(Publication(feedURL: "file:///title-\(index).xml", title: title))
            for number in 1...3 {
                _ = try h.library.store.addIssue(name: "t\(index)-\(number)", date: Date(timeIntervalSince1970: Double(number) * 86_400),
                                           publicationID: publication.id, title: "\(title) — No. \(number) \(title)")
            }
        }
        h.app.reload()
        return h
    }

    /// Every wide glyph is followed by its continuation, no row is wider than the
    /// canvas, and no cell holds a control character.
    func expectWellFormed(_ canvas: Canvas, sourceLocation: SourceLocation = #_sourceLocation) {
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let cell = canvas[x, y]
                if cell.isContinuation {
                    #expect(x > 0 && DisplayWidth.of(canvas[x - 1, y].glyph) == 2, "stray continuation at \(x),\(y)", sourceLocation: sourceLocation)
                } else if DisplayWidth.of(cell.glyph) == 2 {
                    #expect(x + 1 < canvas.width && canvas[x + 1, y].isContinuation, "wide glyph without its second cell at \(x),\(y)", sourceLocation: sourceLocation)
                }
                #expect(!cell.glyph.unicodeScalars.contains { $0.properties.generalCategory == .control }, sourceLocation: sourceLocation)
            }
            #expect(DisplayWidth.of(canvas.text(row: y)) <= canvas.width, sourceLocation: sourceLocation)
        }
    }

    /// The text that starts with `prefix` on the lowest row showing it (titles stand below
    /// the placeholder covers that repeat them), up to a gap of two spaces.
    func shown(_ prefix: String, in canvas: Canvas) -> String? {
        for y in (0..<canvas.height).reversed() {
            let row = canvas.text(row: y)
            guard let range = row.range(of: prefix) else { continue }
            let rest = row[range.lowerBound...]
            return String(rest[..<(rest.range(of: "  ")?.lowerBound ?? rest.endIndex)])
        }
        return nil
    }

    @Test func shelfTitlesAreCutByDisplayWidthWithAnEllipsis() throws {
        let h = try harness()
        let screen = h.app.render()
        expectWellFormed(screen)
        let room = h.app.shelfLayout().slotWidth - 2
        let wide = try #require(shown("東京湾", in: screen))
        #expect(wide.hasSuffix("…"), "\(wide)")
        #expect(DisplayWidth.of(wide) <= room && DisplayWidth.of(wide) >= room - 1)
        let emoji = try #require(shown("👩‍👩‍👧‍👦", in: screen))    // the family stays one glyph
        #expect(emoji.hasSuffix("…") && DisplayWidth.of(emoji) <= room, "\(emoji)")
        let combining = try #require(shown("Caf", in: screen))    // the mark stays on its e
        #expect(combining.hasPrefix("Cafe\u{301} Ame\u{301}lie"), "\(combining)")
        #expect(combining.hasSuffix("…") && DisplayWidth.of(combining) <= room)
    }

    @Test func storeTitlesAndTheTitleBarAreCutWithAnEllipsis() throws {
        let h = try harness(width: 50, height: 30)
        var screen = h.key(.enter)               // the wide-titled publication's store
        expectWellFormed(screen)
        let top = screen.text(row: 0)
        #expect(top.contains("…") && top.contains("3 issues"), "\(top)")
        let tile = try #require(shown("東京湾の灯台", in: Canvas(copying: screen, fromRow: 1)))
        #expect(tile.hasSuffix("…"), "\(tile)")
        _ = h.key(.character("q"))
        _ = h.key(.right)
        screen = h.key(.enter)
        expectWellFormed(screen)
        #expect(shown("👩‍👩‍👧‍👦 Family 🇯🇵 Weekly", in: Canvas(copying: screen, fromRow: 1))?.hasSuffix("…") == true, "\(screen.text)")
    }

    @Test func everySizeFromTooSmallToHugeDrawsAWellFormedScreen() throws {
        let h = try harness()
        for (width, height) in [(20, 8), (39, 12), (40, 12), (41, 13), (80, 24), (300, 100), (1, 1)] {
            for screen in [ShelfApp.Screen.shelf, .store, .help] {
                while h.app.state.screen != .shelf { h.app.state.pop() }
                if screen == .help { h.app.state.push(.help(HelpScreen(opener: .shelf))) }
                if screen == .store, let id = h.app.state.summaries.first?.publication.id {
                    h.app.state.push(.store(StoreScreen(publicationID: id)))
                    h.app.reload()
                }
                let canvas = h.send(.resize(width: width, height: height))
                #expect(canvas.width == width && canvas.height == height)
                expectWellFormed(canvas)
                let tooSmall = width < ShelfApp.minimumSize.width || height < ShelfApp.minimumSize.height
                #expect(canvas.text.contains("Too small") == (tooSmall && height > 1), "\(width)×\(height)")
            }
        }
    }
}

extension Canvas {
    /// The rows from `fromRow` down, as a canvas of their own (to skip a title bar).
    init(copying canvas: Canvas, fromRow: Int) {
        self.init(width: canvas.width, height: canvas.height - fromRow, fill: Cell(glyph: " ", style: Style()))
        for y in fromRow..<canvas.height { for x in 0..<canvas.width { self[x, y - fromRow] = canvas[x, y] } }
    }
}

@Suite struct DayFormatTests {
    /// Checked against DateFormatter ("d MMM yyyy", UTC) over four centuries of days.
    @Test func daysMatchDateFormatter() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMM yyyy"
        var seconds = -4_000_000_000.0   // 1843
        while seconds < 9_000_000_000 {  // 2255
            let date = Date(timeIntervalSince1970: seconds)
            #expect(Format.day(date) == formatter.string(from: date))
            seconds += 86_400 * 37 + 3_671
        }
        #expect(Format.day(Date(timeIntervalSince1970: 0)) == "1 Jan 1970")
        #expect(Format.day(Date(timeIntervalSince1970: 951_782_400)) == "29 Feb 2000")
        #expect(Format.day(Date(timeIntervalSince1970: -1)) == "31 Dec 1969")
    }
}
