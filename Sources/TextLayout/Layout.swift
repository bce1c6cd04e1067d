import Dispatch

/// One line of laid-out text, ready to be drawn from column 0 of the text column.
public struct LayoutLine: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case text
        /// A separator between blocks. Inside a quote its spans hold the quote bar.
        case blank
        /// A horizontal rule; its spans draw it with `─`.
        case rule
        /// One of the `rows` lines an image takes; `row` says which. `spans` hold only the
        /// markers before the picture (a quote bar); the picture starts at column
        /// `indent + DisplayWidth.of(spans)` and is `imageColumns` wide.
        case image(source: String, alt: String, rows: Int, row: Int)
    }

    public var kind: Kind
    public var spans: [StyledSpan]
    /// Leading blank columns.
    public var indent: Int
    /// Index of the top-level block of `TextDocument.blocks` this line belongs to.
    public var blockIndex: Int
    /// For image lines, the width of the picture in columns; 0 otherwise.
    public var imageColumns: Int

    public init(kind: Kind, spans: [StyledSpan], indent: Int, blockIndex: Int, imageColumns: Int = 0) {
        self.kind = kind
        self.spans = spans
        self.indent = indent
        self.blockIndex = blockIndex
        self.imageColumns = imageColumns
    }

    /// Display width including the indent (and the picture, for image lines).
    public var width: Int {
        var total = indent + imageColumns
        for span in spans { total += DisplayWidth.of(span.text) }
        return total
    }

    /// The line as plain text: indent spaces, then the spans' text.
    public var text: String {
        var out = String(repeating: " ", count: indent)
        for span in spans { out += span.text }
        return out
    }
}

/// Pixel dimensions of an image, when the reader knows them.
public struct PixelSize: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

public struct LayoutOptions: Hashable, Sendable {
    /// Columns available to the text.
    public var width: Int
    /// Known image sizes by `source`; an image of unknown size gets `defaultImageAspect`.
    public var imageSizes: [String: PixelSize]
    /// Height over width of an image whose size is unknown.
    public var defaultImageAspect: Double
    /// A terminal cell's height over its width.
    public var cellAspect: Double
    /// The most rows an image may take (0: no limit).
    public var maximumImageRows: Int

    public init(
        width: Int, imageSizes: [String: PixelSize] = [:], defaultImageAspect: Double = 0.75,
        cellAspect: Double = 2.0, maximumImageRows: Int = 40
    ) {
        self.width = width
        self.imageSizes = imageSizes
        self.defaultImageAspect = defaultImageAspect
        self.cellAspect = cellAspect
        self.maximumImageRows = maximumImageRows
    }

    /// Columns and rows an image takes when at most `columns` are free: as wide as the
    /// text (or its own pixel width if smaller), as tall as its aspect ratio asks.
    public func imageBox(for source: String, columns: Int) -> (columns: Int, rows: Int) {
        let available = max(1, columns)
        var imageColumns = available
        var aspect = defaultImageAspect
        if let size = imageSizes[source], size.width > 0, size.height > 0 {
            imageColumns = min(available, size.width)
            aspect = Double(size.height) / Double(size.width)
        }
        let rowsWanted = Double(imageColumns) * aspect / max(0.1, cellAspect)
        var rows = max(1, Int(rowsWanted + 0.5))
        if maximumImageRows > 0 && rows > maximumImageRows {
            rows = maximumImageRows
            // Narrower, so the picture keeps its shape within the rows allowed.
            imageColumns = max(1, min(imageColumns, Int(Double(rows) * max(0.1, cellAspect) / aspect + 0.5)))
        }
        return (imageColumns, rows)
    }
}

/// Lays blocks out into lines no wider than a width, by display width.
public enum Layout {
    public static func lines(for document: TextDocument, width: Int) -> [LayoutLine] {
        lines(for: document, options: LayoutOptions(width: width))
    }

