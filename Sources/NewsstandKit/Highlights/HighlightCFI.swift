import Foundation
import IssueArchive

/// A highlight's place in an EPUB as EPUB CFI, from its quote: the quote is found (as
/// `TextQuoteSelector.resolve` finds it, white space folded on both sides) in the document's
/// own text (`EPUBDocumentText`), and its ends named in the document's tree.
public enum HighlightCFI {
    /// The range CFI of `quote` in `document` of the book extracted at `book`; nil when the
    /// book has no such spine document or the quote is not found in it once.
    public static func range(of quote: TextQuoteSelector, document: String, book: URL) -> EPUBCFIRange? {
        guard let text = EPUBDocumentText(book: book, document: document) else { return nil }
        return range(of: quote, in: text)
    }

    public static func range(of quote: TextQuoteSelector, in document: EPUBDocumentText) -> EPUBCFIRange? {
        let exact = EPUBDocumentText.folded(quote.exact).trimmingCharacters(in: .whitespaces)
        let folded = TextQuoteSelector(exact: exact, prefix: EPUBDocumentText.folded(quote.prefix),
                                       suffix: EPUBDocumentText.folded(quote.suffix))
        guard let found = folded.resolve(in: document.text).range else { return nil }
        let utf8 = document.text.utf8
        let start = utf8.distance(from: utf8.startIndex, to: found.lowerBound)
        return document.cfi(utf8: start..<(start + exact.utf8.count))
    }

    /// The parts of a range CFI as `range(of:)` writes it: the document's spine index (the
    /// itemref step's, counting the spine's elements), and the start and end inside the
    /// document; nil for anything else.
    public static func parts(of cfi: String) -> (spineIndex: Int, start: String, end: String)? {
        guard cfi.hasPrefix("epubcfi("), cfi.hasSuffix(")") else { return nil }
        let body = cfi.dropFirst("epubcfi(".count).dropLast()
        let pieces = split(String(body), at: ",")
        guard pieces.count == 3 else { return nil }
        let head = split(pieces[0], at: "!")
        guard head.count == 2 else { return nil }
        let spineSteps = head[0].split(separator: "/").map { $0.prefix { $0.isNumber } }
        guard spineSteps.count == 2, let itemref = Int(spineSteps[1]), itemref >= 2 else { return nil }
        return (itemref / 2 - 1, head[1] + pieces[1], head[1] + pieces[2])
    }

    /// `text` split at `separator` where it is not escaped by `^`.
    private static func split(_ text: String, at separator: Character) -> [String] {
        var pieces = [""]
        var escaped = false
        for character in text {
            if !escaped && character == separator {
                pieces.append("")
                continue
            }
            escaped = !escaped && character == "^"
            pieces[pieces.count - 1].append(character)
        }
        return pieces
    }
}
