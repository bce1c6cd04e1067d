import Foundation
import Terminal
import TextLayout

/// A word's definition in a panel over the lower half of the text (`d` in selection mode),
/// until the next key; a line saying so when no dictionary is installed or it has no entry.
struct WordPanel {
    var word: String
    var definition: Definition

    var lines: [String] {
        switch definition {
        case .found(let text): return text.components(separatedBy: "\n")
        case .notFound: return ["No entry for “\(word)” in the dictionaries installed."]
        case .noDictionary: return ["No dictionary is installed: install sdcv (StarDict) or dict (dictd) and a dictionary for it."]
        }
    }

    func render(into canvas: inout Canvas, frame: ReaderFrame, theme: Theme) {
        let width = min(frame.width - 4, 76)
        guard width >= 20 else { return }
        let wrapped = lines.flatMap { Self.wrap(Sanitizer.clean($0), to: width - 4) }
        let height = min(max(3, frame.visibleRows / 2), wrapped.count + 3)
        let left = (frame.width - width) / 2
        let top = 2 + frame.visibleRows - height
        let paper = theme.readerCode
        canvas.fill(Rect(x: left, y: top, width: width, height: height), with: Cell(glyph: " ", style: paper))
        canvas.put(" " + DisplayWidth.truncate(word, to: width - 4) + " ", x: left + 1, y: top, style: paper.with(.bold))
        for (row, line) in wrapped.prefix(height - 2).enumerated() {
            canvas.put(line, x: left + 2, y: top + 1 + row, style: paper, limit: left + width - 2)
        }
        if wrapped.count > height - 2 {
            canvas.put("…", x: left + width - 3, y: top + height - 1, style: paper)
        }
    }

    /// A line broken at spaces into lines of at most `width` columns (a longer word cut).
    static func wrap(_ line: String, to width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let joined = current.isEmpty ? word : current + " " + word
            if DisplayWidth.of(joined) <= width { current = joined; continue }
            if !current.isEmpty { lines.append(current) }
            current = DisplayWidth.of(word) <= width ? word : DisplayWidth.clip(word, to: width)
        }
        lines.append(current)
        return lines
    }
}