    public static func lines(for document: TextDocument, options: LayoutOptions) -> [LayoutLine] {
        let blocks = document.blocks
        // Blocks lay out independently: a long document is split among the cores.
        let chunkCount = blocks.count >= 256 ? 8 : 1
        if chunkCount == 1 { return lines(of: blocks, in: 0..<blocks.count, options: options) }
        let chunkSize = (blocks.count + chunkCount - 1) / chunkCount
        var chunks = [[LayoutLine]](repeating: [], count: chunkCount)
        chunks.withUnsafeMutableBufferPointer { results in
            // Unchecked: each iteration writes only its own slot, and concurrentPerform
            // returns after all of them, while the buffer is still valid.
            nonisolated(unsafe) let results = results
            DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
                let start = min(blocks.count, chunk * chunkSize)
                let end = min(blocks.count, start + chunkSize)
                results[chunk] = lines(of: blocks, in: start..<end, options: options)
            }
        }
        var all: [LayoutLine] = []
        all.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
        for chunk in chunks { all += chunk }
        return all
    }

    /// Lines of `document.blocks[range]` only, exactly as they appear in the whole
    /// document's layout: a reader lays out the first screen first and the rest on demand.
    public static func lines(for document: TextDocument, blocks range: Range<Int>, options: LayoutOptions) -> [LayoutLine] {
        let bounded = max(0, min(range.lowerBound, document.blocks.count))..<max(0, min(range.upperBound, document.blocks.count))
        return lines(of: document.blocks, in: bounded, options: options)
    }

    /// Lines of `blocks[range]`, each block after the first of the document preceded by a
    /// blank line that belongs to the block before it.
    static func lines(of blocks: [Block], in range: Range<Int>, options: LayoutOptions) -> [LayoutLine] {
        var layouter = Layouter(options: options)
        for index in range {
            if index > 0 {
                layouter.blockIndex = index - 1
                layouter.blank()
            }
            layouter.blockIndex = index
            layouter.layout(blocks[index], style: [])
        }
        return layouter.lines
    }
}

/// A marker before the lines of a nested block: a quote bar, or a list bullet on the
/// first line of its item and blank columns after.
struct PrefixPart {
    var first: String
    var rest: String
    var style: TextStyle
    var width: Int
    var used = false
}

struct Layouter {
    let options: LayoutOptions
    var lines: [LayoutLine] = []
    var blockIndex = 0
    private var prefix: [PrefixPart] = []
    private var prefixWidth = 0

    init(options: LayoutOptions) {
        self.options = options
    }

    /// Columns left for content after the prefix.
    private var available: Int { max(1, max(1, options.width) - prefixWidth) }

    // MARK: Prefixes

    private mutating func push(first: String, rest: String, style: TextStyle) {
        var width = DisplayWidth.of(first)
        // Deep nesting stops indenting once markers would take half the width.
        if prefixWidth + width > min(options.width / 2, options.width - 2) { width = 0 }
        let part = width == 0
            ? PrefixPart(first: "", rest: "", style: style, width: 0)
            : PrefixPart(first: first, rest: rest, style: style, width: width)
        prefix.append(part)
        prefixWidth += part.width
    }

    private mutating func pop() {
        if let part = prefix.popLast() { prefixWidth -= part.width }
    }

    /// The indent and marker spans for the next line.
    private mutating func takePrefix(blank: Bool = false) -> (indent: Int, spans: [StyledSpan]) {
        var indent = 0
        var spans: [StyledSpan] = []
        var onlySpaces = true
        for index in prefix.indices {
            let part = prefix[index]
            let text = part.used || blank ? part.rest : part.first
            if !blank { prefix[index].used = true }
            if text.isEmpty { continue }
            if onlySpaces && text.utf8.allSatisfy({ $0 == 0x20 }) {
                indent += text.utf8.count
                continue
            }
            onlySpaces = false
            if !spans.isEmpty, spans[spans.count - 1].style == part.style {
                spans[spans.count - 1].text += text
            } else {
                spans.append(StyledSpan(text, style: part.style))
            }
        }
        if blank, var last = spans.popLast() {
            while last.text.utf8.last == 0x20 { last.text.removeLast() }
            if !last.text.isEmpty { spans.append(last) }
            if spans.isEmpty { indent = 0 }
        }
        return (indent, spans)
    }

    // MARK: Lines

    mutating func blank() {
        let (indent, spans) = takePrefix(blank: true)
        lines.append(LayoutLine(kind: .blank, spans: spans, indent: spans.isEmpty ? 0 : indent, blockIndex: blockIndex))
    }

