import Markup

/// Reads Markdown (CommonMark's common constructs plus GitHub tables and strikethrough)
/// into a `TextDocument`: ATX and setext headings, paragraphs, block quotes, nested
/// lists, fenced and indented code, rules, pipe tables, HTML blocks (read by `HTMLReader`),
/// emphasis, strong, code spans, links (inline, reference, autolinks), images, hard breaks,
/// backslash escapes and entities. The title is the first level-1 heading; headings get
/// GitHub-style anchors (`## Tide times` → `tide-times`).
public enum MarkdownReader {
    public static func document(markdown: String) -> TextDocument {
        let cleaned = Sanitizer.clean(markdown, multiline: true)
        let lines = cleaned.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var parser = MarkdownBlockParser()
        parser.collectDefinitions(lines)
        let blocks = parser.blocks(lines, depth: 0)
        var anchors: [String: Int] = [:]
        var title: String?
        for (index, block) in blocks.enumerated() {
            guard case .heading(let level, let spans) = block else { continue }
            let text = spans.map(\.text).joined()
            if level == 1 && title == nil { title = text }
            let slug = Self.slug(text)
            if !slug.isEmpty && anchors[slug] == nil { anchors[slug] = index }
        }
        return TextDocument(title: title, blocks: blocks, anchors: anchors)
    }

    /// GitHub's heading anchors: lower case, spaces to hyphens, punctuation dropped.
    static func slug(_ text: String) -> String {
        var out = ""
        for character in text.lowercased() {
            if character.isLetter || character.isNumber || character == "-" || character == "_" {
                out.append(character)
            } else if character == " " {
                out.append("-")
            }
        }
        return out
    }
}

struct MarkdownBlockParser {
    /// Nesting beyond this reads as plain paragraphs, so hostile input cannot exhaust the stack.
    static let maximumDepth = 48

    var definitions: [String: String] = [:]

    // MARK: Line classification

    /// Leading spaces of a line (tabs were expanded by the sanitizer).
    static func indentation(_ line: String) -> Int {
        var count = 0
        for byte in line.utf8 {
            guard byte == 0x20 else { break }
            count += 1
        }
        return count
    }

    static func isBlank(_ line: String) -> Bool {
        line.utf8.allSatisfy { $0 == 0x20 }
    }

    static func dropIndent(_ line: String, _ count: Int) -> String {
        String(line.dropFirst(min(count, indentation(line))))
    }

    static func fence(_ line: String) -> (character: Character, length: Int, indent: Int, info: String)? {
        let indent = indentation(line)
        guard indent <= 3 else { return nil }
        let rest = line.dropFirst(indent)
        guard let first = rest.first, first == "`" || first == "~" else { return nil }
        let length = rest.prefix { $0 == first }.count
        guard length >= 3 else { return nil }
        let info = rest.dropFirst(length)
        if first == "`" && info.contains("`") { return nil }
        return (first, length, indent, String(info).trimmingSpaces())
    }

    static func atxHeading(_ line: String) -> (level: Int, text: String)? {
        let indent = indentation(line)
        guard indent <= 3 else { return nil }
        let rest = line.dropFirst(indent)
        let level = rest.prefix { $0 == "#" }.count
        guard (1...6).contains(level) else { return nil }
        let after = rest.dropFirst(level)
        guard after.isEmpty || after.first == " " else { return nil }
        var text = String(after).trimmingSpaces()
        // A closing run of `#` preceded by a space is not part of the heading.
        if let hashes = text.lastIndex(where: { $0 != "#" }) {
            let tail = text[text.index(after: hashes)...]
            if !tail.isEmpty && text[hashes] == " " { text = String(text[..<hashes]).trimmingSpaces() }
        } else {
            text = ""
        }
        return (level, text)
    }

    static func isThematicBreak(_ line: String) -> Bool {
        guard indentation(line) <= 3 else { return false }
        let marks = line.filter { $0 != " " }
        guard marks.count >= 3, let first = marks.first, first == "-" || first == "*" || first == "_" else { return false }
        return marks.allSatisfy { $0 == first }
    }

