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
}
