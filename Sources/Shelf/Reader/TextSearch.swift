import Foundation
import IssueArchive
import Terminal
import TextLayout

/// Search in reflowed text: matches in this article and the ones after it (wrapping round
/// the issue); `n` and `N` step through them. The prompt itself is the reader model's; the
/// articles after this one are searched on the reader I/O queue (`ReaderLoad.findArticle`).
extension TextPager {
    mutating func search(for query: String) -> ReaderNote {
        if isLoading || !waiting.isEmpty || pending { waiting.append(.search(query)); return Self.searchingNote }
        self.query = query
        found = nil
        currentMatch = nil
        return findNext(forward: true)
    }

    static let searchingNote = ReaderNote(text: "Searching…")

    /// Escape after a search: the matches are no longer marked.
    var showsMatches: Bool { query != nil }

    mutating func clearSearch() {
        query = nil
        found = nil
        currentMatch = nil
        searching = false
    }

    /// Matches of the query in the current article at the current width (found once per
    /// article and width); none while only the first part of a long article is here.
    mutating func currentMatches() -> [SearchMatch] {
        guard let query, !pending, let text = prepareText() else { return [] }
        if let found, found.article == index, found.width == text.width { return found.matches }
        let matches = text.matches(of: query)
        found = (index, text.width, matches)
        if let current = currentMatch, current.article == index, current.index >= matches.count { currentMatch = nil }
        return matches
    }

    /// The next (or previous) match after the current one, or after the top of the screen
    /// for a new search; then in the following (or preceding) articles, round the issue.
    mutating func findNext(forward: Bool) -> ReaderNote {
        guard let query else { return ReaderNote(text: "Nothing to find yet: press / and type.") }
        if isLoading || !waiting.isEmpty || pending { waiting.append(.findNext(forward: forward)); return Self.searchingNote }
        let matches = currentMatches()
        let here: Int?
        if let current = currentMatch, current.article == index, matches.indices.contains(current.index) {
            here = forward ? (current.index + 1 < matches.count ? current.index + 1 : nil) : (current.index > 0 ? current.index - 1 : nil)
        } else if forward {
            here = matches.firstIndex { $0.line >= top }
        } else {
            here = matches.lastIndex { $0.line < top }
        }
        if let here { return select(here, of: matches) }
        if articleCount > 1 {
            searching = true
            requests.append(.findArticle(query: query, from: index, forward: forward, width: columnWidth))
            return Self.searchingNote
        }
        return foundElsewhere(query, forward: forward, nil) ?? ReaderNote(text: "No match for “\(query)”.", isError: true)
    }

    /// The search beyond this article answered: the article found, else this one's matches
    /// from its other end, else none.
    mutating func foundElsewhere(_ query: String, forward: Bool, _ article: FoundArticle?) -> ReaderNote? {
        guard query == self.query else { return nil }
        searching = false
        let from = index
        if let article {
            show(article)
            found = (article.article, article.laidOut.width, article.matches)
            var note = select(forward ? 0 : article.matches.count - 1, of: article.matches)
            let wrapped = forward ? article.article <= from : article.article >= from
            if wrapped { note.text += forward ? " (from the start of the issue)" : " (from the end of the issue)" }
            return note
        }
        let matches = currentMatches()
        guard !matches.isEmpty else { return ReaderNote(text: "No match for “\(query)”.", isError: true) }
        var note = select(forward ? 0 : matches.count - 1, of: matches)
        note.text += forward ? " (from the start of the issue)" : " (from the end of the issue)"
        return note
    }

    var matchHere: Int? { currentMatch.flatMap { $0.article == index ? $0.index : nil } }

    /// Match `number` of the article shown made the current one, brought into view once
    /// the article is here (the page view's count of a page's matches is this one's).
    mutating func goOn(fromMatch number: Int) {
        guard query != nil else { return }
        if isLoading || !waiting.isEmpty || pending { waiting.append(.match(number)); return }
        let matches = currentMatches()
        guard matches.indices.contains(number) else { return }
        _ = select(number, of: matches)
    }

    private mutating func select(_ match: Int, of matches: [SearchMatch]) -> ReaderNote {
        currentMatch = (index, match)
        let line = matches[match].line
        if line < top || line >= top + visibleRows {
            top = max(0, line - visibleRows / 3)
            if let text {
                text.ensureLines(top + visibleRows + 1)
                top = min(top, max(0, text.lines.count - visibleRows))
            }
        }
        let here = isDocument ? "on page \(index + 1)" : "in this article"
        return ReaderNote(text: "“\(query ?? "")”: match \(match + 1) of \(matches.count) \(here)")
    }
}