    static func setextLevel(_ line: String) -> Int? {
        guard indentation(line) <= 3 else { return nil }
        let trimmed = line.trimmingSpaces()
        guard let first = trimmed.first, first == "=" || first == "-" else { return nil }
        guard trimmed.allSatisfy({ $0 == first }) else { return nil }
        return first == "=" ? 1 : 2
    }

    /// A list marker: whether it is ordered, its start column width (marker plus spaces
    /// up to the content) and the marker character (`-`, `+`, `*`, `.` or `)`).
    static func listMarker(_ line: String) -> (ordered: Bool, contentIndent: Int, delimiter: Character)? {
        let indent = indentation(line)
        guard indent <= 3 else { return nil }
        let rest = Array(line.dropFirst(indent))
        guard let first = rest.first else { return nil }
        var markerLength = 0
        var ordered = false
        var delimiter = first
        if first == "-" || first == "+" || first == "*" {
            markerLength = 1
        } else {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }.count
            guard (1...9).contains(digits), digits < rest.count, rest[digits] == "." || rest[digits] == ")" else { return nil }
            markerLength = digits + 1
            ordered = true
            delimiter = rest[digits]
        }
        if markerLength == rest.count { return (ordered, indent + markerLength + 1, delimiter) }
        guard rest[markerLength] == " " else { return nil }
        let spaces = rest[markerLength...].prefix { $0 == " " }.count
        let gap = spaces > 4 || markerLength + spaces == rest.count ? 1 : spaces
        return (ordered, indent + markerLength + gap, delimiter)
    }

    static let htmlBlockTags: Set<String> = [
        "address", "article", "aside", "blockquote", "center", "details", "div", "dl", "figure",
        "figcaption", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main",
        "nav", "ol", "p", "pre", "section", "table", "ul", "img", "picture", "video", "iframe",
        "script", "style", "svg", "br",
    ]

    static func startsHTMLBlock(_ line: String) -> Bool {
        guard indentation(line) <= 3 else { return false }
        let rest = line.trimmingSpaces()
        guard rest.hasPrefix("<") else { return false }
        if rest.hasPrefix("<!--") { return true }
        let name = rest.dropFirst(rest.hasPrefix("</") ? 2 : 1).prefix { $0.isLetter || $0.isNumber }.lowercased()
        return htmlBlockTags.contains(name)
    }

    static func isTableDelimiter(_ line: String) -> Bool {
        let cells = tableCells(line)
        guard !cells.isEmpty else { return false }
        return cells.allSatisfy { cell in
            let core = cell.trimmingSpaces()
            let dashes = core.filter { $0 == "-" }.count
            return dashes >= 1 && core.allSatisfy { $0 == "-" || $0 == ":" }
        }
    }

    static func tableCells(_ line: String) -> [String] {
        var text = line.trimmingSpaces()
        guard text.contains("|") else { return [] }
        if text.hasPrefix("|") { text.removeFirst() }
        if text.hasSuffix("|") && !text.hasSuffix("\\|") { text.removeLast() }
        var cells: [String] = []
        var current = ""
        var escaped = false
        var inCode = false
        for character in text {
            if escaped {
                if character != "|" { current.append("\\") }
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "`" {
                inCode.toggle()
                current.append(character)
            } else if character == "|" && !inCode {
                cells.append(current.trimmingSpaces())
                current = ""
            } else {
                current.append(character)
            }
        }
        cells.append(current.trimmingSpaces())
        return cells
    }

    /// `[label]: destination` lines anywhere in the document.
    mutating func collectDefinitions(_ lines: [String]) {
        for line in lines {
            var rest = Substring(line.trimmingSpaces())
            while rest.hasPrefix(">") { rest = rest.dropFirst().drop { $0 == " " } }
            guard rest.hasPrefix("["), let close = rest.firstIndex(of: "]") else { continue }
            let after = rest[rest.index(after: close)...]
            guard after.hasPrefix(":") else { continue }
            let label = rest[rest.index(after: rest.startIndex)..<close]
            let destination = after.dropFirst().drop { $0 == " " }.prefix { $0 != " " }
            guard !label.isEmpty, !destination.isEmpty else { continue }
            var target = String(destination)
            if target.hasPrefix("<") && target.hasSuffix(">") { target = String(target.dropFirst().dropLast()) }
            let key = label.lowercased()
            if definitions[key] == nil { definitions[key] = target }
        }
    }

    func isDefinition(_ line: String) -> Bool {
        let rest = line.trimmingSpaces()
        guard rest.hasPrefix("["), let close = rest.firstIndex(of: "]") else { return false }
        let label = rest[rest.index(after: rest.startIndex)..<close].lowercased()
        return rest[rest.index(after: close)...].hasPrefix(":") && definitions[label] != nil
    }

    /// Whether `line` starts a block that interrupts a paragraph.
    func interruptsParagraph(_ line: String) -> Bool {
        if Self.fence(line) != nil || Self.atxHeading(line) != nil || Self.isThematicBreak(line) { return true }
        let indent = Self.indentation(line)
        if indent <= 3 && line.dropFirst(indent).hasPrefix(">") { return true }
        if let marker = Self.listMarker(line), !Self.isBlank(String(line.dropFirst(marker.contentIndent))) {
            // Only `1.` may start an ordered list inside a paragraph.
            if !marker.ordered { return true }
            return line.trimmingSpaces().hasPrefix("1")
        }
        return Self.startsHTMLBlock(line)
    }

    // MARK: Blocks

    func blocks(_ lines: [String], depth: Int) -> [Block] {
        var blocks: [Block] = []
        var index = 0
        let count = lines.count
        while index < count {
            let line = lines[index]
            if Self.isBlank(line) {
                index += 1
                continue
            }
            let indent = Self.indentation(line)

            if let fence = Self.fence(line) {
                var body: [String] = []
                index += 1
                while index < count {
                    let candidate = lines[index]
                    if let closing = Self.fence(candidate), closing.character == fence.character,
                       closing.length >= fence.length, closing.info.isEmpty {
                        index += 1
                        break
                    }
                    body.append(Self.dropIndent(candidate, fence.indent))
                    index += 1
                }
                blocks.append(.code(body.joined(separator: "\n")))
                continue
            }
            if indent >= 4 {
                var body: [String] = []
                while index < count, Self.isBlank(lines[index]) || Self.indentation(lines[index]) >= 4 {
                    body.append(Self.dropIndent(lines[index], 4))
                    index += 1
                }
                while let last = body.last, Self.isBlank(last) { body.removeLast() }
                blocks.append(.code(body.joined(separator: "\n")))
                continue
            }
            if let heading = Self.atxHeading(line) {
                let spans = MarkdownInline(definitions: definitions).spans(heading.text, style: [.bold, .heading])
                if !spans.isEmpty { blocks.append(.heading(level: heading.level, spans)) }
                index += 1
                continue
            }
            if Self.isThematicBreak(line) {
                blocks.append(.rule)
                index += 1
                continue
            }
            if line.dropFirst(indent).hasPrefix(">") {
                var inner: [String] = []
                var inParagraph = false
                while index < count {
                    let candidate = lines[index]
                    let candidateIndent = Self.indentation(candidate)
                    if candidateIndent <= 3, candidate.dropFirst(candidateIndent).hasPrefix(">") {
                        var content = candidate.dropFirst(candidateIndent + 1)
                        if content.hasPrefix(" ") { content = content.dropFirst() }
                        inner.append(String(content))
                        inParagraph = !Self.isBlank(String(content)) && Self.fence(String(content)) == nil
                        index += 1
                    } else if inParagraph && !Self.isBlank(candidate) && !interruptsParagraph(candidate) {
                        inner.append(candidate)  // lazy continuation
                        index += 1
                    } else {
                        break
                    }
                }
                let content = depth < Self.maximumDepth
                    ? self.blocks(inner, depth: depth + 1)
                    : [.paragraph(MarkdownInline(definitions: definitions).spans(inner.joined(separator: "\n"), style: []))]
                if !content.isEmpty { blocks.append(.quote(content)) }
                continue
            }
            if let marker = Self.listMarker(line) {
                let (list, next) = self.list(lines, from: index, first: marker, depth: depth)
                blocks.append(list)
                index = next
                continue
            }
            if Self.startsHTMLBlock(line) {
                var html: [String] = []
                while index < count, !Self.isBlank(lines[index]) {
                    html.append(lines[index])
                    index += 1
                }
                blocks += HTMLReader.document(html: html.joined(separator: "\n")).blocks
                continue
            }
            if isDefinition(line) {
                index += 1
                continue
            }
            if index + 1 < count, line.contains("|"), Self.isTableDelimiter(lines[index + 1]) {
                let header = Self.tableCells(line)
                var rows: [[String]] = [header]
                index += 2
                while index < count, !Self.isBlank(lines[index]), lines[index].contains("|") {
                    rows.append(Self.tableCells(lines[index]))
                    index += 1
                }
                let inline = MarkdownInline(definitions: definitions)
                let table = rows.enumerated().map { rowIndex, cells in
                    cells.map { inline.spans($0, style: rowIndex == 0 ? .bold : []) }
                }
                blocks.append(.table(table))
                continue
            }

            // A paragraph, possibly turned into a setext heading.
            var paragraph: [String] = [line]
            index += 1
            var setext: Int?
            while index < count {
                let candidate = lines[index]
                if Self.isBlank(candidate) { break }
                if let level = Self.setextLevel(candidate) {
                    setext = level
                    index += 1
                    break
                }
                if interruptsParagraph(candidate) { break }
                paragraph.append(candidate)
                index += 1
            }
            let text = paragraph.map { $0.trimmingLeadingSpaces() }.joined(separator: "\n")
            let inline = MarkdownInline(definitions: definitions)
            if let setext {
                blocks.append(.heading(level: setext, inline.spans(text, style: [.bold, .heading])))
            } else {
                blocks += inline.blocks(text)
            }
        }
        return blocks
    }

    private func list(_ lines: [String], from start: Int, first: (ordered: Bool, contentIndent: Int, delimiter: Character), depth: Int) -> (Block, Int) {
        var items: [[String]] = []
        var index = start
        let count = lines.count
        var loose = false
        while index < count {
            let line = lines[index]
            guard let marker = Self.listMarker(line), marker.ordered == first.ordered, marker.delimiter == first.delimiter else {
                break
            }
            var item: [String] = [String(line.dropFirst(min(marker.contentIndent, line.count)))]
            index += 1
            var lastBlank = false
            while index < count {
                let candidate = lines[index]
                if Self.isBlank(candidate) {
                    item.append("")
                    lastBlank = true
                    index += 1
                    continue
                }
                if Self.indentation(candidate) >= marker.contentIndent {
                    if lastBlank { loose = true }
                    item.append(Self.dropIndent(candidate, marker.contentIndent))
                    lastBlank = false
                    index += 1
                    continue
                }
                if !lastBlank && !interruptsParagraph(candidate) && Self.listMarker(candidate) == nil {
                    item.append(candidate.trimmingLeadingSpaces())  // lazy continuation
                    index += 1
                    continue
                }
                break
            }
            // Blank lines between items belong to neither.
            while let last = item.last, Self.isBlank(last) { item.removeLast() }
            items.append(item)
            if index < count, index > 0, Self.isBlank(lines[index - 1]), Self.listMarker(lines[index]) != nil {
                loose = true
            }
        }
        _ = loose
        let blocks = items.map { item -> [Block] in
            if depth < Self.maximumDepth { return self.blocks(item, depth: depth + 1) }
            return [.paragraph(MarkdownInline(definitions: definitions).spans(item.joined(separator: "\n"), style: []))]
        }
        return (.list(ordered: first.ordered, items: blocks), index)
    }
}

