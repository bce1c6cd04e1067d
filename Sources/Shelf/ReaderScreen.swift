import Foundation
import Imaging
import IssueArchive
import NewsstandKit
import Terminal
import TextLayout

/// Where a reader was in an issue; stored as JSON in the library.
struct ReadingPosition: Codable, Equatable {
    var article: Int
    var line: Int
}

/// The reader: one article (or comic page) at a time, wrapped to a readable column.
final class ReaderScreen {
    let issue: Issue
    let content: IssueContent
    let root: URL
    let painter: CoverPainter
    let theme: Theme
    private(set) var article = 0
    private(set) var top = 0
    private var lines: [LayoutLine] = []
    private var layoutWidth = 0
    private var document: TextDocument?
    private var loadError: String?

    init(issue: Issue, library: Library, painter: CoverPainter, theme: Theme) throws {
        self.issue = issue
        root = library.contentDirectory(for: issue)
        content = try IssueReader.open(directory: root)
        self.painter = painter
        self.theme = theme
        if let saved = issue.readingPosition.flatMap({ try? JSONDecoder().decode(ReadingPosition.self, from: Data($0.utf8)) }) {
            article = max(0, min(saved.article, max(0, content.readingOrder.count - 1)))
            top = max(0, saved.line)
        }
        loadArticle()
    }

    var isComic: Bool { content.format == .cbz }
    var articleCount: Int { content.readingOrder.count }

    // MARK: Position

    func savePosition(library: Library) {
        let position = ReadingPosition(article: article, line: top)
        guard let data = try? JSONEncoder().encode(position) else { return }
        let within = lines.isEmpty ? 0 : Double(top) / Double(max(1, lines.count))
        let progress = articleCount == 0 ? 0 : (Double(article) + within) / Double(articleCount)
        try? library.saveReadingPosition(issue, position: String(decoding: data, as: UTF8.self), progress: progress)
    }

    // MARK: Input

    func handle(_ key: Key, height: Int) {
        let page = max(1, textHeight(height) - 1)
        switch key {
        case .down, .character("j"), .enter: scroll(by: 1, height: height)
        case .up, .character("k"): scroll(by: -1, height: height)
        case .pageDown, .character(" "), .character("f"): pageForward(page, height: height)
        case .pageUp, .character("b"): scroll(by: -page, height: height)
        case .character("g"), .home: top = 0
        case .character("G"), .end: top = max(0, lines.count - textHeight(height))
        case .right, .character("l"), .character("]"): goTo(article: article + (isComic && content.rightToLeft ? -1 : 1))
        case .left, .character("h"), .character("["): goTo(article: article - (isComic && content.rightToLeft ? -1 : 1))
        default: break
        }
    }

    func scroll(by delta: Int, height: Int) {
        if isComic { goTo(article: article + (delta > 0 ? 1 : -1)); return }
        top = max(0, min(max(0, lines.count - textHeight(height)), top + delta))
    }

    private func pageForward(_ page: Int, height: Int) {
        if isComic || top + textHeight(height) >= lines.count {
            if article + 1 < articleCount { goTo(article: article + 1) }
            return
        }
        scroll(by: page, height: height)
    }

    private func goTo(article next: Int) {
        guard next >= 0, next < articleCount, next != article else { return }
        article = next
        top = 0
        loadArticle()
    }

    private func textHeight(_ height: Int) -> Int { max(1, height - 4) }

    // MARK: Loading and layout

    private func loadArticle() {
        document = nil
        loadError = nil
        layoutWidth = 0
        guard content.readingOrder.indices.contains(article) else { loadError = "This issue has no articles."; return }
        if isComic { return }
        let resource = content.readingOrder[article]
        do {
            let file = try IssueReader.resolve(resource.path, in: root)
            let data = try Data(contentsOf: file)
            let text = String(decoding: data, as: UTF8.self)
            let type = resource.mediaType.lowercased()
            let ext = file.pathExtension.lowercased()
            if type.contains("markdown") || ext == "md" || ext == "markdown" {
                document = MarkdownReader.document(markdown: text)
            } else if type.hasPrefix("text/plain") || ext == "txt" {
                document = PlainTextReader.document(text: text)
            } else if type.hasPrefix("image/") {
                document = TextDocument(title: nil, blocks: [.image(source: (resource.path as NSString).lastPathComponent, alt: "")], anchors: [:])
            } else {
                document = HTMLReader.document(html: text)
            }
        } catch {
            loadError = "cannot read \(resource.path): \(error)"
        }
    }

    private func layout(width: Int) {
        guard layoutWidth != width, let document else { return }
        layoutWidth = width
        lines = Layout.lines(for: document, width: width)
        top = min(top, max(0, lines.count - 1))
    }

    private var articleTitle: String {
        if let title = document?.title, !title.isEmpty { return title }
        let path = content.readingOrder.indices.contains(article) ? content.readingOrder[article].path : ""
        return content.tableOfContents.first { $0.path.split(separator: "#").first.map(String.init) == path }?.title ?? ""
    }

