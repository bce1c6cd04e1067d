import Foundation
import IssueArchive
import NewsstandKit
import TextLayout

/// Every page's plain text of the documents a paged issue's reading order points into,
/// read ahead by the document's reader from the moment the issue is opened (or kept from an
/// earlier session) and taken from it the first time a search needs it: both views find which pages may hold a query through it before laying
/// any page out.
final class DocumentPageTexts {
    /// Each reading-order entry's page, or nil for one that is not a document page.
    let pages: [PagePath?]
    let root: URL
    let texts: DocumentTexts
    /// Each document's pages' texts as read and squeezed (see `squeezed`), by its path in
    /// the issue; nil inside when unreadable. Squeezed once, so a search over hundreds of
    /// pages only looks for the query in each.
    private var read: [String: (texts: [String], squeezed: [String])?] = [:]
    /// Pages' texts as words (for counting matches), by reading-order index, made when a
    /// page may hold a query.
    private var words: [Int: String] = [:]

    init(readingOrder: [Resource], root: URL, texts: DocumentTexts) {
        pages = readingOrder.map { PagePath($0.path) }
        self.root = root
        self.texts = texts
        // Read while the first pages are looked at, so a search finds the texts read.
        for file in Set(pages.compactMap { $0?.file }).sorted() {
            guard let document = PagePath(file: file, index: 0).document(in: root) else { continue }
            texts.reader(for: document)?.readAhead(of: document)
        }
    }

    /// Reads entry `index`'s words reflowed in the background, so that `v` on a page looked
    /// at in the pages view finds them read (the document's reader keeps its last pages);
    /// a page left before its turn came is skipped.
    func prepareText(at index: Int) {
        guard pages.indices.contains(index), let page = pages[index], let file = page.document(in: root),
              let reader = texts.reader(for: file) else { return }
        let ahead = textAhead
        ahead.want(index)
        Self.textAheadQueue.async {
            guard ahead.isWanted(index) else { return }
            _ = try? reader.page(page.index, of: file)
        }
    }

    /// One page at a time, behind the worker's interactive requests in importance.
    private static let textAheadQueue = DispatchQueue(label: "newsstand.reader.text-ahead", qos: .utility)
    private let textAhead = TextAhead()

    /// The page whose words are wanted next, shared with the read-ahead queue.
    final class TextAhead: @unchecked Sendable {
        // `lock` guards `wanted`: set on the reader I/O queue, read on the read-ahead queue.
        private let lock = NSLock()
        private var wanted: Int?
        func want(_ index: Int) { lock.withLock { wanted = index } }
        func isWanted(_ index: Int) -> Bool { lock.withLock { wanted == index } }
    }

    /// Whether reading-order entry `index` may hold `query`; never false when its reflowed
    /// text would (spaces and line-end hyphens are ignored, as reflowing joins and splits
    /// lines). True when the text cannot be read: then the page is searched the slow way.
    func mayHold(_ query: String, at index: Int) -> Bool {
        guard let page = page(at: index) else { return true }
        return page.squeezed.contains(Self.squeezed(query))
    }

    /// How often entry `index` holds `query` (case-insensitive, spaces as one); nil when it
    /// is no document page or its text cannot be read.
    func count(of query: String, at index: Int) -> Int? {
        guard let page = page(at: index) else { return nil }
        let needle = Self.words(query)
        guard !needle.isEmpty, page.squeezed.contains(Self.squeezed(query)) else { return 0 }
        if words[index] == nil { words[index] = Self.words(page.text) }
        return (words[index] ?? "").components(separatedBy: needle).count - 1
    }

    /// Entry `index`'s text, read with the rest of its document the first time.
    private func page(at index: Int) -> (text: String, squeezed: String)? {
        guard pages.indices.contains(index), let page = pages[index] else { return nil }
        if read[page.file] == nil {
            let file = page.document(in: root)
            let texts = file.flatMap { file in try? self.texts.reader(for: file)?.pageTexts(of: file) }
            read[page.file] = .some(texts.map { ($0, $0.map(Self.squeezed)) })
        }
        guard let found = read[page.file] ?? nil, found.texts.indices.contains(page.index) else { return nil }
        return (found.texts[page.index], found.squeezed[page.index])
    }

    /// Where entry `index` holds `query` on its page: each match in text order, as a box per
    /// line it spans (a match broken over two lines has two); found as `mayHold` finds it.
    /// Empty when the page's reader cannot say where its characters are.
    func matches(of query: String, at index: Int) -> [[PageBox]] {
        guard let page = squeezedCharacters(at: index) else { return [] }
        return page.occurrences(of: query).map { page.lines($0) }
    }