/// Inline Markdown: emphasis, code spans, links, images, breaks, escapes, entities.
struct MarkdownInline {
    let definitions: [String: String]

    /// Paragraph text as blocks: a paragraph, with images on their own between its parts.
    func blocks(_ text: String) -> [Block] {
        var parser = InlineParser(Array(text), definitions: definitions)
        parser.parse(style: [], link: nil, until: nil)
        parser.flushImages()
        return parser.output.compactMap { part in
            switch part {
            case .spans(let spans):
                let trimmed = Self.trim(spans)
                return trimmed.isEmpty ? nil : .paragraph(trimmed)
            case .image(let source, let alt):
                return .image(source: source, alt: alt)
            }
        }
    }

    func spans(_ text: String, style: TextStyle) -> [StyledSpan] {
        var parser = InlineParser(Array(text), definitions: definitions)
        parser.imagesAsText = true
        parser.parse(style: style, link: nil, until: nil)
        parser.flushImages()
        var result: [StyledSpan] = []
        for part in parser.output {
            if case .spans(let spans) = part { result += spans }
        }
        return Self.trim(result.map { span in
            span.text == "\n" ? StyledSpan(" ", style: span.style, link: span.link) : span
        })
    }

    static func trim(_ spans: [StyledSpan]) -> [StyledSpan] {
        var result = spans
        while let first = result.first {
            let text = first.text.trimmingLeadingSpaces()
            if text.isEmpty || text == "\n" {
                result.removeFirst()
            } else {
                result[0].text = text
                break
            }
        }
        while let last = result.last {
            var text = last.text
            while let end = text.last, end == " " || end == "\n" { text.removeLast() }
            if text.isEmpty {
                result.removeLast()
            } else {
                result[result.count - 1].text = text
                break
            }
        }
        return result
    }
}

