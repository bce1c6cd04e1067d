import Foundation
import Imaging
import IssueArchive
import Pictures
import Terminal
import TextLayout

/// Drawing reflowed text: the lines `settle` laid out, in a centred column, matches marked.
/// Reads the pager only; pictures come from those prepared after the last frame (`pictures`).
extension TextPager {
    func render(into canvas: inout Canvas) {
        if let note = pageWithoutText {
            canvas.put(note, x: 2, y: 2, style: theme.readerQuote, limit: canvas.width - 2)
            return
        }
        guard let text else { return }
        let column = text.width
        let left = (canvas.width - column) / 2
        for row in 0..<visibleRows {
            let line = top + row
            guard line < text.lines.count else { break }
            draw(text.lines[line], x: left, y: 2 + row, width: column, topOfScreen: row == 0,
                 chosenSpan: chosenLink.flatMap { $0.line == line ? $0.span : nil }, into: &canvas)
        }
        drawHighlights(left: left, into: &canvas)
        drawMatches(in: text, left: left, into: &canvas)
        paint(painted.selection, style: theme.selection, left: left, into: &canvas)
        if let cursor = painted.cursor { paint([cursor], style: theme.selection.with(.underline), left: left, into: &canvas) }
    }

    /// Highlights on screen in their colours, a ✎ in the margin beside the first row of one
    /// with a note (worked out in `settle`: `painted`).
    private func drawHighlights(left: Int, into canvas: inout Canvas) {
        for mark in painted.highlights {
            paint(mark.runs, style: mark.color.style(over: theme.readerText), left: left, into: &canvas)
            if mark.noted, let first = mark.runs.first, first.line >= top, first.line < top + visibleRows, left >= 2 {
                canvas.put("✎", x: left - 2, y: 2 + first.line - top, style: theme.readerQuote)
            }
        }
    }

    /// Recolours runs of cells on screen, keeping the text and adding `style`'s attributes.
    func paint(_ runs: [CellRun], style: Style, left: Int, into canvas: inout Canvas) {
        for run in runs where run.line >= top && run.line < top + visibleRows {
            let y = 2 + run.line - top
            for x in (left + run.column)..<(left + run.column + run.columns) where x >= 0 && x < canvas.width {
                var cell = canvas[x, y]
                cell.style = Style(foreground: style.foreground, background: style.background,
                                   attributes: cell.style.attributes.union(style.attributes))
                canvas[x, y] = cell
            }
        }
    }

    private func draw(_ line: LayoutLine, x: Int, y: Int, width: Int, topOfScreen: Bool, chosenSpan: Int?,
                      into canvas: inout Canvas) {
        switch line.kind {
        case .blank, .text:
            var column = x + line.indent
            for (index, span) in line.spans.enumerated() {
                let style = index == chosenSpan ? theme.selection : style(for: span.style)
                let start = column
                column = canvas.put(span.text, x: column, y: y, style: style, limit: x + width + 1)
                // A link out of the issue is also the terminal's hyperlink, where it shows them.
                if let url = span.link.flatMap(browserLink) { canvas.link(x: start, y: y, width: column - start, url: url) }
            }
        case .rule:
            canvas.put(String(repeating: "─", count: width / 3), x: x + width / 3, y: y, style: theme.readerQuote)
        case .image(let source, let alt, _, let row):
            drawImageRow(source: source, alt: alt, box: pictureBox(of: line, width: width), row: row,
                         x: x + line.indent, y: y, labelled: row == 0 || topOfScreen, into: &canvas)
        }
    }

    private func style(for textStyle: TextStyle) -> Style {
        var style = theme.readerText
        if textStyle.contains(.heading) { style = theme.readerHeading }
        if textStyle.contains(.quote) { style = theme.readerQuote }
        if textStyle.contains(.code) { style = theme.readerCode }
        if textStyle.contains(.link) { style = theme.readerLink }
        if textStyle.contains(.highlight) { style = theme.readerMatch }
        if textStyle.contains(.bold) { style.attributes.insert(.bold) }
        if textStyle.contains(.italic) { style.attributes.insert(.italic) }
        if textStyle.contains(.underline) { style.attributes.insert(.underline) }
        if textStyle.contains(.strike) { style.attributes.insert(.strike) }
        return style
    }

    /// One row of a picture; `labelled` is the row that shows the description when the
    /// picture cannot be drawn (its first, or the first on screen).
    private func drawImageRow(source: String, alt: String, box: CellSize, row: Int, x: Int, y: Int, labelled: Bool,
                              into canvas: inout Canvas) {
        let width = box.columns
        let source = pictureSource(source)
        let state = source.map { pictures.state(of: $0, fittedIn: box) }
        guard let source, case .ready(let picture) = state else {
            // The description stands in for a picture that cannot be drawn; one still
            // rendering leaves its rows blank for a moment.
            if labelled, state != .pending {
                canvas.put(Block.pictureDescription(alt), x: x, y: y, style: theme.readerQuote, limit: x + width)
            }
            return
        }
        guard row < picture.rows else { return }
        // Cells the picture leaves uncoloured show the paper.
        let paper = Style(foreground: theme.readerText.background, background: theme.readerText.background)
        pictures.paint(source, into: Rect(x: x, y: y, width: width, height: 1), of: &canvas,
                       layout: PictureLayout(size: box, row: row, behind: paper))
    }

    /// The cells a picture's line is fitted into: the box it was first drawn in, else the
    /// text column after the line's indent by the rows laid out for it.
    func pictureBox(of line: LayoutLine, width: Int) -> CellSize {
        guard case .image(let source, _, let rows, _) = line.kind else { return CellSize(columns: width - line.indent, rows: 1) }
        return drawnPictures[source]?.box ?? CellSize(columns: width - line.indent, rows: rows)
    }

    /// Where a picture of the article is drawn from, as resolved when the article was read
    /// (`LoadedArticle.pictures`); nil when it cannot be drawn.
    func pictureSource(_ source: String) -> ImageSource? {
        articles[index]?.pictures[source]
    }

    /// Paints the visible matches: the current one in the selection colours, the others in
    /// the reader's match colours; the text stays as it is.
    private func drawMatches(in text: ArticleText, left: Int, into canvas: inout Canvas) {
        guard query != nil, let found, found.article == index, found.width == text.width, !found.matches.isEmpty else { return }
        let matches = found.matches
        var low = 0, high = matches.count
        while low < high {
            let middle = (low + high) / 2
            if matches[middle].line < top { low = middle + 1 } else { high = middle }
        }
        for index in low..<matches.count {
            let match = matches[index]
            guard match.line < top + visibleRows else { break }
            let current = currentMatch.map { $0.article == self.index && $0.index == index } ?? false
            let style = current ? theme.selection : theme.readerMatch
            paint([(match.line, match.column, match.length)], style: style, left: left, into: &canvas)
        }
    }
}
