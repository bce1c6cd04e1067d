import Foundation
import TextLayout

/// An article's text as highlights quote it (`TextQuoteSelector`): its top-level blocks'
/// `plainText` joined by one newline, with the way between a place in it and a `TextAnchor`
/// (a block and the visible characters before the place in it). A highlight is found in
/// this text, never in cells, and drawn from the anchors at whatever width the text has.
struct QuoteText {
    let text: String
    /// Where each block starts in `text`.
    private let blockStarts: [String.Index]

    init(_ document: TextDocument) {
        let texts = document.blocks.map(\.plainText)
        let text = texts.joined(separator: "\n")
        var starts: [String.Index] = []
        var offset = 0
        for block in texts {
            starts.append(text.utf8.index(text.utf8.startIndex, offsetBy: offset))
            offset += block.utf8.count + 1
        }
        self.text = text
        blockStarts = starts
    }

    /// The anchor of a place in `text`: its block, and the visible characters of the block before it.
    func anchor(at place: String.Index) -> TextAnchor {
        var low = 0, high = blockStarts.count
        while low + 1 < high {
            let middle = (low + high) / 2
            if blockStarts[middle] <= place { low = middle } else { high = middle }
        }
        guard blockStarts.indices.contains(low) else { return TextAnchor(block: 0, offset: 0) }
        let offset = text[blockStarts[low]..<place].reduce(0) { $0 + ($1.isWhitespace ? 0 : 1) }
        return TextAnchor(block: low, offset: offset)
    }

    /// The place in `text` of the anchor's character (the visible one `offset` characters
    /// into the block); the block's end when it has fewer.
    func place(of anchor: TextAnchor) -> String.Index {
        guard blockStarts.indices.contains(anchor.block) else { return text.endIndex }
        let end = anchor.block + 1 < blockStarts.count ? text.index(before: blockStarts[anchor.block + 1]) : text.endIndex
        var seen = 0
        var index = blockStarts[anchor.block]
        while index < end {
            if !text[index].isWhitespace {
                if seen == anchor.offset { return index }
                seen += 1
            }
            index = text.index(after: index)
        }
        return end
    }

    /// The characters from `start` to `end` (visible characters, `end` excluded).
    func range(from start: TextAnchor, to end: TextAnchor) -> Range<String.Index>? {
        guard start < end, end.offset > 0 else { return nil }
        let lower = place(of: start)
        let last = place(of: TextAnchor(block: end.block, offset: end.offset - 1))
        guard last < text.endIndex, lower <= last else { return nil }
        return lower..<text.index(after: last)
    }

    /// The anchors of a range of `text`.
    func anchors(of range: Range<String.Index>) -> (start: TextAnchor, end: TextAnchor) {
        (anchor(at: range.lowerBound), anchor(at: range.upperBound))
    }
}