private struct InlineParser {
    enum Part {
        case spans([StyledSpan])
        case image(source: String, alt: String)
    }

    let chars: [Character]
    let definitions: [String: String]
    var position = 0
    var imagesAsText = false
    var output: [Part] = []
    var current: [StyledSpan] = []
    var depth = 0
    /// Openers known to have no closer, so backtracking never retries them (which would
    /// take exponential time on `*a *b *c …`).
    var failedOpeners = Set<Int>()
    /// Characters the parser may still visit before it stops trying emphasis and links,
    /// which keeps pathological input linear.
    var budget: Int

    init(_ chars: [Character], definitions: [String: String]) {
        self.chars = chars
        self.definitions = definitions
        self.budget = 16 * chars.count + 4096
    }

    mutating func flushImages() {
        if !current.isEmpty { output.append(.spans(current)) }
        current = []
    }

    mutating func append(_ text: String, style: TextStyle, link: String?) {
        guard !text.isEmpty else { return }
        if !current.isEmpty, current[current.count - 1].style == style, current[current.count - 1].link == link {
            current[current.count - 1].text += text
        } else {
            current.append(StyledSpan(text, style: style, link: link))
        }
    }

    static let punctuation: Set<Character> = Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

    func isWhitespace(_ index: Int) -> Bool {
        index < 0 || index >= chars.count || chars[index] == " " || chars[index] == "\n"
    }