    // MARK: Drawing

    func draw(into canvas: inout Canvas, theme: Theme) {
        let width = canvas.width
        let height = canvas.height
        let paper = Cell(glyph: " ", style: theme.readerText)
        canvas.fill(Rect(x: 0, y: 0, width: width, height: height - 2), with: paper)
        let header = Sanitizer.clean(content.metadata.title ?? issue.title)
        canvas.fill(Rect(x: 0, y: 0, width: width, height: 1), with: Cell(glyph: " ", style: theme.statusLine))
        canvas.put(" " + DisplayWidth.truncate(header, to: width / 2), x: 0, y: 0, style: theme.statusLine.with(.bold))

        if let loadError {
            canvas.put(loadError, x: 2, y: 2, style: theme.error, limit: width - 2)
            return
        }
        if isComic {
            drawPlace("page \(article + 1) of \(articleCount)", into: &canvas)
            drawPage(into: &canvas, width: width, height: height)
            return
        }
        let column = min(80, width - 4)
        let left = (width - column) / 2
        layout(width: column)
        let visible = textHeight(height)
        for row in 0..<visible {
            let index = top + row
            guard index < lines.count else { break }
            drawLine(lines[index], x: left, y: 2 + row, width: column, into: &canvas)
        }
        // Where the reader is: article of the issue, and how far through it.
        let percent = lines.isEmpty ? 100 : min(100, (top + visible) * 100 / max(1, lines.count))
        drawPlace("article \(article + 1) of \(articleCount) · \(percent)%", into: &canvas)
    }

    private func drawPlace(_ text: String, into canvas: inout Canvas) {
        canvas.put(text, x: max(0, canvas.width - DisplayWidth.of(text) - 1), y: 0, style: theme.statusLine)
    }

    private func drawLine(_ line: LayoutLine, x: Int, y: Int, width: Int, into canvas: inout Canvas) {
        switch line.kind {
        case .blank:
            return
        case .rule:
            canvas.put(String(repeating: "─", count: width / 3), x: x + width / 3, y: y, style: theme.readerQuote)
        case .image(let source, let alt, let rows, let row):
            drawImageRow(source: source, alt: alt, rows: rows, row: row, x: x + line.indent, y: y, width: width - line.indent, into: &canvas)
        case .text:
            var column = x + line.indent
            for span in line.spans {
                column = canvas.put(span.text, x: column, y: y, style: style(for: span.style), limit: x + width + 1)
            }
        }
    }

    private func style(for textStyle: TextStyle) -> Style {
        var style = theme.readerText
        if textStyle.contains(.heading) { style = theme.readerHeading }
        if textStyle.contains(.quote) { style = theme.readerQuote }
        if textStyle.contains(.code) { style = theme.readerCode }
        if textStyle.contains(.link) { style = theme.readerLink }
        if textStyle.contains(.bold) { style.attributes.insert(.bold) }
        if textStyle.contains(.italic) { style.attributes.insert(.italic) }
        if textStyle.contains(.underline) { style.attributes.insert(.underline) }
        if textStyle.contains(.strike) { style.attributes.insert(.strike) }
        return style
    }

    private func drawImageRow(source: String, alt: String, rows: Int, row: Int, x: Int, y: Int, width: Int, into canvas: inout Canvas) {
        guard let file = imageFile(source), let picture = painter.picture(file: file, columns: width, rows: rows) else {
            if row == 0 { canvas.put("[image: \(Sanitizer.clean(alt))]", x: x, y: y, style: theme.readerQuote, limit: x + width) }
            return
        }
        guard row < picture.rows else { return }
        let offset = (width - picture.columns) / 2
        for column in 0..<picture.columns {
            let cell = picture[column, row]
            canvas[x + offset + column, y] = Cell(
                glyph: String(cell.glyph),
                style: Style(foreground: CoverPainter.color(cell.foreground) ?? theme.readerText.background,
                             background: CoverPainter.color(cell.background) ?? theme.readerText.background))
        }
    }

    /// An image link inside the current article, resolved inside the issue; nil if it
    /// would leave the issue or does not exist.
    private func imageFile(_ source: String) -> URL? {
        guard content.readingOrder.indices.contains(article),
              let file = try? IssueReader.resolve(link: source, from: content.readingOrder[article].path, in: root),
              FileManager.default.fileExists(atPath: file.path) else { return nil }
        return file
    }

    private func drawPage(into canvas: inout Canvas, width: Int, height: Int) {
        let resource = content.readingOrder[article]
        guard let file = try? IssueReader.resolve(resource.path, in: root) else { return }
        let rows = height - 4
        if let picture = painter.picture(file: file, columns: width - 2, rows: rows) {
            let x = (width - picture.columns) / 2
            let y = 1 + (rows - picture.rows) / 2 + 1
            CoverPainter.draw(picture, into: &canvas, x: x, y: y, behind: theme.readerText)
        } else {
            canvas.put("Drawing the page…", x: 2, y: 2, style: theme.readerQuote)
        }
    }
}
