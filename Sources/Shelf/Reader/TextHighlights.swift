import Foundation
import NewsstandKit
import TextLayout

/// A highlight found again in the article shown: its words as anchors, whatever the width.
struct HighlightMark: Equatable {
    var highlight: Highlight
    var start: TextAnchor
    var end: TextAnchor
}

/// Highlights in reflowed text: each found again by its quote in the article's text
/// (`QuoteText`), never by cells, so it is on the same words at any width; one whose words
/// are gone is not drawn at all (the list says so).
extension TextPager {
    /// The article's highlights found again, in the order of their words: worked out in
    /// `settle` once per article and list (`marksKey`), read by `render`.
    mutating func findMarks() {
        let resource = content.readingOrder.indices.contains(index) ? content.readingOrder[index].path : ""
        guard let article = articles[index], article.isWhole else { marks = []; marksKey = nil; return }
        let mine = highlights.filter { $0.resource == resource }
        let key = MarksKey(article: index, highlights: mine)
        guard key != marksKey else { return }
        marksKey = key
        marks = mine.compactMap { highlight in
            guard let range = highlight.quote.resolve(in: article.quoteText.text).range else { return nil }
            let anchors = article.quoteText.anchors(of: range)
            return HighlightMark(highlight: highlight, start: anchors.start, end: anchors.end)
        }.sorted { $0.start < $1.start }
    }

    /// The highlight whose words hold `place`.
    func highlight(at place: TextAnchor) -> Highlight? {
        marks.last { $0.start <= place && place < $0.end }?.highlight
    }

    /// The highlights of this article whose words are no longer in it.
    var goneHighlights: [Highlight] {
        guard let key = marksKey else { return [] }
        let found = Set(marks.map(\.highlight.id))
        return key.highlights.filter { !found.contains($0.id) }
    }

    /// Puts the reader at a highlight's words: once the whole article is here, its quote
    /// found again (a highlight made by the `highlight` command has no text place), else
    /// the place it was made at.
    mutating func show(_ highlight: Highlight) {
        let article = highlight.locator.index(in: content.readingOrder)
        if article != index { goTo(article: article) }
        let place = highlight.locator.text.map { TextAnchor(block: $0.block, offset: $0.offset) }
        if isLoading || !waiting.isEmpty || pending {
            pendingPlace = place.map(TextPager.PendingPlace.anchor)
            waiting.append(.highlight(highlight))
            return
        }
        guard let text = prepareText(), let whole = articles[index] else { return }
        let found = highlight.quote.resolve(in: whole.quoteText.text).range.map { whole.quoteText.anchors(of: $0).start }
        guard let start = found ?? place else { return }
        top = max(0, text.line(for: start) - visibleRows / 3)
        text.ensureLines(top + visibleRows + 1)
        pendingPlace = nil
    }
}

/// Which highlights `marks` were found for, in which article.
struct MarksKey: Equatable {
    var article: Int
    var highlights: [Highlight]
}

/// What `render` paints over the text, worked out in `settle` (where laying out more is
/// allowed): highlights on screen, the words chosen, the cursor.
struct PaintedText {
    var highlights: [(runs: [CellRun], color: Highlight.Color, noted: Bool)] = []
    var selection: [CellRun] = []
    /// The cursor's word while a selection grows from elsewhere.
    var cursor: CellRun?
    var cursorText: String?
    var chosenWords = 0
}

extension TextPager {
    mutating func paintOverText() {
        var painted = PaintedText()
        defer { self.painted = painted }
        guard let text, top < text.lines.count else { return }
        let lastLine = min(top + visibleRows, text.lines.count) - 1
        let first = text.anchor(ofLine: top)
        let lastBlock = text.lines[lastLine].blockIndex
        for mark in marks where mark.end > first && mark.start.block <= lastBlock {
            painted.highlights.append((text.cells(from: mark.start, to: mark.end), mark.highlight.color, mark.highlight.note != nil))
        }
        guard let range = selectedRange, let chosen = selection, let word = cursorWord else { return }
        painted.selection = text.cells(from: range.start, to: range.end)
        painted.cursorText = word.text
        painted.chosenWords = text.wordCount(from: range.start, to: range.end)
        if chosen.extending { painted.cursor = (word.line, word.column, word.columns) }
    }
}