    func isPunctuation(_ index: Int) -> Bool {
        index >= 0 && index < chars.count && (Self.punctuation.contains(chars[index]) || chars[index].isPunctuation)
    }

    /// Parses until `closer` (a delimiter run of that character and length) is found at
    /// a right-flanking position; returns whether it was.
    @discardableResult
    mutating func parse(style: TextStyle, link: String?, until closer: (Character, Int)?) -> Bool {
        depth += 1
        defer { depth -= 1 }
        var text = ""
        func flushText(_ parser: inout InlineParser) {
            parser.append(text, style: style, link: link)
            text = ""
        }
        while position < chars.count {
            let c = chars[position]
            budget -= 1
            if let closer, c == closer.0, canClose(at: position, character: c, length: closer.1) {
                flushText(&self)
                position += closer.1
                return true
            }
            switch c {
            case "\\":
                if position + 1 < chars.count, Self.punctuation.contains(chars[position + 1]) {
                    text.append(chars[position + 1])
                    position += 2
                } else if position + 1 < chars.count, chars[position + 1] == "\n" {
                    flushText(&self)
                    append("\n", style: style, link: link)
                    position += 2
                } else {
                    text.append(c)
                    position += 1
                }
            case "\n":
                // Two trailing spaces make a hard break; otherwise a soft break is a space.
                if text.hasSuffix("  ") {
                    while text.hasSuffix(" ") { text.removeLast() }
                    flushText(&self)
                    append("\n", style: style, link: link)
                } else {
                    while text.hasSuffix(" ") { text.removeLast() }
                    text.append(" ")
                }
                position += 1
                while position < chars.count, chars[position] == " " { position += 1 }
            case "`":
                let run = runLength(at: position, of: "`")
                if budget > 0, let end = findCodeEnd(from: position + run, length: run) {
                    flushText(&self)
                    var code = String(chars[(position + run)..<end]).replacingNewlines()
                    if code.count >= 2, code.hasPrefix(" "), code.hasSuffix(" "), code.contains(where: { $0 != " " }) {
                        code = String(code.dropFirst().dropLast())
                    }
                    append(code, style: style.union(.code), link: link)
                    position = end + run
                } else {
                    text += String(repeating: "`", count: run)
                    position += run
                }
            case "*", "_", "~":
                let run = runLength(at: position, of: c)
                if depth < MarkdownBlockParser.maximumDepth, budget > 0, !failedOpeners.contains(position),
                   canOpen(at: position, character: c, length: run), c != "~" || run == 2 {
                    let use = c == "~" ? 2 : min(run, 3)
                    let saved = position
                    flushText(&self)
                    let savedCurrent = current
                    let savedOutput = output
                    position += use
                    let added: TextStyle = c == "~" ? .strike : (use == 1 ? .italic : (use == 2 ? .bold : [.bold, .italic]))
                    if parse(style: style.union(added), link: link, until: (c, use)) {
                        continue
                    }
                    // No closer: the run is literal text.
                    failedOpeners.insert(saved)
                    position = saved
                    current = savedCurrent
                    output = savedOutput
                    text += String(repeating: String(c), count: run)
                    position += run
                } else {
                    text += String(repeating: String(c), count: run)
                    position += run
                }
            case "!" where position + 1 < chars.count && chars[position + 1] == "[":
                if budget > 0, let (alt, destination, end) = linkAt(position + 1) {
                    flushText(&self)
                    let altText = Self.plain(alt)
                    if imagesAsText {
                        append(altText, style: style, link: link)
                    } else {
                        flushImages()
                        output.append(.image(source: destination, alt: altText))
                    }
                    position = end
                } else {
                    text.append(c)
                    position += 1
                }
            case "[":
                if depth < MarkdownBlockParser.maximumDepth, budget > 0, let (label, destination, end) = linkAt(position) {
                    flushText(&self)
                    var inner = InlineParser(label, definitions: definitions)
                    inner.imagesAsText = true
                    inner.depth = depth
                    inner.parse(style: style.union(.link), link: destination, until: nil)
                    inner.flushImages()
                    for part in inner.output {
                        if case .spans(let spans) = part {
                            for span in spans { append(span.text, style: span.style, link: span.link) }
                        }
                    }
                    position = end
                } else {
                    text.append(c)
                    position += 1
                }
            case "<":
                if let (content, end) = angleAt(position) {
                    flushText(&self)
                    if content.contains(":") && !content.contains(" ") || content.contains("@") && !content.contains(" ") {
                        let target = content.contains(":") ? content : "mailto:" + content
                        append(content, style: style.union(.link), link: target)
                    } else if content.lowercased().hasPrefix("br") {
                        append("\n", style: style, link: link)
                    }
                    // Other inline HTML tags are dropped; their text stays.
                    position = end
                } else {
                    text.append(c)
                    position += 1
                }
            case "&":
                var decoded = ""
                var end = position + 1
                while end < chars.count, end - position < 34, chars[end].isLetter || chars[end].isNumber || chars[end] == "#" { end += 1 }
                if end < chars.count, chars[end] == ";" {
                    decoded = CharacterReferences.decode(String(chars[position...end]), in: .xml)  // CommonMark wants the semicolon too
                    if decoded.first != "&" || String(chars[position...end]) == "&amp;" {
                        text += Sanitizer.clean(decoded)
                        position = end + 1
                        continue
                    }
                }
                text.append(c)
                position += 1
            default:
                text.append(c)
                position += 1
            }
        }
        flushText(&self)
        return closer == nil
    }

