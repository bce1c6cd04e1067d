import Foundation
import IssueArchive
import Terminal
import TextLayout

/// Search in reflowed text: matches in this article and the ones after it (wrapping round
/// the issue); `n` and `N` step through them. The prompt itself is the reader model's.
extension TextPager {
    mutating func search(for query: String) -> ReaderNote {
        self.query = query
        found = nil
        currentMatch = nil
        return findNext(forward: true)
    }

    /// Matches of the query in the current article at the current width (found once per
    /// article and width).
    mutating func currentMatches() -> [SearchMatch] {
        guard query != nil else { return [] }
        adoptWholeDocument(wait: true)
        guard let query, let text = prepareText() else { return [] }
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

        let count = articleCount
        for step in 1...max(1, count) {
            let candidate = forward ? (index + step) % count : (index - step + count) % count
            let wrapped = forward ? candidate <= index : candidate >= index
            let result: (ArticleText, [SearchMatch])?
            if candidate == index {
                result = text.flatMap { matches.isEmpty ? nil : ($0, matches) }
            } else {
                result = searchArticle(candidate, query: query)
            }
            guard let (laidOut, candidateMatches) = result, !candidateMatches.isEmpty else { continue }
            if candidate != index {
                show(article: candidate, laidOut: laidOut)
                found = (candidate, laidOut.width, candidateMatches)
            }
            var note = select(forward ? 0 : candidateMatches.count - 1, of: candidateMatches)
            if wrapped { note.text += forward ? " (from the start of the issue)" : " (from the end of the issue)" }
            return note
        }
        return ReaderNote(text: "No match for “\(query)”.", isError: true)
    }

    /// Another article laid out and searched without leaving this one; nil when it has no match.
    private func searchArticle(_ article: Int, query: String) -> (ArticleText, [SearchMatch])? {
        guard content.readingOrder.indices.contains(article), !content.readingOrder[article].isPicture,
              pageTexts?.mayHold(query, at: article) ?? true,
              let document = try? ArticleDocument.load(content.readingOrder[article], in: root, texts: texts),
              Search.mayContain(document, query) else { return nil }
        let laidOut = ArticleText(document: document, width: columnWidth)
        let matches = laidOut.matches(of: query)
        return matches.isEmpty ? nil : (laidOut, matches)
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
        let here = pageTexts == nil ? "in this article" : "on page \(index + 1)"
        return ReaderNote(text: "“\(query ?? "")”: match \(match + 1) of \(matches.count) \(here)")
    }
}
