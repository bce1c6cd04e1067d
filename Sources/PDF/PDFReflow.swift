import TextLayout

/// A PDF page's text layer reflowed into text to read: characters into lines, lines into
/// headings and paragraphs in reading order by columns, running headers, footers and page
/// numbers left out, pictures as image blocks where they stand. Pure: the caller fetches
/// the page and its neighbours.
public enum PDFReflow {
    /// The pages around a page whose text tells its running headers and footers apart:
    /// two each way, as headers often alternate between left and right pages.
    public static let neighbourOffsets = [-2, -1, 1, 2]

    /// Page `index` (0 is the first) as blocks to read. `neighbours` are the texts of the
    /// pages at `neighbourOffsets` that exist (their headers, footers and sizes are compared).
    /// A turned page is read upright.
    public static func document(of shown: PDFPageText, index: Int, neighbours: [PDFPageText] = []) -> TextDocument {
        guard !shown.isEmpty else { return TextDocument() }
        let page = shown.upright
        let running = RunningLines(neighbours: neighbours)
        let all = ReflowLine.lines(of: page.characters)
        var lines = all.filter { !running.isRunning($0, pageHeight: page.size.height) }
        // A page whose only words are those its neighbours repeat (every page one line at the
        // top) is read, not left blank; a page number alone still is.
        if lines.isEmpty { lines = all.filter { !RunningLines.isPageLabel($0.text) } }
        guard !lines.isEmpty else { return TextDocument() }
        let sizes = FontSizes(pages: [page] + neighbours)
        let frame = Frame(lines: lines, page: page.size)
        // A figure is placed upright and shown cut from the page as it is drawn.
        let figures = zip(page.figures, shown.figures).map { (upright: $0, drawn: $1) }.filter { candidate in
            let figure = candidate.upright
            // Specks (rules, bullets) and a picture under the whole page (a scan's image
            // below its recognised text) are not figures to show between paragraphs.
            let width = figure.x1 - figure.x0, height = figure.y1 - figure.y0
            return width >= 16 && height >= 16 && width * height < 0.8 * page.size.width * page.size.height
        }
        var items: [ReflowItem] = lines.map { .line($0) } + figures.map { .figure($0.upright, drawn: $0.drawn) }
        let boxes = items.map { frame.place($0.box) }
        let order = ReadingOrder(bodySize: sizes.body).order(boxes)
        items = order.map { items[$0] }
        var paragraphs = Paragraphs(sizes: sizes, frame: frame, words: HyphenEvidence(pages: [page] + neighbours))
        for item in items {
            switch item {
            case .line(let line): paragraphs.add(line)
            case .figure(_, let box):
                let width = max(shown.size.width, 1), height = max(shown.size.height, 1)
                paragraphs.add(figure: PageFigure(page: index, x0: box.x0 / width, y0: box.y0 / height, x1: box.x1 / width, y1: box.y1 / height))
            }
        }
        return TextDocument(blocks: paragraphs.finish())
    }
}

extension PDFReflow {
    /// The page's lines as search reads them: each in the order it is read (right-to-left
    /// words in logical order, a turned page upright), one a line, in the order the PDF gives.
    public static func lines(of page: PDFPageText) -> String {
        ReflowLine.lines(of: page.upright.characters).map(\.text).joined(separator: "\n")
    }
}

/// A line or a figure, as the reading order places it.
enum ReflowItem {
    case line(ReflowLine)
    /// Where it stands upright, and where it is drawn on the page as shown.
    case figure(PDFRect, drawn: PDFRect)

    var box: PDFRect {
        switch self {
        case .line(let line): return line.box
        case .figure(let box, _): return box
        }
    }
}

/// The way a page is read, as a change of coordinates after which text runs left to right
/// and lines go down: right-to-left pages are mirrored, vertical ones turned a quarter.
struct Frame {
    enum Direction { case leftToRight, rightToLeft, vertical }
    let direction: Direction
    let width: Double

    init(lines: [ReflowLine], page: PDFSize) {
        width = page.width > 0 ? page.width : (lines.map(\.box.x1).max() ?? 0)
        let count = { (lines: [ReflowLine]) in lines.reduce(0) { $0 + $1.glyphs.count } }
        let vertical = count(lines.filter(\.vertical)), all = count(lines)
        if vertical * 2 > all {
            direction = .vertical
        } else {
            let rightToLeft = count(lines.filter { !$0.vertical && $0.rightToLeft })
            direction = rightToLeft * 2 > all ? .rightToLeft : .leftToRight
        }
    }

    func place(_ box: PDFRect) -> PDFRect {
        switch direction {
        case .leftToRight: return box
        case .rightToLeft: return PDFRect(x0: width - box.x1, y0: box.y0, x1: width - box.x0, y1: box.y1)
        case .vertical: return PDFRect(x0: box.y0, y0: width - box.x1, x1: box.y1, y1: width - box.x0)
        }
    }
}

/// The page's font sizes: the body's (the size most characters have) and the larger ones
/// that make headings, ranked from the largest (level 1).
struct FontSizes {
    let body: Double
    private let headings: [Double]

    init(pages: [PDFPageText]) {
        var counts: [Double: Int] = [:]
        for page in pages {
            for character in page.characters where !character.isSpace && character.fontSize > 0 {
                counts[(character.fontSize * 2).rounded() / 2, default: 0] += 1
            }
        }
        let body = counts.max { $0.value == $1.value ? $0.key > $1.key : $0.value < $1.value }?.key ?? 10
        self.body = body
        headings = counts.filter { $0.key >= body * 1.15 && $0.value >= 2 }.keys.sorted(by: >)
    }

    /// The heading level of text of `size` (1 the largest), nil for body text.
    func level(of size: Double) -> Int? {
        guard size >= body * 1.15, let rank = headings.firstIndex(where: { abs($0 - size) < 0.26 }) else { return nil }
        return min(rank + 1, 6)
    }
}
