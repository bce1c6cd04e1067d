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

    /// Every row as expected (trailing spaces aside), each differing row reported with its number.
    func expectScreen(_ canvas: Canvas, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let rows = canvas.text.components(separatedBy: "\n")
        #expect(rows.count == lines.count, "\(rows.count) rows, expected \(lines.count)", sourceLocation: sourceLocation)
        for (number, (row, line)) in zip(rows, lines).enumerated() where row != line {
            Issue.record("row \(number):\n  got      |\(row)|\n  expected |\(line)|", sourceLocation: sourceLocation)
        }
    }

    @Test func theShelfAt80By24() {
        expectScreen(Self.screen(Fixture.shelf(width: 80, height: 24)), Self.shelf80x24)
    }

    @Test func theShelfAt120By40WithAStatus() {
        var state = Fixture.shelf(width: 120, height: 40)
        _ = ShelfApp.update(&state, .refreshed(added: 2, failures: []))
        expectScreen(Self.screen(state), Self.shelf120x40)
    }

    /// Seven publications: two rows of smaller covers, all on screen, rather than one row
    /// of three above empty rows.
    @Test func theShelfAt120By40UsesItsHeight() {
        expectScreen(Self.screen(Fixture.shelf(of: Fixture.publications(7), width: 120, height: 40)), Self.shelf120x40Seven)
    }

    @Test func aStoreWithItsTiles() {
        expectScreen(Self.screen(Fixture.store(width: 120, height: 40)), Self.store120x40)
    }

    static let shelf80x24: [String] = [
        " NEWSSTAND                                                                1 new",
        "",
        "          111111111111111      222222222222222",
        "          111111111111111▌     222222222222222▌      Rocket Badger",
        "          111111111111111▌     222222222222222▌",
        "          111111111111111▌     222222222222222▌",
        "          111111111111111▌     222222222222222▌",
        "        ▶ 111111111111111▌     222222222222222▌",
        "          111111111111111▌     222222222222222▌",
        "          111111111111111▌     222222222222222▌",
        "          111111111111111▌     222222222222222▌",
        "          111111111111111▌     222222222222222▌",
        "          111111111111111▌     222222222222222▌",
        "▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀",
        "▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀",
        "             Tidewater       The Ferrybridge Co…     Rocket Badger",
        "             4 issues               1 new              0 issues",
        "",
        "",
        "",
        "",
        "",
        "",
        // Too narrow for every hint: "n next new" goes, help and quit stay whole.
        " ←↓↑→ move  Enter open  d download  / filter  r refresh  ? help  q quit",
    ]

    static let shelf120x40: [String] = [
        " NEWSSTAND                                                                                                        1 new",
        "",
        "               1111111111111111111111111      2222222222222222222222222",
        "               1111111111111111111111111▌     2222222222222222222222222▌      Rocket Badger",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "             ▶ 1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "               1111111111111111111111111▌     2222222222222222222222222▌",
        "▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀",
        "▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀",
        "                       Tidewater               The Ferrybridge Courier             Rocket Badger",
        "                       4 issues                         1 new                        0 issues",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        " 2 new issues.",
        " ←↓↑→ move  Enter open  d download  / filter  n next new  r refresh  ? help  q quit",
    ]

    static let shelf120x40Seven: [String] = [
        " NEWSSTAND                                                                                               7 publications",
        "",
        "              111111111111111111      222222222222222222      333333333333333333      444444444444444444",
        "              111111111111111111▌     222222222222222222▌     333333333333333333▌     444444444444444444▌",
        "              111111111111111111▌     222222222222222222▌     333333333333333333▌     444444444444444444▌",
        "              111111111111111111▌     222222222222222222▌     333333333333333333▌     444444444444444444▌",
        "              111111111111111111▌     222222222222222222▌     333333333333333333▌     444444444444444444▌",
        "              111111111111111111▌     222222222222222222▌     333333333333333333▌     444444444444444444▌",
        "            ▶ 111111111111111111▌     222222222222222222▌     333333333333333333▌     444444444444444444▌",
        "              111111111111111111▌     222222222222222222▌     333333333333333333▌     444444444444444444▌",
        "              111111111111111111▌     222222222222222222▌     333333333333333333▌     444444444444444444▌",
        "              111111111111111111▌     222222222222222222▌     333333333333333333▌     444444444444444444▌",
        "              111111111111111111▌     222222222222222222▌     333333333333333333▌     444444444444444444▌",
        "              111111111111111111▌     222222222222222222▌     333333333333333333▌     444444444444444444▌",
        "              111111111111111111▌     222222222222222222▌     333333333333333333▌     444444444444444444▌",
        "▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀",
        "▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀",
        "                Publication 1           Publication 2           Publication 3           Publication 4",
        "                   1 issue                 2 issues                3 issues                4 issues",
        "              555555555555555555      666666666666666666      777777777777777777",
        "              555555555555555555▌     666666666666666666▌     777777777777777777▌",
        "              555555555555555555▌     666666666666666666▌     777777777777777777▌",
        "              555555555555555555▌     666666666666666666▌     777777777777777777▌",
        "              555555555555555555▌     666666666666666666▌     777777777777777777▌",
        "              555555555555555555▌     666666666666666666▌     777777777777777777▌",
        "              555555555555555555▌     666666666666666666▌     777777777777777777▌",
        "              555555555555555555▌     666666666666666666▌     777777777777777777▌",
        "              555555555555555555▌     666666666666666666▌     777777777777777777▌",
        "              555555555555555555▌     666666666666666666▌     777777777777777777▌",
        "              555555555555555555▌     666666666666666666▌     777777777777777777▌",
        "              555555555555555555▌     666666666666666666▌     777777777777777777▌",
        "              555555555555555555▌     666666666666666666▌     777777777777777777▌",
        "▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀",
        "▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀",
        "                Publication 5           Publication 6           Publication 7",
        "                   5 issues                6 issues                7 issues",
        "",
        "",
        "",
        " ←↓↑→ move  Enter open  d download  / filter  n next new  r refresh  ? help  q quit",
    ]

    static let store120x40: [String] = [
        " Tidewater                                                                                                     4 issues",
        "▐",
        "▐                 No. 31 · November 2026",
        "▐   No. 31 ·      20 Nov 2026",
        "▐   November",
        "▐   2026",
        "▐                 TAP TO DOWNLOAD",
        "▐",
        "▐",
        "",
        "",
        "                  No. 30 · October 2026",
        "    No. 30 ·      21 Oct 2026",
        "    October",
        "    2026",
        "                   NEW  TAP TO READ",
        "                  ━━━━━━━━━━━━━━━━━━━━ read 40%",
        "",
        "",
        "",
        "                  No. 29 · September 2026",
        "    No. 29 ·      20 Sep 2026  · PINNED",
        "    September",
        "    2026",
        "                  TAP TO READ",
        "",
        "",
        "",
        "",
        "                  No. 28 · August 2026",
        "    No. 28 ·      21 Aug 2026",
        "    August",
        "    2026",
        "                  FAILED: the server said 404",
        "                  TAP TO TRY AGAIN",
        "",
        "",
        "",
        "",
        // What Enter does to the selected issue, in plain words.
        " ↑↓ move  Enter download  d download  x remove  p pin  / filter  n next new  ? help  q back",
    ]
}