    /// Where entry `index` holds a highlight's words (`quote`), a box per line: its one
    /// occurrence on the page, or of several the one its context (squeezed as the page is)
    /// picks; empty when the words are not on the page or nothing tells their places apart,
    /// so a highlight is never marked over other words.
    func boxes(of quote: TextQuoteSelector, at index: Int) -> [PageBox] {
        guard let page = squeezedCharacters(at: index) else { return [] }
        let found = page.occurrences(of: quote.exact)
        guard found.count > 1 else { return found.first.map { page.lines($0) } ?? [] }
        let before = Array(Self.squeezed(quote.prefix).unicodeScalars), after = Array(Self.squeezed(quote.suffix).unicodeScalars)
        let scores = found.map { range in
            zip(page.scalars[..<range.lowerBound].reversed(), before.reversed()).prefix { $0 == $1 }.count
                + zip(page.scalars[range.upperBound...], after).prefix { $0 == $1 }.count
        }
        guard let best = scores.max(), scores.filter({ $0 == best }).count == 1, let chosen = scores.firstIndex(of: best) else { return [] }
        return page.lines(found[chosen])
    }

    /// A page's characters squeezed (see `squeezed`), each with the box of the character it comes from.
    struct SqueezedPage {
        var scalars: [Unicode.Scalar]
        var boxes: [PageBox]

        /// The ranges of `scalars` that hold `text` squeezed, in order, not overlapping.
        func occurrences(of text: String) -> [Range<Int>] {
            let needle = Array(DocumentPageTexts.squeezed(text).unicodeScalars)
            guard !needle.isEmpty, scalars.count >= needle.count else { return [] }
            var found: [Range<Int>] = []
            var start = 0
            while start + needle.count <= scalars.count {
                guard scalars[start..<start + needle.count].elementsEqual(needle) else { start += 1; continue }
                found.append(start..<start + needle.count)
                start += needle.count
            }
            return found
        }

        /// The boxes of `range`'s characters joined a line at a time.
        func lines(_ range: Range<Int>) -> [PageBox] {
            DocumentPageTexts.lines(Array(boxes[range]))
        }
    }

    /// Entry `index`'s characters squeezed with their boxes; nil when its reader cannot say
    /// where its characters are.
    private func squeezedCharacters(at index: Int) -> SqueezedPage? {
        guard pages.indices.contains(index), let page = pages[index], let file = page.document(in: root),
              let characters = (try? texts.reader(for: file)?.characters(ofPage: page.index, of: file)) ?? nil,
              characters.boxes.count == characters.scalars.count else { return nil }
        var squeezed = SqueezedPage(scalars: [], boxes: [])
        var origins: [Int] = []
        Self.squeeze(characters.scalars) { scalar, origin in squeezed.scalars.append(scalar); origins.append(origin) }
        // One box per squeezed scalar; a scalar lower-cased into two shares its character's box.
        squeezed.boxes = origins.map { characters.boxes[$0] }
        return squeezed
    }

    /// Characters' boxes in text order joined a line at a time: the next character starts
    /// a new box when its middle is outside the height of the box so far.
    static func lines(_ characters: [PageBox]) -> [PageBox] {
        var lines: [PageBox] = []
        for box in characters {
            let middle = (box.y0 + box.y1) / 2
            if var last = lines.last, middle >= last.y0, middle <= last.y1 {
                last = PageBox(x0: min(last.x0, box.x0), y0: min(last.y0, box.y0), x1: max(last.x1, box.x1), y1: max(last.y1, box.y1))
                lines[lines.count - 1] = last
            } else {
                lines.append(box)
            }
        }
        return lines
    }

    /// Lower-cased, with whitespace and hyphens at line ends left out.
    static func squeezed(_ text: String) -> String {
        var squeezed = String.UnicodeScalarView()
        squeeze(text.unicodeScalars) { scalar, _ in squeezed.append(scalar) }
        return String(squeezed)
    }

    /// Hands `keep` each scalar of `scalars` squeezed (see `squeezed`) with the offset of the
    /// scalar it comes from. One pass over the scalars, ASCII lower-cased in place:
    /// Foundation's `CharacterSet` and `replacingOccurrences` and `lowercased()` of the whole
    /// text took as long over a 350-page magazine (half a second) as the worker took to read
    /// its text.
    private static func squeeze(_ scalars: some Sequence<Unicode.Scalar>, keep: (Unicode.Scalar, Int) -> Void) {
        var hyphen: Int?  // a "-" held back until the next scalar says whether it ends a line
        for (offset, scalar) in scalars.enumerated() {
            if let held = hyphen {
                hyphen = nil
                if scalar == "\n" { continue }
                keep("-", held)
            }
            if scalar == "-" {
                hyphen = offset
            } else if scalar.isASCII {
                if scalar == " " || (0x09...0x0D).contains(scalar.value) { continue }
                keep(("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar, offset)
            } else if !scalar.properties.isWhitespace && scalar != "\u{200B}" {
                // Whitespace as Foundation's `whitespacesAndNewlines` has it (Unicode's, and
                // the zero-width space).
                for lower in scalar.properties.lowercaseMapping.unicodeScalars { keep(lower, offset) }
            }
        }
        if let held = hyphen { keep("-", held) }
    }

    /// Lower-cased, whitespace runs as one space.
    static func words(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
