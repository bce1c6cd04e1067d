import Foundation
import IssueArchive
import TextLayout

/// A link's place on screen: its laid-out line and the span on it.
struct LinkPlace: Equatable {
    var line: Int
    var span: Int
}

/// Links and footnotes in reflowed text: Tab and Shift-Tab choose one of those on screen,
/// Enter follows it (a note in this article, a place in another), Backspace comes back.
extension TextPager {
    /// The links on screen in reading order; a link wrapped over two lines counts once.
    var linksOnScreen: [LinkPlace] {
        guard let text else { return [] }
        var places: [LinkPlace] = []
        var previous: (target: String, line: Int)?
        for line in top..<min(text.lines.count, top + visibleRows) {
            for (index, span) in text.lines[line].spans.enumerated() {
                guard let target = span.link else { previous = nil; continue }
                if let previous, previous.target == target, previous.line >= line - 1 { continue }
                places.append(LinkPlace(line: line, span: index))
                previous = (target, line)
            }
        }
        return places
    }

    /// Says how to reach the links on screen, until one is chosen.
    var idleNote: String? {
        guard chosenLink == nil else { return nil }
        let count = linksOnScreen.count
        return count == 0 ? nil : count == 1 ? "Tab chooses the link on screen" : "Tab chooses one of \(count) links on screen"
    }

    mutating func chooseLink(forward: Bool) -> ReaderNote {
        let links = linksOnScreen
        guard !links.isEmpty else {
            chosenLink = nil
            return ReaderNote(text: "No links or footnotes on this screen.")
        }
        let position = chosenLink.flatMap { chosen in links.firstIndex(of: chosen) }
        let next = position.map { (forward ? $0 + 1 : $0 - 1 + links.count) % links.count } ?? (forward ? 0 : links.count - 1)
        chosenLink = links[next]
        let target = text?.lines[links[next].line].spans[links[next].span].link ?? ""
        return ReaderNote(text: "Link \(next + 1) of \(links.count): \(target)")
    }

    /// The chosen link when it leads out of the issue to what a browser opens.
    var chosenOutsideLink: String? {
        guard let chosen = chosenLink, let href = text?.lines[chosen.line].spans[chosen.span].link else { return nil }
        return browserLink(href)
    }

    /// `href`, written in the article shown, when it leads out of the issue to what a browser
    /// opens (`o`, and the terminal's own hyperlinks); nil for a place in the issue and for
    /// any other scheme.
    func browserLink(_ href: String) -> String? {
        guard Self.opensInBrowser(href), content.readingOrder.indices.contains(index),
              IssueReader.bookPath(ofLink: href, from: content.readingOrder[index].path) == nil else { return nil }
        return href
    }

    /// Whether a browser is given this link: http, https and mailto only (never a file,
    /// a script or another program's scheme).
    static func opensInBrowser(_ href: String) -> Bool {
        guard let colon = href.firstIndex(of: ":") else { return false }
        return ["http", "https", "mailto"].contains(href[..<colon].lowercased())
    }

    /// Opens where the chosen link leads, remembering where the reader was. A link out of
    /// the issue stays chosen, for `o` (open in the browser) and `y` (copy).
    mutating func followChosenLink() -> ReaderNote? {
        guard let chosen = chosenLink, let href = text?.lines[chosen.line].spans[chosen.span].link,
              content.readingOrder.indices.contains(index) else { return nil }
        guard let target = IssueReader.bookPath(ofLink: href, from: content.readingOrder[index].path) else {
            guard Self.opensInBrowser(href) else {
                chosenLink = nil
                return ReaderNote(text: "This link leads outside the issue: \(href)")
            }
            return ReaderNote(text: "This link leads outside the issue: o opens it in the browser, y copies it: \(href)")
        }
        chosenLink = nil
        let path = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        let fragment = target.firstIndex(of: "#").map { String(target[target.index(after: $0)...]) }
        guard let article = content.readingOrder.firstIndex(where: { $0.path == path }) else {
            return ReaderNote(text: "This link leads to a file the issue does not show: \(href)", isError: true)
        }
        linkTrail.append((index, topAnchor))
        open(ContentsEntry(title: "", depth: 0, article: article, fragment: fragment.flatMap { $0.isEmpty ? nil : $0 }))
        return ReaderNote(text: "Backspace goes back to where you were.")
    }

    /// Back to where the last followed link was chosen.
    mutating func goBack() -> ReaderNote? {
        guard let last = linkTrail.popLast() else { return nil }
        if last.article != index { goTo(article: last.article) }
        relayout(at: last.anchor)
        return nil
    }
}