    func runLength(at index: Int, of character: Character) -> Int {
        var end = index
        while end < chars.count, chars[end] == character { end += 1 }
        return end - index
    }

    func canOpen(at index: Int, character: Character, length: Int) -> Bool {
        let after = index + length
        if isWhitespace(after) { return false }
        let leftFlanking = !isPunctuation(after) || isWhitespace(index - 1) || isPunctuation(index - 1)
        if !leftFlanking { return false }
        if character == "_" {
            // Intraword underscores (snake_case) are not emphasis.
            return index == 0 || isWhitespace(index - 1) || isPunctuation(index - 1)
        }
        return true
    }

    func canClose(at index: Int, character: Character, length: Int) -> Bool {
        guard runLength(at: index, of: character) >= length else { return false }
        if isWhitespace(index - 1) { return false }
        let rightFlanking = !isPunctuation(index - 1) || isWhitespace(index + length) || isPunctuation(index + length)
        if !rightFlanking { return false }
        if character == "_" {
            let after = index + runLength(at: index, of: character)
            return isWhitespace(after) || isPunctuation(after)
        }
        return true
    }

    mutating func findCodeEnd(from start: Int, length: Int) -> Int? {
        var index = start
        while index < chars.count {
            budget -= 1
            if chars[index] == "`" {
                let run = runLength(at: index, of: "`")
                if run == length { return index }
                index += run
            } else {
                index += 1
            }
        }
        return nil
    }

