import Foundation
import IssueArchive
import Terminal
import TextLayout

/// One line of the reader's table of contents.
struct ContentsEntry: Equatable {
    var title: String
    var depth: Int
    /// Index in the issue's reading order.
    var article: Int
    var fragment: String?
}

extension ContentsEntry {
    /// The issue's own table of contents (EPUB nav or NCX, a comic's chapters), entries
    /// pointing outside the reading order left out; every article it does not name is added
    /// in reading order under its own title (first heading), so each can be reached.
    static func entries(for content: IssueContent, root: URL) -> [ContentsEntry] {
        var articleByPath: [String: Int] = [:]
        for (index, resource) in content.readingOrder.enumerated() where articleByPath[resource.path] == nil {
            articleByPath[resource.path] = index
        }
        var entries: [ContentsEntry] = []
        func add(_ toc: [TOCEntry], depth: Int) {
            for entry in toc {
                let parts = entry.path.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = parts.first.map(String.init) ?? ""
                if let article = articleByPath[path] ?? articleByPath[path.removingPercentEncoding ?? path] {
                    let title = Sanitizer.clean(entry.title).trimmingCharacters(in: .whitespaces)
                    entries.append(ContentsEntry(title: title.isEmpty ? "Article \(article + 1)" : title, depth: min(depth, 6),
                                                 article: article, fragment: parts.count > 1 ? String(parts[1]) : nil))
                }
                add(entry.children, depth: depth + 1)
            }
        }
        add(content.tableOfContents, depth: 0)
        // Comics list chapters; their pages need no entries of their own.
        if content.format == .cbz && !entries.isEmpty { return entries }
        let named = Set(entries.map(\.article))
        for (index, resource) in content.readingOrder.enumerated() where !named.contains(index) {
            // A comic without chapters lists its pages.
            let title = content.format == .cbz ? "Page \(index + 1)" : Sanitizer.clean(IssueReader.articleTitle(resource.path, in: root))
            let entry = ContentsEntry(title: title.isEmpty ? "Article \(index + 1)" : title, depth: 0, article: index, fragment: nil)
            let position = entries.firstIndex { $0.article > index } ?? entries.count
            entries.insert(entry, at: position)
        }
        return entries
    }
}

extension ReaderScreen {
    var contents: [ContentsEntry] {
        if let contentsEntries { return contentsEntries }
        let entries = ContentsEntry.entries(for: content, root: root)
        contentsEntries = entries
        return entries
    }

    /// `t`: the list opens on the entry of the article being read.
    func openContents() {
        let entries = contents
        guard !entries.isEmpty else { message = "This issue has no table of contents."; return }
        mode = .contents
        contentsSelection = entries.lastIndex { $0.article <= article && $0.fragment == nil }
            ?? entries.lastIndex { $0.article <= article } ?? 0
    }

    func handleContentsKey(_ key: Key) -> Bool {
        let entries = contents
        let page = max(1, visibleRows - 3)
        switch key {
        case .up, .character("k"): contentsSelection -= 1
        case .down, .character("j"), .tab: contentsSelection += 1
        case .pageUp, .character("b"): contentsSelection -= page
        case .pageDown, .character(" "): contentsSelection += page
        case .home, .character("g"): contentsSelection = 0
        case .end, .character("G"): contentsSelection = entries.count - 1
        case .enter, .right, .character("l"):
            if entries.indices.contains(contentsSelection) { jump(to: entries[contentsSelection]) }
            mode = .reading
        case .character("q"), .escape, .character("t"), .backspace, .left, .character("h"):
            mode = .reading
        case .character("Q"), .character("?"):
            return false
        default:
            break
        }
        contentsSelection = max(0, min(entries.count - 1, contentsSelection))
        return true
    }

    /// Opens the entry's article at the entry's fragment (or its start, or a comic's page).
    func jump(to entry: ContentsEntry) {
        if entry.article != article {
            goTo(article: entry.article)
        } else {
            top = 0
        }
        guard let fragment = entry.fragment, !isComic else { return }
        if document?.anchors[fragment] == nil { adoptWholeDocument(wait: true) }
        guard let block = document?.anchors[fragment] else { return }
        pendingAnchor = nil
        if let text = prepareText(), let line = text.firstLine(ofBlock: block) {
            top = line
            text.ensureLines(top + visibleRows + 1)
        }
    }

    func drawContents(into canvas: inout Canvas) {
        let entries = contents
        let width = canvas.width
        let column = min(max(30, columnWidth), width - 4)
        let left = (width - column) / 2
        canvas.put("Contents", x: left, y: 2, style: theme.readerHeading.with(.bold))
        let firstRow = 4
        let rows = max(1, visibleRows - 2)
        if contentsSelection < contentsScroll { contentsScroll = contentsSelection }
        if contentsSelection >= contentsScroll + rows { contentsScroll = contentsSelection - rows + 1 }
        contentsScroll = max(0, min(contentsScroll, max(0, entries.count - rows)))
        for row in 0..<rows {
            let index = contentsScroll + row
            guard index < entries.count else { break }
            let entry = entries[index]
            let y = firstRow + row
            let selected = index == contentsSelection
            let style = selected ? theme.selection : (entry.depth == 0 ? theme.readerText.with(.bold) : theme.readerText)
            if selected { canvas.fill(Rect(x: left, y: y, width: column, height: 1), with: Cell(glyph: " ", style: theme.selection)) }
            let marker = entry.article == article ? "▸ " : "  "
            let indent = 2 * entry.depth
            canvas.put(marker, x: left, y: y, style: selected ? theme.selection : theme.readerQuote)
            let room = max(1, column - 2 - indent)
            canvas.put(DisplayWidth.truncate(entry.title, to: room), x: left + 2 + indent, y: y, style: style, limit: left + column)
        }
        if entries.count > rows {
            let more = "\(contentsSelection + 1) of \(entries.count)"
            canvas.put(more, x: left + column - DisplayWidth.of(more), y: 2, style: theme.readerQuote)
        }
    }
}