    private mutating func emit(_ kind: LayoutLine.Kind, _ content: [StyledSpan], imageColumns: Int = 0) {
        var (indent, spans) = takePrefix()
        if spans.isEmpty && content.isEmpty && imageColumns == 0, case .text = kind {
            // An empty line (inside code) carries no indent.
            indent = 0
        }
        for span in content where !span.text.isEmpty {
            if !spans.isEmpty, spans[spans.count - 1].style == span.style, spans[spans.count - 1].link == span.link {
                spans[spans.count - 1].text += span.text
            } else {
                spans.append(span)
            }
        }
        lines.append(LayoutLine(kind: kind, spans: spans, indent: indent, blockIndex: blockIndex, imageColumns: imageColumns))
    }

    // MARK: Blocks

    mutating func layout(_ block: Block, style: TextStyle) {
        switch block {
        case .paragraph(let spans):
            paragraph(spans, style: style)
        case .heading(_, let spans):
            paragraph(spans, style: style.union([.bold, .heading]))
        case .quote(let blocks):
            push(first: "│ ", rest: "│ ", style: style.union([.quote, .marker]))
            layoutSequence(blocks, style: style.union(.quote))
            pop()
        case .list(let ordered, let items):
            list(ordered: ordered, items: items, style: style)
        case .code(let text):
            code(text, style: style)
        case .rule:
            emit(.rule, [StyledSpan(String(repeating: "─", count: available), style: style.union(.marker))])
        case .image(let source, let alt):
            image(source: source, alt: alt)
        case .figure(let image, let caption):
            layout(image, style: style)
            if !caption.isEmpty {
                paragraph(caption, style: style.union([.caption, .italic]))
            }
        case .table(let rows):
            table(rows, style: style)
        }
    }

    private mutating func layoutSequence(_ blocks: [Block], style: TextStyle) {
        for (index, block) in blocks.enumerated() {
            if index > 0 {
                // A list right after a paragraph in a list item stays tight.
                var tight = false
                if case .list = block, case .paragraph = blocks[index - 1], isInsideList { tight = true }
                if !tight { blank() }
            }
            layout(block, style: style)
        }
    }

    private var listDepth = 0
    private var isInsideList: Bool { listDepth > 0 }

    private mutating func paragraph(_ spans: [StyledSpan], style: TextStyle) {
        let styled = style.isEmpty ? spans : spans.map { span in
            StyledSpan(span.text, style: span.style.union(style), link: span.link)
        }
        let wrapped = LineBreaker(spans: styled, columns: available).lines()
        for line in wrapped { emit(.text, line) }
    }

    private mutating func list(ordered: Bool, items: [[Block]], style: TextStyle) {
        let bullets = ["•", "◦", "▪", "‣"]
        let bullet = bullets[listDepth % bullets.count]
        let numberWidth = String(items.count).utf8.count
        listDepth += 1
        for (number, item) in items.enumerated() {
            let marker: String
            if ordered {
                let digits = String(number + 1)
                marker = String(repeating: " ", count: numberWidth - digits.utf8.count) + digits + ". "
            } else {
                marker = bullet + " "
            }
            push(first: marker, rest: String(repeating: " ", count: DisplayWidth.of(marker)), style: style.union(.marker))
            if item.isEmpty {
                emit(.text, [])
            } else {
                layoutSequence(item, style: style)
            }
            pop()
        }
        listDepth -= 1
    }

    private mutating func code(_ text: String, style: TextStyle) {
        let indented = options.width >= 30
        if indented { push(first: "  ", rest: "  ", style: []) }
        let room = available
        var start = text.startIndex
        while true {
            let end = text[start...].firstIndex(of: "\n") ?? text.endIndex
            var line = DisplayWidth.clip(String(text[start..<end]), to: room)
            while line.utf8.last == 0x20 { line.removeLast() }
            emit(.text, line.isEmpty ? [] : [StyledSpan(line, style: style.union(.code))])
            if end == text.endIndex { break }
            start = text.index(after: end)
        }
        if indented { pop() }
    }