    /// `[label](destination "title")`, `[label][ref]`, `[label][]` or `[label]` with a
    /// definition: the label's characters, the destination and the index after it.
    mutating func linkAt(_ start: Int) -> ([Character], String, Int)? {
        var depth = 0
        var index = start
        var close: Int?
        while index < chars.count {
            budget -= 1
            switch chars[index] {
            case "\\": index += 1
            case "[": depth += 1
            case "]":
                depth -= 1
                if depth == 0 { close = index }
            case "`":
                let run = runLength(at: index, of: "`")
                if let end = findCodeEnd(from: index + run, length: run) { index = end + run - 1 } else { index += run - 1 }
            default: break
            }
            if close != nil { break }
            index += 1
        }
        guard let close else { return nil }
        let label = Array(chars[(start + 1)..<close])
        let after = close + 1
        if after < chars.count, chars[after] == "(" {
            var end = after + 1
            var parens = 1
            while end < chars.count {
                if chars[end] == "\\" { end += 2; continue }
                if chars[end] == "(" { parens += 1 }
                if chars[end] == ")" {
                    parens -= 1
                    if parens == 0 { break }
                }
                end += 1
            }
            guard end < chars.count else { return nil }
            let inside = String(chars[(after + 1)..<end]).trimmingSpaces()
            var destination: String
            if inside.hasPrefix("<"), let gt = inside.firstIndex(of: ">") {
                destination = String(inside[inside.index(after: inside.startIndex)..<gt])
            } else {
                destination = String(inside.prefix { $0 != " " && $0 != "\n" })
            }
            destination = Sanitizer.clean(CharacterReferences.decode(destination, in: .attribute))
            return (label, destination, end + 1)
        }
        if after < chars.count, chars[after] == "[", let refClose = chars[after...].firstIndex(of: "]") {
            var key = String(chars[(after + 1)..<refClose]).lowercased()
            if key.isEmpty { key = String(label).lowercased() }
            if let destination = definitions[key] { return (label, destination, refClose + 1) }
            return nil
        }
        if let destination = definitions[String(label).lowercased()] { return (label, destination, after) }
        return nil
    }

    /// `<…>` on one line: the content and the index after `>`.
    func angleAt(_ start: Int) -> (String, Int)? {
        var index = start + 1
        while index < chars.count, chars[index] != ">", chars[index] != "<", chars[index] != "\n" { index += 1 }
        guard index < chars.count, chars[index] == ">", index > start + 1 else { return nil }
        let content = String(chars[(start + 1)..<index])
        guard let first = content.first, first.isLetter || first == "/" || first == "!" else { return nil }
        return (content, index + 1)
    }

    /// The visible text of link or image label characters.
    static func plain(_ label: [Character]) -> String {
        var parser = InlineParser(label, definitions: [:])
        parser.imagesAsText = true
        parser.parse(style: [], link: nil, until: nil)
        parser.flushImages()
        var text = ""
        for part in parser.output {
            if case .spans(let spans) = part { text += spans.map(\.text).joined() }
        }
        return collapseWhitespace(text)
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while slice.first == " " { slice.removeFirst() }
        while slice.last == " " { slice.removeLast() }
        return String(slice)
    }

    func trimmingLeadingSpaces() -> String {
        String(drop { $0 == " " })
    }

    func replacingNewlines() -> String {
        String(map { $0 == "\n" ? " " : $0 })
    }
}
