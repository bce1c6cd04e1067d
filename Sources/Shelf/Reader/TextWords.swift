import Foundation
import Terminal
import TextLayout

/// A word of laid-out text: where it is on its line, and where it is in its block's visible
/// characters (the `TextAnchor` offsets), so that a place found at one width is found again
/// at another.
struct LaidOutWord: Equatable {
    var line: Int
    /// Its index among the words of its line.
    var index: Int
    var column: Int
    var columns: Int
    var block: Int
    /// Visible characters of the block before the word, and to its end.
    var start: Int
    var end: Int
    var text: String

    var startAnchor: TextAnchor { TextAnchor(block: block, offset: start) }
    var endAnchor: TextAnchor { TextAnchor(block: block, offset: end) }
}

/// Cells of one line, from a column.
typealias CellRun = (line: Int, column: Int, columns: Int)

extension TextAnchor: Comparable {
    static func < (left: TextAnchor, right: TextAnchor) -> Bool {
        (left.block, left.offset) < (right.block, right.offset)
    }
}

/// Words, and the cells between two places, in an article laid out at one width: what the
/// selection moves over and what highlights are drawn on.
extension ArticleText {
    /// The words of a text line, markers (bullets, quote bars) left out; none on other lines.
    func words(ofLine index: Int) -> [LaidOutWord] {
        guard lines.indices.contains(index), case .text = lines[index].kind else { return [] }
        let line = lines[index]
        var offset = anchor(ofLine: index).offset
        var column = line.indent
        var words: [LaidOutWord] = []
        var current: LaidOutWord?
        func finish() {
            if let word = current { words.append(word) }
            current = nil
        }
        for span in line.spans {
            let isMarker = span.style.contains(.marker)
            for character in span.text {
                let width = DisplayWidth.of(character)
                if isMarker || character.isWhitespace {
                    finish()
                } else if var word = current {
                    word.columns = column + width - word.column
                    word.end = offset + 1
                    word.text.append(character)
                    current = word
                    offset += 1
                } else {
                    current = LaidOutWord(line: index, index: words.count, column: column, columns: width, block: line.blockIndex,
                                          start: offset, end: offset + 1, text: String(character))
                    offset += 1
                }
                column += width
            }
        }
        finish()
        return words
    }

    /// The word holding `anchor`'s character, else the first word after it (laid out as far
    /// as needed); nil past the article's last word.
    func word(at anchor: TextAnchor) -> LaidOutWord? {
        var line = self.line(for: anchor)
        while true {
            ensureLines(line + 2)
            guard lines.indices.contains(line) else { return nil }
            if let word = words(ofLine: line).first(where: { $0.endAnchor > anchor }) { return word }
            line += 1
        }
    }

    /// The word after `word`, over lines and blocks; nil at the article's end.
    func word(after word: LaidOutWord) -> LaidOutWord? {
        var line = word.line
        var index = word.index + 1
        while true {
            ensureLines(line + 2)
            guard lines.indices.contains(line) else { return nil }
            let words = words(ofLine: line)
            if index < words.count { return words[index] }
            line += 1
            index = 0
        }
    }

    /// The word before `word`; nil at the article's start.
    func word(before word: LaidOutWord) -> LaidOutWord? {
        var line = word.line
        var index = word.index - 1
        while line >= 0 {
            let words = words(ofLine: line)
            if index >= 0, index < words.count { return words[index] }
            line -= 1
            index = line >= 0 ? self.words(ofLine: line).count - 1 : -1
        }
        return nil
    }

    /// The cells from `start` to `end` (visible characters, `end` excluded), a run per line,
    /// the spaces between the words included; lines not laid out yet are left out.
    func cells(from start: TextAnchor, to end: TextAnchor) -> [CellRun] {
        guard start < end, let first = firstLine(ofBlock: start.block) else { return [] }
        var runs: [CellRun] = []
        var line = max(first, self.line(for: start))
        while line < lines.count, lines[line].blockIndex <= end.block {
            let inside = words(ofLine: line).filter { $0.endAnchor > start && $0.startAnchor < end }
            if let left = inside.first, let right = inside.last {
                let from = left.startAnchor < start ? left.column + (start.offset - left.start) : left.column
                let to = right.endAnchor > end ? right.column + (end.offset - right.start) : right.column + right.columns
                if to > from { runs.append((line, from, to - from)) }
            }
            line += 1
        }
        return runs
    }
}

extension ArticleText {
    /// Words from `start` to `end`, for the status line.
    func wordCount(from start: TextAnchor, to end: TextAnchor) -> Int {
        guard var word = word(at: start) else { return 0 }
        var count = 1
        while let next = self.word(after: word), next.startAnchor < end {
            count += 1
            word = next
        }
        return count
    }
}
