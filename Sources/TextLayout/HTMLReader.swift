/// Reads HTML and XHTML (as found in EPUBs and on the web, including bad markup) into a
/// `TextDocument`. Never fails; `<head>` is ignored except its `<title>`; scripts, styles
/// and hidden elements are dropped; every string is cleaned by `Sanitizer`.
public enum HTMLReader {
    public static func document(html: String) -> TextDocument {
        let (root, title) = HTMLTreeBuilder.parse(html)
        var converter = HTMLConverter()
        converter.walk(root.children, style: [], link: nil)
        converter.current.flush()
        var document = TextDocument(title: title, blocks: converter.current.blocks, anchors: [:])
        let last = max(0, document.blocks.count - 1)
        for (id, index) in converter.anchors { document.anchors[id] = min(index, last) }
        return document
    }
}

/// Collects inline text into paragraphs and finished blocks for one container (the
/// document, a quote, a list item, a table cell).
struct BlockCollector {
    var blocks: [Block] = []
    var spans: [StyledSpan] = []
    /// True at the start of a paragraph or after a space, so whitespace collapses.
    private var afterSpace = true

    mutating func appendText(_ raw: String, style: TextStyle, link: String?) {
        // One pass collapses HTML whitespace and notices anything the sanitizer must see.
        var space = afterSpace
        var suspicious = false
        let capacity = raw.utf8.count
        guard capacity > 0 else { return }
        var text = String(unsafeUninitializedCapacity: capacity) { out in
            var count = 0
            var previous: UInt8 = 0
            var beforePrevious: UInt8 = 0
            for byte in raw.utf8 {
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
                    if !space {
                        out[count] = 0x20
                        count += 1
                        space = true
                    }
                case 0x00..<0x20, 0x7F:
                    suspicious = true
                default:
                    if byte >= 0x80 {
                        switch (beforePrevious, previous, byte) {
                        case (_, 0xC2, 0x80...0x9F), (0xE2, 0x80, 0xA8...0xAE), (0xE2, 0x81, 0xA6...0xA9),
                             (0xEF, 0xBB, 0xBF), (0xEF, 0xBF, 0xB9...0xBF):
                            suspicious = true
                        default:
                            break
                        }
                    }
                    out[count] = byte
                    count += 1
                    space = false
                }
                beforePrevious = previous
                previous = byte
            }
            return count
        }
        if suspicious {
            // Escape sequences go with their parameters, so the raw text is cleaned first.
            let cleaned = Sanitizer.clean(raw)
            text = collapseWhitespace(cleaned)
            if !text.isEmpty {
                if !afterSpace, cleaned.utf8.first == 0x20 { text = " " + text }
                if cleaned.utf8.last == 0x20 { text += " " }
            } else if !afterSpace, cleaned.utf8.contains(0x20) {
                text = " "
            }
            space = text.isEmpty ? afterSpace : text.utf8.last == 0x20
        }
        guard !text.isEmpty else { return }
        afterSpace = space
        append(text, style: style, link: link)
    }

    /// Clean text whose whitespace runs are already single spaces.
    mutating func appendCollapsed(_ text: String, style: TextStyle, link: String?) {
        let utf8 = text.utf8
        guard let first = utf8.first else { return }
        if first == 0x20 && afterSpace {
            guard utf8.count > 1 else { return }
            append(String(text.dropFirst()), style: style, link: link)
        } else {
            append(text, style: style, link: link)
        }
        afterSpace = utf8.last == 0x20
    }

    /// Text appended as is (no whitespace collapsing); it must already be clean.
    mutating func appendVerbatim(_ text: String, style: TextStyle, link: String?) {
        guard !text.isEmpty else { return }
        afterSpace = text.utf8.last == 0x20
        append(text, style: style, link: link)
    }

    mutating func appendBreak() {
        guard !spans.isEmpty else { return }
        trimTrailingSpace()
        append("\n", style: spans.last?.style ?? [], link: nil)
        afterSpace = true
    }

    private mutating func append(_ text: String, style: TextStyle, link: String?) {
        // Compared in place: a copy of the last span would make the append copy its text.
        if !spans.isEmpty, spans[spans.count - 1].style == style, spans[spans.count - 1].link == link {
            spans[spans.count - 1].text += text
        } else {
            spans.append(StyledSpan(text, style: style, link: link))
        }
    }

    private mutating func trimTrailingSpace() {
        while let last = spans.last {
            var text = last.text
            while text.utf8.last == 0x20 { text.removeLast() }
            if text.isEmpty {
                spans.removeLast()
            } else {
                spans[spans.count - 1].text = text
                return
            }
        }
    }

    /// Ends the current paragraph, if it has any visible text.
    mutating func flush() {
        trimTrailingSpace()
        while let last = spans.last, last.text == "\n" { spans.removeLast(); trimTrailingSpace() }
        if spans.contains(where: { !$0.text.isEmpty && $0.text != "\n" }) {
            blocks.append(.paragraph(spans))
        }
        spans = []
        afterSpace = true
    }

    /// Everything collected, as one run of spans (for headings, cells and captions).
    mutating func flattened() -> [StyledSpan] {
        flush()
        var result: [StyledSpan] = []
        for block in blocks {
            if !result.isEmpty { result.append(StyledSpan(" ")) }
            switch block {
            case .paragraph(let spans), .heading(_, let spans):
                result += spans.map { span in
                    span.text == "\n" ? StyledSpan(" ", style: span.style, link: span.link) : span
                }
            default:
                let text = collapseWhitespace(block.plainText)
                if text.isEmpty {
                    if !result.isEmpty { result.removeLast() }
                } else {
                    result.append(StyledSpan(text))
                }
            }
        }
        return result
    }
}

