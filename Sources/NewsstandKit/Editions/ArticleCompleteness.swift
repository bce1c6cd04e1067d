import Foundation

/// Whether a feed gives an article whole or only its summary, from what the entry itself
/// shows: the feed's own content element, a truncation mark at the end ("…", "[…]",
/// "Read more", "Weiterlesen"), and how many words it has; and, when the article's page has
/// been read, whether the page's text is the same article, longer.
enum ArticleCompleteness {
    enum Verdict: Equatable {
        case whole
        case summary
        /// Nothing settles it (a few hundred words, no content element, no mark): the page decides.
        case uncertain
    }

    /// Fewer words than this is a summary (or a note too short to tell: its page decides).
    static let summaryWords = 60
    /// At least this many words in a feed that has no content element is the article whole.
    static let wholeWords = 400

    static func verdict(html: String?, hasContent: Bool) -> Verdict {
        let text = plainText(html ?? "")
        if endsTruncated(text) { return .summary }
        let words = Self.words(text).count
        if words < summaryWords { return hasContent && words > 0 ? .uncertain : .summary }
        if hasContent || words >= wholeWords { return .whole }
        return .uncertain
    }

    /// Whether the page's text should replace the feed's: longer, and (unless the feed's is
    /// a line or two) the same article, most of the feed's words being on the page.
    static func pageIsBetter(feed html: String?, page pageText: String, verdict: Verdict) -> Bool {
        let feedWords = words(plainText(html ?? ""))
        let pageWords = words(pageText)
        switch verdict {
        case .whole:
            return false
        case .summary:
            guard pageWords.count > feedWords.count else { return false }
            return feedWords.count < 15 || overlap(of: feedWords, in: pageWords) >= 0.3
        case .uncertain:
            return Double(pageWords.count) >= 1.5 * Double(feedWords.count) && overlap(of: feedWords, in: pageWords) >= 0.6
        }
    }

    /// Marks that a feed cut the text short, as the last thing in it.
    static let truncationMarks = [
        "…", "...", "[…]", "[...]", "(…)", "(...)", "read more", "read the full story", "read the full article", "continue reading",
        "full story", "weiterlesen", "mehr lesen", "lire la suite", "leer más", "lees meer", "leggi tutto",
    ]

    static func endsTruncated(_ text: String) -> Bool {
        // Arrows and quotes that follow the words ("Read more »", "Continue reading →").
        let tail = text.suffix(80).lowercased().trimmingCharacters(in: CharacterSet(charactersIn: " \n\t»›→>:\"'”’").union(.whitespacesAndNewlines))
        return truncationMarks.contains { mark in
            guard tail.hasSuffix(mark) else { return false }
            // A word mark must be a word of its own ("more", not "evermore").
            guard let first = mark.first, first.isLetter else { return true }
            let before = tail.dropLast(mark.count).last
            return before.map { !$0.isLetter } ?? true
        }
    }

    static func words(_ text: String) -> [Substring] {
        text.split { !$0.isLetter && !$0.isNumber }
    }

    /// The share of `feed`'s distinct words that appear on the page.
    static func overlap(of feed: [Substring], in page: [Substring]) -> Double {
        let wanted = Set(feed.map { $0.lowercased() })
        guard !wanted.isEmpty else { return 0 }
        let there = Set(page.map { $0.lowercased() })
        return Double(wanted.filter(there.contains).count) / Double(wanted.count)
    }

    /// `html`'s text: tags dropped, the entities that end summaries (`&hellip;`, `&#8230;`) and a few others decoded.
    static func plainText(_ html: String) -> String {
        var text = ""
        var inTag = false
        for character in html {
            switch character {
            case "<": inTag = true; text.append(" ")
            case ">": inTag = false
            default: if !inTag { text.append(character) }
            }
        }
        for (entity, character) in entities { text = text.replacingOccurrences(of: entity, with: character) }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static let entities = [
        ("&hellip;", "…"), ("&#8230;", "…"), ("&#x2026;", "…"), ("&nbsp;", " "), ("&#160;", " "), ("&raquo;", "»"), ("&#187;", "»"),
        ("&rarr;", "→"), ("&#8594;", "→"), ("&rsquo;", "’"), ("&#8217;", "’"), ("&quot;", "\""), ("&amp;", "&"),
    ]
}
