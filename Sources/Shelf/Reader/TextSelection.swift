import Foundation
import TextLayout

/// Choosing words in reflowed text (`s`): a cursor on a word that moves by word, sentence,
/// paragraph and line; once `s` is pressed again it stays where it was and the selection
/// grows from there to the cursor with the same keys. Places are `TextAnchor`s, so a
/// selection keeps its words when the width changes.
struct TextSelection: Equatable {
    var article: Int
    /// Where the selection started: the cursor's word until `extending`.
    var anchor: TextAnchor
    /// The start of the word under the cursor.
    var cursor: TextAnchor
    var extending = false

    enum Move: Equatable { case word(forward: Bool), sentence(forward: Bool), paragraph(forward: Bool), line(down: Bool) }
}

extension TextPager {
    /// `s`: the cursor on the first word on screen (the selection's start when pressed again).
    mutating func startSelection() -> ReaderNote? {
        guard let text = prepareText(), let word = text.word(at: text.anchor(ofLine: top)), word.line < top + visibleRows else {
            return ReaderNote(text: "No words on screen to choose.")
        }
        selection = TextSelection(article: index, anchor: word.startAnchor, cursor: word.startAnchor)
        return nil
    }

    /// `s` again: the selection starts at the cursor and grows with it from now on.
    mutating func anchorSelection() {
        guard var chosen = selection else { return }
        chosen.anchor = chosen.cursor
        chosen.extending = true
        selection = chosen
    }

    mutating func endSelection() { selection = nil }

    /// Moves the cursor (and the selection's end, once it is extending), scrolling it into view.
    mutating func moveSelection(_ move: TextSelection.Move) {
        guard var chosen = selection, chosen.article == index, let text = prepareText(),
              let here = text.word(at: chosen.cursor) else { return }
        guard let there = Self.step(move, from: here, in: text) else { return }
        chosen.cursor = there.startAnchor
        if !chosen.extending { chosen.anchor = there.startAnchor }
        selection = chosen
        if there.line < top {
            top = there.line
        } else if there.line >= top + visibleRows {
            top = there.line - visibleRows + 1
        }
    }

    private static func step(_ move: TextSelection.Move, from word: LaidOutWord, in text: ArticleText) -> LaidOutWord? {
        switch move {
        case .word(let forward):
            return forward ? text.word(after: word) : text.word(before: word)
        case .sentence(true):
            var current = word
            while let next = text.word(after: current) {
                if endsSentence(current) || next.block != current.block { return next }
                current = next
            }
            return nil
        case .sentence(false):
            // The start of this sentence, or of the one before when already there.
            guard var current = text.word(before: word) else { return nil }
            while let previous = text.word(before: current), !endsSentence(previous), previous.block == current.block {
                current = previous
            }
            return current
        case .paragraph(true):
            var current = word
            while let next = text.word(after: current) {
                if next.block != word.block { return next }
                current = next
            }
            return nil
        case .paragraph(false):
            guard var current = text.word(before: word) else { return nil }
            while let previous = text.word(before: current), previous.block == current.block { current = previous }
            return current
        case .line(let down):
            var line = word.line + (down ? 1 : -1)
            while line >= 0 {
                text.ensureLines(line + 1)
                guard line < text.lines.count else { return nil }
                let words = text.words(ofLine: line)
                if let nearest = words.min(by: { abs($0.column - word.column) < abs($1.column - word.column) }) { return nearest }
                line += down ? 1 : -1
            }
            return nil
        }
    }

    /// A word that ends a sentence: its last mark, closing quotes and brackets aside, is . ! ? or …
    static func endsSentence(_ word: LaidOutWord) -> Bool {
        let closing: Set<Character> = ["\"", "'", "”", "’", ")", "]", "»"]
        guard let last = word.text.reversed().first(where: { !closing.contains($0) }) else { return false }
        return [".", "!", "?", "…", "。", "！", "？"].contains(last)
    }

    /// The selected range: the first word's start to the last word's end; nil without one
    /// or in another article.
    var selectedRange: (start: TextAnchor, end: TextAnchor)? {
        guard let chosen = selection, chosen.article == index, let text else { return nil }
        let first = min(chosen.anchor, chosen.cursor), last = max(chosen.anchor, chosen.cursor)
        guard let lastWord = text.word(at: last) else { return nil }
        return (first, lastWord.endAnchor)
    }

    /// The word under the cursor.
    var cursorWord: LaidOutWord? {
        guard let chosen = selection, chosen.article == index, let text else { return nil }
        return text.word(at: chosen.cursor)
    }
}

extension TextPager {
    /// A click: the cursor on the word under it (the nearest on its line), the selection
    /// growing to it once it is extending; false when no word is on that row.
    mutating func click(x: Int, y: Int) -> Bool {
        guard let word = word(atX: x, y: y) else { return false }
        var chosen = selection.flatMap { $0.article == index ? $0 : nil }
            ?? TextSelection(article: index, anchor: word.startAnchor, cursor: word.startAnchor)
        chosen.cursor = word.startAnchor
        if !chosen.extending { chosen.anchor = word.startAnchor }
        selection = chosen
        return true
    }

    /// A drag with the left button held: the selection the press began grows from its word
    /// to the one under the pointer, as `s` and a click would; false without a selection in
    /// this article or a word on that row.
    mutating func drag(x: Int, y: Int) -> Bool {
        guard var chosen = selection, chosen.article == index, let word = word(atX: x, y: y) else { return false }
        chosen.extending = true
        chosen.cursor = word.startAnchor
        selection = chosen
        return true
    }

    /// The word at a cell of the window (the nearest on its row), if a line of text is there.
    private mutating func word(atX x: Int, y: Int) -> LaidOutWord? {
        guard let text = prepareText() else { return nil }
        let line = top + y - 2
        guard y >= 2, line < top + visibleRows, line < text.lines.count else { return nil }
        let column = x - (frame.width - text.width) / 2
        let words = text.words(ofLine: line)
        return words.first(where: { column < $0.column + $0.columns }) ?? words.last
    }
}