struct HTMLConverter {
    /// The document's collector first, then one per nested container being read.
    private var collectors = [BlockCollector()]
    private(set) var anchors: [String: Int] = [:]
    /// True while collecting a heading, a table cell or a caption: images give their
    /// alternative text and blocks flatten into spans.
    private var inlineOnly = false

    /// The collector of the innermost container.
    var current: BlockCollector {
        get { collectors[collectors.count - 1] }
        _modify { yield &collectors[collectors.count - 1] }
    }

    static let blockElements: Set<String> = [
        "p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "address",
        "center", "hgroup", "details", "summary", "fieldset", "form", "dialog", "search", "legend",
        "noscript", "dd", "dt", "dl", "li", "caption", "body", "html", "figcaption",
        "plaintext", "frameset", "marquee",
    ]
    static let skipped: Set<String> = [
        "head", "script", "style", "template", "iframe", "object", "embed", "canvas", "map",
        "video", "audio", "select", "input", "button", "textarea", "noembed", "noframes",
        "frame", "applet", "area", "track", "source", "param", "math",
    ]

    mutating func walk(_ nodes: HTMLNode.Children, style: TextStyle, link: String?) {
        for node in nodes { visit(node, style: style, link: link) }
    }

    private mutating func visit(_ node: HTMLNode, style: TextStyle, link: String?) {
        if node.isText {
            if node.collapsed && !node.needsCleaning {
                current.appendCollapsed(node.text, style: style, link: link)
            } else {
                current.appendText(node.text, style: style, link: link)
            }
            return
        }
        let name = node.name
        let kind = Self.kinds[name] ?? .inline([])
        if case .skipped = kind { return }
        if node.hasAttributes {
            if isHidden(node) { return }
            if let id = node["id"], !id.isEmpty { recordAnchor(id) }
        }

        switch kind {
        case .skipped:
            return
        case .lineBreak:
            current.appendBreak()
        case .wordBreak:
            current.appendVerbatim("\u{200B}", style: style, link: link)
        case .image:
            image(node, style: style, link: link)
        case .svg:
            // An SVG in a book is usually a cover: keep its embedded raster image.
            if let image = firstDescendant(of: node, named: ["image", "img"]) {
                self.image(image, style: style, link: link)
            }
        case .anchor:
            if let anchorName = node["name"], !anchorName.isEmpty { recordAnchor(anchorName) }
            if let href = node["href"] {
                walk(node.children, style: style.union(.link), link: Sanitizer.clean(href))
            } else {
                walk(node.children, style: style, link: link)
            }
        case .inlineQuote:
            current.appendVerbatim("“", style: style, link: link)
            walk(node.children, style: style, link: link)
            current.appendVerbatim("”", style: style, link: link)
        case .heading(let level):
            let spans = collectInline(node.children, style: style.union([.bold, .heading]), link: link)
            guard !spans.isEmpty else { return }
            if inlineOnly {
                for span in spans { current.appendVerbatim(span.text, style: span.style, link: span.link) }
            } else {
                emit(.heading(level: level, spans))
            }
        case .paragraph:
            blockBoundary()
            walk(node.children, style: style, link: link)
            blockBoundary()
        case .quote:
            nested(node.children, style: style) { blocks in .quote(blocks) }
        case .list(let ordered):
            list(node, ordered: ordered, style: style, link: link)
        case .preformatted:
            var text = ""
            node.textContent(into: &text)
            if text.utf8.first == 0x0A { text.removeFirst() }
            let cleaned = Sanitizer.clean(text, multiline: true)
            let trimmed = trimTrailingNewlines(cleaned)
            guard !trimmed.isEmpty else { return }
            if inlineOnly {
                current.appendText(trimmed, style: style.union(.code), link: link)
            } else {
                emit(.code(trimmed))
            }
        case .rule:
            if !inlineOnly { emit(.rule) }
        case .table:
            table(node, style: style, link: link)
        case .figure:
            figure(node, style: style, link: link)
        case .term:
            blockBoundary()
            walk(node.children, style: style.union(.bold), link: link)
            blockBoundary()
        case .block:
            blockBoundary()
            walk(node.children, style: style, link: link)
            blockBoundary()
        case .inline(let added):
            walk(node.children, style: style.union(added), link: link)
        case .superscript:
            // Terminals cannot raise text: digits become superscript digits (`mc²`, a note
            // reference `nets.¹`), other short marks are bracketed (`word[a]`).
            var text = ""
            node.textContent(into: &text)
            text = collapseWhitespace(text)
            let innerLink = link ?? firstDescendant(of: node, named: ["a"])?["href"].map { Sanitizer.clean($0) }
            let supStyle = style.union(innerLink != nil ? [.dim, .link] : .dim)
            if !text.isEmpty, text.utf8.count <= 6, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                let digits = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
                let raised = text.utf8.map { digits[Int($0 - 0x30)] }.joined()
                current.appendVerbatim(raised, style: supStyle, link: innerLink)
            } else if !text.isEmpty, text.count <= 3, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "*" || $0 == "†" }) {
                current.appendVerbatim("[" + text + "]", style: supStyle, link: innerLink)
            } else {
                walk(node.children, style: style.union(.dim), link: link)
            }
        }
    }

    /// How each element is read; anything not listed is inline without a style.
    enum ElementKind {
        case skipped, lineBreak, wordBreak, image, svg, anchor, inlineQuote, heading(Int), paragraph
        case quote, list(ordered: Bool), preformatted, rule, table, figure, term, block
        case inline(TextStyle)
        case superscript
    }

    static let kinds: [String: ElementKind] = {
        var kinds: [String: ElementKind] = [
            "br": .lineBreak, "wbr": .wordBreak, "img": .image, "image": .image, "svg": .svg,
            "a": .anchor, "q": .inlineQuote, "p": .paragraph, "blockquote": .quote,
            "ul": .list(ordered: false), "menu": .list(ordered: false), "dir": .list(ordered: false),
            "ol": .list(ordered: true), "pre": .preformatted, "listing": .preformatted, "hr": .rule,
            "table": .table, "figure": .figure, "dt": .term,
            "h1": .heading(1), "h2": .heading(2), "h3": .heading(3), "h4": .heading(4),
            "h5": .heading(5), "h6": .heading(6), "sup": .superscript,
        ]
        for name in blockElements where kinds[name] == nil { kinds[name] = .block }
        for name in skipped { kinds[name] = .skipped }
        let styles: [(TextStyle, [String])] = [
            (.bold, ["b", "strong"]), (.italic, ["i", "em", "cite", "dfn", "var"]),
            (.underline, ["u", "ins"]), (.strike, ["s", "strike", "del"]),
            (.code, ["code", "kbd", "samp", "tt"]), (.highlight, ["mark"]), (.dim, ["small", "sub"]),
        ]
        for (style, names) in styles {
            for name in names { kinds[name] = .inline(style) }
        }
        return kinds
    }()

    private func isHidden(_ node: HTMLNode) -> Bool {
        if node["hidden"] != nil { return true }
        if node["aria-hidden"] == "true" { return true }
        if let style = node["style"] {
            let compact = style.lowercased().filter { $0 != " " }
            if compact.contains("display:none") || compact.contains("visibility:hidden") { return true }
        }
        return false
    }

    // MARK: Blocks

    private mutating func blockBoundary() {
        if inlineOnly {
            current.appendText(" ", style: [], link: nil)
        } else {
            current.flush()
        }
    }

    private mutating func emit(_ block: Block) {
        current.flush()
        current.blocks.append(block)
    }

    private mutating func recordAnchor(_ id: String) {
        if anchors[id] == nil { anchors[id] = collectors[0].blocks.count }
    }

    /// Runs `body` with a fresh collector and returns what it collected.
    private mutating func collect(_ body: (inout HTMLConverter) -> Void) -> BlockCollector {
        // A nested container becomes the document's next block: its pending text goes first.
        if collectors.count == 1 { collectors[0].flush() }
        collectors.append(BlockCollector())
        body(&self)
        var collector = collectors.removeLast()
        collector.flush()
        return collector
    }

    private mutating func collectInline(_ nodes: HTMLNode.Children, style: TextStyle, link: String?) -> [StyledSpan] {
        let savedInline = inlineOnly
        inlineOnly = true
        var collector = collect { $0.walk(nodes, style: style, link: link) }
        inlineOnly = savedInline
        return collector.flattened()
    }

    private mutating func nested(_ nodes: HTMLNode.Children, style: TextStyle, make: ([Block]) -> Block) {
        if inlineOnly {
            blockBoundary()
            walk(nodes, style: style, link: nil)
            blockBoundary()
            return
        }
        current.flush()
        let collector = collect { $0.walk(nodes, style: style, link: nil) }
        if !collector.blocks.isEmpty { emit(make(collector.blocks)) }
    }

    private mutating func list(_ node: HTMLNode, ordered: Bool, style: TextStyle, link: String?) {
        if inlineOnly {
            blockBoundary()
            walk(node.children, style: style, link: link)
            blockBoundary()
            return
        }
        current.flush()
        var items: [[Block]] = []
        for child in node.children {
            if child.isText, collapseWhitespace(child.text).isEmpty { continue }
            if !child.isText, isHidden(child) || Self.skipped.contains(child.name) { continue }
            if child.name == "li" {
                if let id = child["id"], !id.isEmpty { recordAnchor(id) }
                let collector = collect { $0.walk(child.children, style: style, link: link) }
                if !collector.blocks.isEmpty { items.append(collector.blocks) }
            } else {
                // Content outside any `<li>` (often a nested list) joins the previous item.
                let collector = collect { $0.visit(child, style: style, link: link) }
                guard !collector.blocks.isEmpty else { continue }
                if items.isEmpty {
                    items.append(collector.blocks)
                } else {
                    items[items.count - 1] += collector.blocks
                }
            }
        }
        if !items.isEmpty { emit(.list(ordered: ordered, items: items)) }
    }

    private mutating func image(_ node: HTMLNode, style: TextStyle, link: String?) {
        let source = node["src"] ?? node["href"] ?? node["xlink:href"] ?? node["data-src"] ?? ""
        let alt = collapseWhitespace(Sanitizer.clean(node["alt"] ?? ""))
        if inlineOnly || source.isEmpty {
            if !alt.isEmpty { current.appendText(alt, style: style, link: link) }
            return
        }
        emit(.image(source: Sanitizer.clean(source), alt: alt))
    }

    private mutating func figure(_ node: HTMLNode, style: TextStyle, link: String?) {
        guard !inlineOnly else {
            blockBoundary()
            walk(node.children, style: style, link: link)
            blockBoundary()
            return
        }
        let imageNode = firstDescendant(of: node, named: ["img", "image"])
        let captionNode = node.children.first { $0.name == "figcaption" }
        guard let imageNode, let source = imageNode["src"] ?? imageNode["href"] ?? imageNode["xlink:href"],
              !source.isEmpty else {
            current.flush()
            walk(node.children, style: style, link: link)
            current.flush()
            return
        }
        let alt = collapseWhitespace(Sanitizer.clean(imageNode["alt"] ?? ""))
        var caption: [StyledSpan] = []
        if let captionNode {
            if let id = captionNode["id"], !id.isEmpty { recordAnchor(id) }
            caption = collectInline(captionNode.children, style: style.union(.caption), link: link)
        }
        emit(.figure(image: .image(source: Sanitizer.clean(source), alt: alt), caption: caption))
        // Anything else in the figure (a second picture, a quote) follows it.
        for child in node.children where child != captionNode && !contains(child, imageNode) {
            visit(child, style: style, link: link)
        }
        current.flush()
    }

    private mutating func table(_ node: HTMLNode, style: TextStyle, link: String?) {
        var cellRows: [[HTMLNode]] = []
        func findRows(_ parent: HTMLNode) {
            var loose = false
            for child in parent.children {
                switch child.name {
                case "tr":
                    loose = false
                    cellRows.append(child.children.filter { $0.name == "td" || $0.name == "th" })
                case "thead", "tbody", "tfoot":
                    loose = false
                    findRows(child)
                case "td", "th":
                    // Cells without a row form one.
                    if !loose {
                        cellRows.append([])
                        loose = true
                    }
                    cellRows[cellRows.count - 1].append(child)
                default:
                    break
                }
            }
        }
        findRows(node)
        let nestedTable = firstDescendant(of: node, named: ["table"], skippingSelf: true) != nil
        let layoutTable = nestedTable || cellRows.allSatisfy { $0.count <= 1 }
        if inlineOnly || layoutTable {
            // A table used for page layout: read its cells as ordinary blocks.
            blockBoundary()
            if let caption = node.children.first(where: { $0.name == "caption" }) {
                visit(caption, style: style, link: link)
            }
            for cells in cellRows {
                for cell in cells {
                    blockBoundary()
                    walk(cell.children, style: style, link: link)
                    blockBoundary()
                }
            }
            return
        }
        if let caption = node.children.first(where: { $0.name == "caption" }) {
            visit(caption, style: style.union(.caption), link: link)
        }
        var table: [[[StyledSpan]]] = []
        for cells in cellRows {
            let row = cells.map { cell in
                collectInline(cell.children, style: cell.name == "th" ? style.union(.bold) : style, link: link)
            }
            if row.contains(where: { !$0.isEmpty }) { table.append(row) }
        }
        if !table.isEmpty { emit(.table(table)) }
    }

    // MARK: Tree helpers

    private func firstDescendant(of node: HTMLNode, named names: Set<String>, skippingSelf: Bool = true) -> HTMLNode? {
        if !skippingSelf, names.contains(node.name) { return node }
        for child in node.children where !child.isText {
            if names.contains(child.name) { return child }
            if let found = firstDescendant(of: child, named: names) { return found }
        }
        return nil
    }

    private func contains(_ node: HTMLNode, _ target: HTMLNode) -> Bool {
        if node == target { return true }
        return node.children.contains { contains($0, target) }
    }

    private func trimTrailingNewlines(_ text: String) -> String {
        var result = Substring(text)
        while let last = result.last, last == "\n" || last == " " { result.removeLast() }
        return String(result)
    }
}
