import Foundation
import Imaging
import Pictures
import Terminal
import TextLayout

/// Where the page shown holds the query: each match in text order as its characters'
/// boxes, a box per line, in fractions of the page (`ReaderLoad.matchBoxes`, read from the
/// page's text layer).
struct PageMarks: Equatable {
    struct Key: Equatable {
        var page: Int
        var query: String
    }

    var key: Key
    var matches: [[PageBox]]

    /// The colour the current match is seen through, in half blocks as in pixels.
    static let currentTint: Color = .rgb(CoverDress.currentMarker.0, CoverDress.currentMarker.1, CoverDress.currentMarker.2)

    /// A box's cells on a page drawn `picture` cells large: at least one cell, inside the picture.
    static func cells(of box: PageBox, in picture: CellSize) -> (columns: Range<Int>, rows: Range<Int>) {
        func span(_ from: Double, _ to: Double, _ length: Int) -> Range<Int> {
            let first = max(0, min(length - 1, Int((from * Double(length)).rounded(.down))))
            let end = max(first + 1, min(length, Int((to * Double(length)).rounded(.up))))
            return first..<end
        }
        return (span(box.x0, box.x1, picture.columns), span(box.y0, box.y1, picture.rows))
    }

    /// A colour seen through the highlighter `tint` (multiplied, as ink under a marker):
    /// white paper takes the tint, dark letters stay dark. A colour not given as RGB (a
    /// palette's) becomes the tint.
    static func marked(_ color: Color, by tint: Color) -> Color {
        guard case .rgb(let r, let g, let b) = color, case .rgb(let tr, let tg, let tb) = tint else { return tint }
        func times(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8(Int(a) * Int(b) / 255) }
        return .rgb(times(r, tr), times(g, tg), times(b, tb))
    }
}

/// The page view's marks: asked for whenever a PDF page is shown while a search is on,
/// taken in when they come, drawn over the page's picture.
extension PagePager {
    /// The page's marks, when they are the page's and the query's.
    var marksShown: PageMarks? {
        guard let query, let marks, marks.key == PageMarks.Key(page: index, query: query) else { return nil }
        return marks
    }

    /// `n` (or `N`) with the page's matches here: the next (previous) one on the page, the
    /// first (last) when none is chosen yet; nil past the last (first), or without marks, for
    /// the search to go on to the next page that holds the query.
    mutating func stepMark(forward: Bool) -> ReaderNote? {
        guard let marks = marksShown, !marks.matches.isEmpty else { return nil }
        let next = currentMark.map { forward ? $0 + 1 : $0 - 1 } ?? (forward ? 0 : marks.matches.count - 1)
        guard marks.matches.indices.contains(next) else { return nil }
        return choose(next, of: marks)
    }

    /// Makes match `match` of the page's the current one, brought into view once drawn.
    mutating func choose(_ match: Int, of marks: PageMarks) -> ReaderNote {
        currentMark = match
        revealsMark = true
        return ReaderNote(text: "“\(marks.key.query)”: match \(match + 1) of \(marks.matches.count) on page \(marks.key.page + 1)")
    }

    /// Asks for the page's marks once per page and query.
    mutating func askForMarks() {
        guard isDocument, let query, pages.indices.contains(index) else { return }
        let key = PageMarks.Key(page: index, query: query)
        guard marks?.key != key, marksAsked != key else { return }
        marksAsked = key
        requests.append(.matchBoxes(query: query, page: index))
    }

    /// The marks of `page` for `query`, kept when they are still the page's and the query's.
    mutating func take(_ matches: [[PageBox]], of query: String, on page: Int) {
        let key = PageMarks.Key(page: page, query: query)
        if marksAsked == key { marksAsked = nil }
        guard query == self.query, page == index else { return }
        if marks?.key != key { currentMark = nil }
        marks = PageMarks(key: key, matches: matches)
        if let current = currentMark, current >= matches.count { currentMark = nil }
    }