    private mutating func image(source: String, alt: String) {
        let box = options.imageBox(for: source, columns: available)
        for row in 0..<box.rows {
            emit(.image(source: source, alt: alt, rows: box.rows, row: row), [], imageColumns: box.columns)
        }
    }

    private mutating func table(_ rows: [[[StyledSpan]]], style: TextStyle) {
        let columnCount = rows.map(\.count).max() ?? 0
        guard columnCount > 0 else { return }
        let separator = " │ "
        let room = available - (columnCount - 1) * DisplayWidth.of(separator)
        if room < columnCount * 3 {
            // Too narrow for columns: each row becomes a paragraph.
            for row in rows {
                var spans: [StyledSpan] = []
                for (index, cell) in row.enumerated() {
                    if index > 0 { spans.append(StyledSpan(separator, style: style.union(.marker))) }
                    spans += cell
                }
                paragraph(spans, style: style)
            }
            return
        }
        var natural = [Int](repeating: 1, count: columnCount)
        for row in rows {
            for (index, cell) in row.enumerated() {
                natural[index] = max(natural[index], cell.reduce(0) { $0 + DisplayWidth.of($1.text) })
            }
        }
        let widths = Self.columnWidths(natural: natural, room: room)
        for (rowIndex, row) in rows.enumerated() {
            let cells = (0..<columnCount).map { index -> [[StyledSpan]] in
                guard index < row.count, !row[index].isEmpty else { return [[]] }
                return LineBreaker(spans: row[index], columns: widths[index]).lines()
            }
            let height = cells.map(\.count).max() ?? 1
            for lineIndex in 0..<height {
                var spans: [StyledSpan] = []
                for (index, cellLines) in cells.enumerated() {
                    if index > 0 { spans.append(StyledSpan(separator, style: style.union(.marker))) }
                    let content = lineIndex < cellLines.count ? cellLines[lineIndex] : []
                    let used = content.reduce(0) { $0 + DisplayWidth.of($1.text) }
                    spans += content.map { StyledSpan($0.text, style: $0.style.union(style), link: $0.link) }
                    if index < columnCount - 1, used < widths[index] {
                        spans.append(StyledSpan(String(repeating: " ", count: widths[index] - used)))
                    }
                }
                while let last = spans.last, last.style.isEmpty, last.text.utf8.allSatisfy({ $0 == 0x20 }) {
                    spans.removeLast()
                }
                emit(.text, spans)
            }
            let isHeader = rowIndex == 0 && rows.count > 1
                && row.allSatisfy { cell in !cell.isEmpty && cell.allSatisfy { $0.style.contains(.bold) } }
            if isHeader {
                let rule = widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┼─")
                emit(.text, [StyledSpan(rule, style: style.union(.marker))])
            }
        }
    }

    /// Shares `room` columns among columns wanting `natural` widths: narrow columns get
    /// what they want, the rest share what is left in proportion.
    static func columnWidthsForTests(natural: [Int], room: Int) -> [Int] { columnWidths(natural: natural, room: room) }

    static func columnWidths(natural: [Int], room: Int) -> [Int] {
        if natural.reduce(0, +) <= room { return natural }
        var widths = [Int](repeating: 0, count: natural.count)
        var open = Set(natural.indices)
        var left = room
        while !open.isEmpty {
            let share = left / open.count
            let narrow = open.filter { natural[$0] <= share }
            if narrow.isEmpty {
                let total = open.reduce(0) { $0 + natural[$1] }
                var given = 0
                for index in open.sorted() {
                    let width = max(3, natural[index] * left / max(1, total))
                    widths[index] = width
                    given += width
                }
                // Rounding leftovers go to the widest column; overshoot is taken from it.
                if let widest = open.max(by: { natural[$0] < natural[$1] }) {
                    widths[widest] = max(1, widths[widest] + left - given)
                }
                // Minimum widths may still overshoot: narrow the widest columns until it fits.
                while widths.reduce(0, +) > room, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
                      widths[widest] > 1 {
                    widths[widest] -= 1
                }
                break
            }
            for index in narrow {
                widths[index] = natural[index]
                left -= natural[index]
                open.remove(index)
            }
        }
        return widths
    }
}
