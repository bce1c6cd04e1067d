import Foundation
import Terminal
import TextLayout

/// `/` search: a prompt on the status line, then matches in this article and the ones after
/// it (wrapping round the issue), highlighted; `n` and `N` step through them.
extension ReaderScreen {
    func startPrompt() {
        mode = .searchPrompt
        prompt = ""
    }

    func handlePromptKey(_ key: Key) -> Bool {
        switch key {
        case .enter:
            mode = .reading
            let wanted = Sanitizer.clean(prompt)
            if wanted.isEmpty { return true }
            query = wanted
            matchCache = nil
            currentMatch = nil
            findNext(forward: true)
        case .escape:
            mode = .reading
        case .backspace, .delete:
            if prompt.isEmpty { mode = .reading } else { prompt.removeLast() }
        case .character(let character):
            if prompt.count < 200 { prompt.append(character) }
        case .control("u"):
            prompt = ""
        default:
            break
        }
        return true
    }

    /// Matches of the query in the current article at the current width.
    func currentMatches() -> [SearchMatch] {
        guard query != nil else { return [] }
        adoptWholeDocument(wait: true)
        guard let query, let text = prepareText() else { return [] }
        if let cache = matchCache, cache.article == article, cache.width == text.width { return cache.matches }
        let matches = text.matches(of: query)
        matchCache = (article, text.width, matches)
        if currentMatch?.article == article, let current = currentMatch, current.index >= matches.count { currentMatch = nil }
        return matches
    }

    /// The next (or previous) match after the current one, or after the top of the screen
    /// for a new search; then in the following (or preceding) articles, round the issue.
    func findNext(forward: Bool) {
        guard !isComic else { message = "A comic's pages have no text to search."; messageIsError = true; return }
        guard let query else { message = "Nothing to find yet: press / and type."; return }
        let matches = currentMatches()
        let here: Int?
        if let current = currentMatch, current.article == article, matches.indices.contains(current.index) {
            here = forward ? (current.index + 1 < matches.count ? current.index + 1 : nil) : (current.index > 0 ? current.index - 1 : nil)
        } else if forward {
            here = matches.firstIndex { $0.line >= top }
        } else {
            here = matches.lastIndex { $0.line < top }
        }
        if let here { select(here, of: matches); return }

        let count = articleCount
        for step in 1...max(1, count) {
            let candidate = forward ? (article + step) % count : (article - step + count) % count
            let wrapped = forward ? candidate <= article : candidate >= article
            let found: (ArticleText, [SearchMatch])?
            if candidate == article {
                found = text.flatMap { matches.isEmpty ? nil : ($0, matches) }
            } else {
                found = searchArticle(candidate, query: query)
            }
            guard let (laidOut, candidateMatches) = found, !candidateMatches.isEmpty else { continue }
            if candidate != article {
                show(article: candidate, laidOut: laidOut)
                matchCache = (candidate, laidOut.width, candidateMatches)
            }
            select(forward ? 0 : candidateMatches.count - 1, of: candidateMatches)
            if wrapped { message = (message ?? "") + (forward ? " (from the start of the issue)" : " (from the end of the issue)") }
            return
        }
        message = "No match for “\(query)”."
        messageIsError = true
    }

    /// Another article laid out and searched without leaving this one; nil when it has no match.
    private func searchArticle(_ index: Int, query: String) -> (ArticleText, [SearchMatch])? {
        guard content.readingOrder.indices.contains(index), !content.readingOrder[index].isPicture,
              let document = try? ArticleDocument.load(content.readingOrder[index], in: root),
              Search.mayContain(document, query) else { return nil }
        let laidOut = ArticleText(document: document, width: columnWidth)
        let matches = laidOut.matches(of: query)
        return matches.isEmpty ? nil : (laidOut, matches)
    }

    private func select(_ index: Int, of matches: [SearchMatch]) {
        currentMatch = (article, index)
        let line = matches[index].line
        if line < top || line >= top + visibleRows {
            top = max(0, line - visibleRows / 3)
            if let text {
                text.ensureLines(top + visibleRows + 1)
                top = min(top, max(0, text.lines.count - visibleRows))
            }
        }
        message = "“\(query ?? "")”: match \(index + 1) of \(matches.count) in this article"
    }

    /// Paints the visible matches: the current one in the selection colours, the others in
    /// the reader's match colours; the text stays as it is.
    func drawMatches(left: Int, into canvas: inout Canvas) {
        guard query != nil, mode != .searchPrompt || matchCache != nil else { return }
        let matches = currentMatches()
        guard !matches.isEmpty else { return }
        var low = 0, high = matches.count
        while low < high {
            let middle = (low + high) / 2
            if matches[middle].line < top { low = middle + 1 } else { high = middle }
        }
        for index in low..<matches.count {
            let match = matches[index]
            guard match.line < top + visibleRows else { break }
            let current = currentMatch.map { $0.article == article && $0.index == index } ?? false
            let style = current ? theme.selection : theme.readerMatch
            let y = 2 + match.line - top
            for x in (left + match.column)..<(left + match.column + match.length) where x >= 0 && x < canvas.width {
                var cell = canvas[x, y]
                cell.style = Style(foreground: style.foreground, background: style.background,
                                   attributes: cell.style.attributes.union(style.attributes))
                canvas[x, y] = cell
            }
        }
    }
}
