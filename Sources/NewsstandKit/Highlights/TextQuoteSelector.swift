import Foundation

/// A passage named by its own words (W3C Web Annotation's `TextQuoteSelector`): the quote
/// (`exact`) and up to `contextLength` characters before and after it. It is found again in
/// text, not in cells, so it survives another width, another window and a new copy of the
/// same issue; when its words are no longer there it says so and never moves to others.
///
/// The text a quote is taken from and found in is one resource's plain text as the reader
/// and the search index read it: the resource's `TextDocument`'s top-level blocks, each
/// block's `plainText`, joined by one newline (`IssueSearchTexts` in Shelf; the reader's
/// `ArticleText.document`). Both sides must use that same text.
public struct TextQuoteSelector: Codable, Sendable, Equatable, Hashable {
    /// The quoted words, never empty.
    public var exact: String
    /// Up to `contextLength` characters just before the quote.
    public var prefix: String
    /// Up to `contextLength` characters just after the quote.
    public var suffix: String

    /// Characters of context kept each side: enough to tell apart the same words used twice
    /// in a chapter, short enough to survive an edit a paragraph away.
    public static let contextLength = 32

    public init(exact: String, prefix: String = "", suffix: String = "") {
        self.exact = exact
        self.prefix = prefix
        self.suffix = suffix
    }

    /// The quote of `range` in `text`, with its context; nil when the range holds no characters.
    public init?(_ range: Range<String.Index>, in text: String) {
        guard !range.isEmpty else { return nil }
        exact = String(text[range])
        prefix = String(text[..<range.lowerBound].suffix(Self.contextLength))
        suffix = String(text[range.upperBound...].prefix(Self.contextLength))
    }

    /// Where a quote is in a text now.
    public enum Resolution: Equatable, Sendable {
        /// Its characters in the text searched.
        case found(Range<String.Index>)
        /// Its words are not there, or are there more than once and the context does not
        /// say which: the highlight is shown as gone, never on other words.
        case gone

        public var range: Range<String.Index>? {
            if case .found(let range) = self { return range }
            return nil
        }
    }

    /// The quote found in `text`: its one exact occurrence, or, of several, the one whose
    /// surroundings agree best with `prefix` and `suffix` when no other agrees as well.
    /// Linear in the text's UTF-8 bytes (a 1 MB chapter: see BENCHMARKS.md).
    public func resolve(in text: String) -> Resolution {
        var text = text
        let needle = Array(exact.utf8)
        guard !needle.isEmpty else { return .gone }
        let before = Array(prefix.utf8), after = Array(suffix.utf8)
        let best: (start: Int, tied: Bool)? = text.withUTF8 { haystack in
            var best: (start: Int, score: Int, tied: Bool)?
            for start in Self.occurrences(of: needle, in: haystack) {
                let score = Self.commonSuffix(haystack, endingAt: start, before)
                    + Self.commonPrefix(haystack, from: start + needle.count, after)
                if let current = best, current.score > score { continue }
                best = (start, score, best?.score == score)
            }
            return best.map { ($0.start, $0.tied) }
        }
        guard let best, !best.tied else { return .gone }
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: best.start)
        let upper = utf8.index(lower, offsetBy: needle.count)
        // A match inside a character (a base letter of a letter with an accent) is not the quote.
        guard let start = lower.samePosition(in: text), let end = upper.samePosition(in: text),
              text[start..<end] == exact else { return .gone }
        return .found(start..<end)
    }

    /// Byte offsets of every occurrence of `needle` in `haystack` (overlapping ones too).
    static func occurrences(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> [Int] {
        guard let base = haystack.baseAddress, needle.count <= haystack.count else { return [] }
        var found: [Int] = []
        var start = 0
        let last = haystack.count - needle.count
        needle.withUnsafeBufferPointer { needle in
            while start <= last {
                // memchr to the next possible first byte, memcmp for the rest.
                guard let hit = memchr(base + start, Int32(needle[0]), last - start + 1) else { break }
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { found.append(at) }
                start = at + 1
            }
        }
        return found
    }

    private static func commonSuffix(_ haystack: UnsafeBufferPointer<UInt8>, endingAt end: Int, _ context: [UInt8]) -> Int {
        var count = 0
        while count < context.count, count < end, haystack[end - 1 - count] == context[context.count - 1 - count] { count += 1 }
        return count
    }

    private static func commonPrefix(_ haystack: UnsafeBufferPointer<UInt8>, from start: Int, _ context: [UInt8]) -> Int {
        var count = 0
        while count < context.count, start + count < haystack.count, haystack[start + count] == context[count] { count += 1 }
        return count
    }
}
