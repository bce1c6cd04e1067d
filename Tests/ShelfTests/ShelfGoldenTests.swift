import Foundation
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// Whole screens compared as text (ratatui's `Buffer::with_lines`), from a fixed state and
/// covers of known cells (a publication's id on every cell of its cover): what a person
/// sees, nothing left to timing or to a library.
@Suite struct ShelfGoldenTests {
    typealias Fixture = ShelfStateFixture

    static func screen(_ state: ShelfApp.State) -> Canvas {
        ShelfApp.view(state, ShelfApp.ViewContext(theme: .classic, covers: KnownCovers()))
    }

    @Test func theShelfAt120By40WithAStatus() {
        var state = Fixture.shelf(width: 120, height: 40)
        _ = ShelfApp.update(&state, .refreshed(added: 2, failures: []))
        expectGolden(Self.screen(state), "shelf-status-120x40")
    }

    /// Seven publications: two rows of smaller covers, all on screen, rather than one row
    /// of three above empty rows.
    @Test func theShelfAt120By40UsesItsHeight() {
        expectGolden(Self.screen(Fixture.shelf(of: Fixture.publications(7), width: 120, height: 40)), "shelf-seven-120x40")
    }

    /// Seven publications at 80×24: one row of covers shows, and a mark says how many more
    /// lie below; at the last row, how many lie above.
    @Test func theShelfAt80By24SaysMoreLieBelowAndAbove() {
        var state = Fixture.shelf(of: Fixture.publications(7), width: 80, height: 24)
        expectGolden(Self.screen(state), "shelf-seven-80x24")
        _ = ShelfApp.update(&state, .key(.character("G")))
        let lines = Self.screen(state).text.components(separatedBy: "\n")
        #expect(lines[1].hasSuffix("▲ 6 more above"), "\(lines[1])")
        #expect(!lines.joined().contains("more below"))
    }

    /// The store at 80×24 shows two of Tidewater's four issues: two more below, then one above.
    @Test func theStoreSaysMoreLieBelowAndAbove() {
        var state = Fixture.store(width: 80, height: 24)
        var lines = Self.screen(state).text.components(separatedBy: "\n")
        #expect(lines[21].hasSuffix("▼ 2 more below"), "\(lines[21])")
        #expect(!lines[1].contains("above"))
        for _ in 0..<2 { _ = ShelfApp.update(&state, .key(.down)) }
        lines = Self.screen(state).text.components(separatedBy: "\n")
        #expect(lines[1].hasSuffix("▲ 1 more above"), "\(lines[1])")
        #expect(lines[21].hasSuffix("▼ 1 more below"), "\(lines[21])")
    }
}
