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
    /// The issue's own table of contents (EPUB nav or NCX, a comic's chapters, a PDF's
    /// outline), entries pointing outside the reading order left out; every article it does
    /// not name is added in reading order under its own title (first heading), so each can
    /// be reached. A document's pages are named by their whole path (`issue.pdf#page=3`).
    static func entries(for content: IssueContent, root: URL) -> [ContentsEntry] {
        var articleByPath: [String: Int] = [:]
        for (index, resource) in content.readingOrder.enumerated() where articleByPath[resource.path] == nil {
            articleByPath[resource.path] = index
        }
        var entries: [ContentsEntry] = []
        func add(_ toc: [TOCEntry], depth: Int) {
            for entry in toc {
                let page = articleByPath[entry.path]
                let parts = page != nil ? [Substring(entry.path)]
                    : entry.path.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = parts.first.map(String.init) ?? ""
                if let article = page ?? articleByPath[path] ?? articleByPath[path.removingPercentEncoding ?? path] {
                    let title = Sanitizer.clean(entry.title).trimmingCharacters(in: .whitespaces)
                    entries.append(ContentsEntry(title: title.isEmpty ? "Article \(article + 1)" : title, depth: min(depth, 6),
                                                 article: article, fragment: parts.count > 1 ? String(parts[1]) : nil))
                }
                add(entry.children, depth: depth + 1)
            }
        }
        add(content.tableOfContents, depth: 0)
        // Comics list chapters and PDFs their outline; their pages need no entries of their own.
        let isPaged = content.format == .cbz || content.readingOrder.contains { PagePath($0.path) != nil }
        if isPaged && !entries.isEmpty { return entries }
        let named = Set(entries.map(\.article))
        for (index, resource) in content.readingOrder.enumerated() where !named.contains(index) {
            // Pages without chapters or an outline are listed as pages.
            let title = isPaged ? PagePlace.title(index, label: resource.label)
                : Sanitizer.clean(IssueReader.articleTitle(resource.path, in: root))
            let entry = ContentsEntry(title: title.isEmpty ? "Article \(index + 1)" : title, depth: 0, article: index, fragment: nil)
            let position = entries.firstIndex { $0.article > index } ?? entries.count
            entries.insert(entry, at: position)
        }
        return entries
    }
}

/// The table of contents over the page (`t`): the entries, the one chosen, and the first
/// one shown. Enter opens the chosen entry; q, Escape and the like go back.
struct ContentsList {
    let entries: [ContentsEntry]
    /// The article or page being read, marked in the list.
    let current: Int
    private(set) var selection: Int
    private(set) var scroll = 0
    /// The list's title: the same list shows the issue's highlights (`H`).
    var heading = "Contents"

    enum Outcome: Equatable { case stay, close, open(ContentsEntry) }

    /// Opens on the entry of the article being read; nil when the issue lists nothing.
    init?(entries: [ContentsEntry], current: Int) {
        guard !entries.isEmpty else { return nil }
        self.entries = entries
        self.current = current
        selection = entries.lastIndex { $0.article <= current && $0.fragment == nil }
            ?? entries.lastIndex { $0.article <= current } ?? 0
    }

    /// Rows of entries in a frame: below the "Contents" heading and a blank row.
    static func rows(in frame: ReaderFrame) -> Int { max(1, frame.visibleRows - 2) }

    mutating func update(_ key: Key, in frame: ReaderFrame) -> Outcome {
        let page = max(1, frame.visibleRows - 3)
        var outcome = Outcome.stay
        switch key {
        case .up, .character("k"): selection -= 1
        case .down, .character("j"), .tab: selection += 1
        case .pageUp, .character("b"): selection -= page
        case .pageDown, .character(" "): selection += page
        case .home, .character("g"): selection = 0
        case .end, .character("G"): selection = entries.count - 1
        case .enter, .right, .character("l"):
            outcome = entries.indices.contains(selection) ? .open(entries[selection]) : .close
        case .character("q"), .escape, .character("t"), .backspace, .left, .character("h"):
            outcome = .close
        default:
            break
        }
        selection = max(0, min(entries.count - 1, selection))
        fitScroll(rows: Self.rows(in: frame))
        return outcome
    }

    /// Keeps the chosen entry among the rows shown.
    mutating func fitScroll(rows: Int) {
        if selection < scroll { scroll = selection }
        if selection >= scroll + rows { scroll = selection - rows + 1 }
        scroll = max(0, min(scroll, max(0, entries.count - rows)))
    }

    func render(into canvas: inout Canvas, frame: ReaderFrame, column: Int, theme: Theme) {
        let column = min(max(30, column), canvas.width - 4)
        let left = (canvas.width - column) / 2
        canvas.put(heading, x: left, y: 2, style: theme.readerHeading.with(.bold))
        let firstRow = 4
        let rows = Self.rows(in: frame)
        for row in 0..<rows {
            let index = scroll + row
            guard index < entries.count else { break }
            let entry = entries[index]
            let y = firstRow + row
            let selected = index == selection
            let style = selected ? theme.selection : (entry.depth == 0 ? theme.readerText.with(.bold) : theme.readerText)
            if selected { canvas.fill(Rect(x: left, y: y, width: column, height: 1), with: Cell(glyph: " ", style: theme.selection)) }
            let marker = entry.article == current ? "▸ " : "  "
            let indent = 2 * entry.depth
            canvas.put(marker, x: left, y: y, style: selected ? theme.selection : theme.readerQuote)
            let room = max(1, column - 2 - indent)
            canvas.put(DisplayWidth.truncate(entry.title, to: room), x: left + 2 + indent, y: y, style: style, limit: left + column)
        }
        if entries.count > rows {
            let more = "\(selection + 1) of \(entries.count)"
            canvas.put(more, x: left + column - DisplayWidth.of(more), y: 2, style: theme.readerQuote)
        }
    }
}