    /// Brings the current match (else the first) into view once a search turned to it and
    /// the page's marks and picture (`picture` cells large) are here: a third of the window
    /// down, when the page is larger than the window and the match outside it.
    mutating func revealMark(in picture: CellSize) {
        guard revealsMark, let marks = marksShown else { return }
        revealsMark = false
        let match = currentMark.flatMap { marks.matches.indices.contains($0) ? marks.matches[$0] : nil } ?? marks.matches.first
        guard pansDown, let first = match?.first else { return }
        let view = frame.pageView
        let cells = PageMarks.cells(of: first, in: picture)
        if picture.rows > view.height, cells.rows.lowerBound < pan.y || cells.rows.upperBound > pan.y + view.height {
            pan.y = cells.rows.lowerBound - view.height / 3
        }
        if picture.columns > view.width, cells.columns.lowerBound < pan.x || cells.columns.upperBound > pan.x + view.width {
            pan.x = cells.columns.lowerBound - view.width / 3
        }
    }

    /// The marks as a page drawn in pixels wears them (drawn into its pixels, which hide
    /// the cells under them), the current match in its own colour; nil in half blocks, or
    /// when the page shown has none.
    func markDress(of source: ImageSource, in size: CellSize) -> CoverDress? {
        guard let marks = marksShown, !marks.matches.isEmpty,
              case .painted? = pictures.ready[PictureRequest(source: source, size: size)] else { return nil }
        func regions(_ boxes: [PageBox]) -> [PageRegion] { boxes.compactMap { PageRegion(x0: $0.x0, y0: $0.y0, x1: $0.x1, y1: $0.y1) } }
        var dress = CoverDress()
        for (number, match) in marks.matches.enumerated() {
            if number == currentMark { dress.current += regions(match) } else { dress.marks += regions(match) }
        }
        return dress
    }

    /// Marks the matches on the page drawn from `request`, `picture` cells large and shown
    /// from `from` (its cell at the window's top left when larger): in half blocks the
    /// cells over each match seen through the match colour (the current one's through its
    /// own); in every kind of picture (pixels hide the cells under them) a ▶ in the margin
    /// left of each row that holds one, in the colour of the match it marks.
    func drawMarks(over request: PictureRequest, taking picture: CellSize, from: (x: Int, y: Int), into canvas: inout Canvas) {
        guard let marks = marksShown, !marks.matches.isEmpty else { return }
        let view = frame.pageView
        // Placed as the painter places it: centred along a side where it is smaller than the window.
        let left = view.x + (picture.columns <= view.width ? (view.width - picture.columns) / 2 - from.x : -from.x)
        let top = view.y + (picture.rows <= view.height ? (view.height - picture.rows) / 2 - from.y : -from.y)
        let visible = Rect(x: max(view.x, left), y: max(view.y, top),
                           width: min(view.x + view.width, left + picture.columns) - max(view.x, left),
                           height: min(view.y + view.height, top + picture.rows) - max(view.y, top))
        guard visible.width > 0, visible.height > 0 else { return }
        let inHalfBlocks = if case .cells? = pictures.ready[request] { true } else { false }
        var currentStyle = theme.readerMatch
        currentStyle.background = PageMarks.currentTint
        var markedRows: [Int: Style] = [:]
        // The current match last, so that its colour wins where lines share a row.
        let order = marks.matches.indices.filter { $0 != currentMark } + marks.matches.indices.filter { $0 == currentMark }
        for (number, box) in order.flatMap({ number in marks.matches[number].map { (number, $0) } }) {
            let isCurrent = number == currentMark
            let tint = isCurrent ? currentStyle.background : theme.readerMatch.background
            let cells = PageMarks.cells(of: box, in: picture)
            for row in cells.rows {
                let y = top + row
                guard y >= visible.y, y < visible.y + visible.height else { continue }
                if isCurrent || markedRows[y] == nil { markedRows[y] = isCurrent ? currentStyle : theme.readerMatch }
                guard inHalfBlocks else { continue }
                for column in cells.columns {
                    let x = left + column
                    guard x >= visible.x, x < visible.x + visible.width else { continue }
                    var cell = canvas[x, y]
                    cell.style.foreground = PageMarks.marked(cell.style.foreground, by: tint)
                    cell.style.background = PageMarks.marked(cell.style.background, by: tint)
                    canvas[x, y] = cell
                }
            }
        }
        let margin = max(0, visible.x - 1)
        for (y, style) in markedRows where margin < visible.x {
            canvas[margin, y] = Cell(glyph: "▶", style: style)
        }
    }
}
