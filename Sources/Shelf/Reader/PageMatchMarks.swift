import Foundation
import Imaging
import NewsstandKit
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

/// Where the page shown holds its highlights' words: each highlight's quote found on the
/// page as a box per line (`ReaderLoad.highlightBoxes`), asked for once per page and quotes.
struct PageHighlightMarks: Equatable {
    struct Key: Equatable {
        var page: Int
        var quotes: [TextQuoteSelector]
    }

    var key: Key
    /// One per quote of the key: none for a quote not found on the page.
    var boxes: [[PageBox]]
}

/// One thing marked over a page, whatever put it there: its boxes and how it is seen.
struct PageMark: Equatable {
    enum Look: Equatable {
        case match, currentMatch
        case highlight(Highlight.Color)
    }

    var boxes: [PageBox]
    var look: Look

    /// The ink the look is seen through; nil for an underline.
    func tint(in theme: Theme) -> Color? {
        switch look {
        case .match: return theme.readerMatch.background
        case .currentMatch: return PageMarks.currentTint
        case .highlight(let color): return color.tint.map { .rgb($0.0, $0.1, $0.2) }
        }
    }

    /// The look in pixels, drawn into the page's picture.
    var paints: [PageMarkPaint] {
        let ink: (UInt8, UInt8, UInt8)
        var underline = false
        switch look {
        case .match: ink = CoverDress.marker
        case .currentMatch: ink = CoverDress.currentMarker
        case .highlight(let color):
            if let tint = color.tint { ink = tint } else { (ink, underline) = (Self.underlineInk, true) }
        }
        return boxes.compactMap { box in
            PageRegion(x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1).map { PageMarkPaint(region: $0, rgb: ink, underline: underline) }
        }
    }

    /// An underline highlight's line in pixels: near-black, seen on paper.
    static let underlineInk: (UInt8, UInt8, UInt8) = (0x20, 0x20, 0x20)
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

    var matchHere: Int? { query == nil ? nil : currentMark }

    mutating func goOn(fromMatch number: Int) {
        currentMark = number
        revealsMark = true
    }

    /// Asks for the page's marks once per page and query, and where its highlights are once
    /// per page and quotes.
    mutating func askForMarks() {
        guard isDocument, pages.indices.contains(index) else { return }
        let quotes = highlightsHere.map(\.quote)
        let highlightKey = PageHighlightMarks.Key(page: index, quotes: quotes)
        if !quotes.isEmpty, highlightMarks?.key != highlightKey, highlightMarksAsked != highlightKey {
            highlightMarksAsked = highlightKey
            requests.append(.highlightBoxes(page: index, quotes: quotes))
        }
        guard let query else { return }
        let key = PageMarks.Key(page: index, query: query)
        guard marks?.key != key, marksAsked != key else { return }
        marksAsked = key
        requests.append(.matchBoxes(query: query, page: index))
    }

    /// The marks of `page` for `query`, kept when they are still the page's and the query's.
    /// A match chosen before they came (in the other view, `v`) stays chosen.
    mutating func take(_ matches: [[PageBox]], of query: String, on page: Int) {
        let key = PageMarks.Key(page: page, query: query)
        if marksAsked == key { marksAsked = nil }
        guard query == self.query, page == index else { return }
        if let old = marks, old.key != key { currentMark = nil }
        marks = PageMarks(key: key, matches: matches)
        if let current = currentMark, current >= matches.count { currentMark = nil }
    }

    /// Where the page's highlights are, kept while they are the page's.
    mutating func take(highlightBoxes boxes: [[PageBox]], of quotes: [TextQuoteSelector], on page: Int) {
        let key = PageHighlightMarks.Key(page: page, quotes: quotes)
        if highlightMarksAsked == key { highlightMarksAsked = nil }
        guard page == index else { return }
        highlightMarks = PageHighlightMarks(key: key, boxes: boxes)
    }

    /// The highlights on the page shown.
    var highlightsHere: [Highlight] {
        guard pages.indices.contains(index) else { return [] }
        let resource = pages[index].resource
        return highlights.filter { $0.resource == resource }
    }

    /// Everything marked over the page shown, in the order drawn: its highlights in their
    /// colours, the search's matches, the current match last (its colour wins where they meet).
    var shownMarks: [PageMark] {
        var shown: [PageMark] = []
        if let found = highlightMarks, pages.indices.contains(index), found.key.page == index {
            for highlight in highlightsHere {
                guard let at = found.key.quotes.firstIndex(of: highlight.quote), found.boxes.indices.contains(at),
                      !found.boxes[at].isEmpty else { continue }
                shown.append(PageMark(boxes: found.boxes[at], look: .highlight(highlight.color)))
            }
        }
        if let marks = marksShown {
            for (number, match) in marks.matches.enumerated() where number != currentMark { shown.append(PageMark(boxes: match, look: .match)) }
            if let current = currentMark, marks.matches.indices.contains(current) {
                shown.append(PageMark(boxes: marks.matches[current], look: .currentMatch))
            }
        }
        return shown
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
    /// the cells under them); nil in half blocks, or when the page shown has none.
    func markDress(of source: ImageSource, in size: CellSize, marks shown: [PageMark]) -> CoverDress? {
        guard !shown.isEmpty, case .painted? = pictures.ready[PictureRequest(source: source, size: size)] else { return nil }
        return CoverDress(marks: shown.flatMap(\.paints))
    }

    /// Marks (`shownMarks`, made once a frame) the page drawn from `request`, `picture` cells large and shown from `from` (its
    /// cell at the window's top left when larger): in half blocks the cells over each mark
    /// seen through its colour (an underline highlight's underlined); in every kind of
    /// picture (pixels hide the cells under them) a ▶ in the margin left of each row that
    /// holds a match, in the colour of the match it marks.
    func drawMarks(_ shown: [PageMark], over request: PictureRequest, taking picture: CellSize, from: (x: Int, y: Int),
                   into canvas: inout Canvas) {
        guard !shown.isEmpty else { return }
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
        for mark in shown {
            let tint = mark.tint(in: theme)
            for box in mark.boxes {
                let cells = PageMarks.cells(of: box, in: picture)
                for row in cells.rows {
                    let y = top + row
                    guard y >= visible.y, y < visible.y + visible.height else { continue }
                    switch mark.look {
                    case .currentMatch: markedRows[y] = currentStyle
                    case .match: if markedRows[y] == nil { markedRows[y] = theme.readerMatch }
                    case .highlight: break
                    }
                    guard inHalfBlocks else { continue }
                    for column in cells.columns {
                        let x = left + column
                        guard x >= visible.x, x < visible.x + visible.width else { continue }
                        var cell = canvas[x, y]
                        if let tint {
                            cell.style.foreground = PageMarks.marked(cell.style.foreground, by: tint)
                            cell.style.background = PageMarks.marked(cell.style.background, by: tint)
                        } else {
                            cell.style.attributes.formUnion(.underline)
                        }
                        canvas[x, y] = cell
                    }
                }
            }
        }
        let margin = max(0, visible.x - 1)
        for (y, style) in markedRows where margin < visible.x {
            canvas[margin, y] = Cell(glyph: "▶", style: style)
        }
    }
}
