import Foundation

/// The scoring behind `ArticleExtraction`: which part of a page is its article, and the
/// blocks of text and pictures in it. Works on node indexes of an `ArticlePage`, with
/// one array per measure (no object per node).
struct ArticleScorer {
    let page: ArticlePage
    let base: URL?
    /// Not text of the page: navigation, asides, hidden parts, names that say comment or share.
    private var dropped: [Bool]
    /// Characters of text (not counting whitespace) below each node, dropped parts left out.
    private var textLength: [Int]
    /// The same, inside links.
    private var linkLength: [Int]
    private var commas: [Int]
    private var score: [Double]
    private var scored: [Bool]
    private(set) var firstHeading: String?

    init(page: ArticlePage, base: URL?) {
        self.page = page
        self.base = base
        let count = page.nodes.count
        dropped = Array(repeating: false, count: count)
        textLength = Array(repeating: 0, count: count)
        linkLength = Array(repeating: 0, count: count)
        commas = Array(repeating: 0, count: count)
        score = Array(repeating: 0, count: count)
        scored = Array(repeating: false, count: count)
        measure(0, inLink: false)
    }

    // MARK: Names and tags

    static let droppedTags: Set<String> = [
        "nav", "aside", "footer", "header", "button", "input", "noscript", "menu", "dialog", "object", "embed",
        "video", "audio", "label",
    ]
    static let droppedRoles: Set<String> = ["menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog", "banner", "contentinfo"]
    static let unlikelyNames = [
        "-ad-", "ai2html", "banner", "breadcrumb", "combx", "comment", "community", "cover-wrap", "disqus", "extra", "footer",
        "gdpr", "header", "legends", "menu", "related", "remark", "replies", "rss", "shoutbox", "sidebar", "skyscraper",
        "social", "sponsor", "supplemental", "ad-break", "agegate", "pagination", "pager", "popup", "share", "newsletter",
        "subscribe", "promo", "cookie", "signup", "recommend", "most-popular", "trending", "outbrain", "taboola", "toolbar",
        "byline", "author-bio", "tags",
    ]
    static let likelyNames = ["and", "article", "body", "column", "content", "main", "shadow", "story"]
    static let negativeNames = [
        "-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "foot", "footer", "footnote", "gdpr", "masthead",
        "media", "meta", "outbrain", "promo", "related", "scroll", "share", "shoutbox", "sidebar", "skyscraper", "sponsor",
        "shopping", "tags", "tool", "widget", "caption", "byline", "newsletter",
    ]
    static let positiveNames = ["article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "pagination", "post", "text", "blog", "story"]
    static let blockTags: Set<String> = [
        "address", "article", "aside", "blockquote", "div", "dl", "fieldset", "figure", "footer", "form", "h1", "h2", "h3",
        "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "ul", "tr", "td", "dd", "dt",
        "figcaption", "details", "summary",
    ]

    private func names(_ node: Int) -> String {
        ((page.attribute(node, "class") ?? "") + " " + (page.attribute(node, "id") ?? "")).lowercased()
    }

    /// +25 for each of a likely class and id, -25 for each of a telling one.
    private func classWeight(_ node: Int) -> Double {
        var weight = 0.0
        for name in [page.attribute(node, "class"), page.attribute(node, "id")].compactMap({ $0?.lowercased() }) where !name.isEmpty {
            if Self.negativeNames.contains(where: name.contains) { weight -= 25 }
            if Self.positiveNames.contains(where: name.contains) { weight += 25 }
        }
        return weight
    }

    private func isDropped(_ node: Int) -> Bool {
        let name = page.nodes[node].name
        if Self.droppedTags.contains(name) { return true }
        if page.attribute(node, "hidden") != nil || page.attribute(node, "aria-hidden") == "true" { return true }
        if let style = page.attribute(node, "style")?.lowercased().replacingOccurrences(of: " ", with: ""),
           style.contains("display:none") || style.contains("visibility:hidden") { return true }
        if let role = page.attribute(node, "role")?.lowercased(), Self.droppedRoles.contains(role) { return true }
        guard !["article", "main", "body", "a", "table", "tbody", "tr", "td", "p"].contains(name) else { return false }
        let names = names(node)
        return Self.unlikelyNames.contains(where: names.contains) && !Self.likelyNames.contains(where: names.contains)
            && textLength(node) < 2000
    }

    // MARK: Measuring

    private mutating func measure(_ node: Int, inLink: Bool) {
        let record = page.nodes[node]
        if record.isText {
            var length = 0
            var comma = 0
            for scalar in record.text.unicodeScalars where !scalar.properties.isWhitespace {
                length += 1
                if scalar == "," || scalar == "，" || scalar == "、" { comma += 1 }
            }
            textLength[node] = length
            linkLength[node] = inLink ? length : 0
            commas[node] = comma
            return
        }
        for child in record.children {
            measure(child, inLink: inLink || record.name == "a")
            guard !dropped[child] else { continue }
            textLength[node] += textLength[child]
            linkLength[node] += linkLength[child]
            commas[node] += commas[child]
        }
        if firstHeading == nil, record.name == "h1" {
            let text = collapsedWhitespace(page.text(of: node))
            if !text.isEmpty { firstHeading = text }
        }
        if node != 0, isDropped(node) { dropped[node] = true }
    }

    private func textLength(_ node: Int) -> Int { textLength[node] }

    private func linkDensity(_ node: Int) -> Double {
        textLength[node] == 0 ? 0 : Double(linkLength[node]) / Double(textLength[node])
    }

    private func hasBlockChildren(_ node: Int) -> Bool {
        page.nodes[node].children.contains { Self.blockTags.contains(page.nodes[$0].name) }
    }

    // MARK: Scoring

    /// The article's blocks, or none when nothing scores.
    mutating func mainBlocks() -> [ArticleBlock] {
        guard let top = topCandidate() else { return [] }
        var blocks: [ArticleBlock] = []
        let parts = Set(withSiblings(top)).union(sameKind(as: top)).sorted()  // indexes are in document order
        for node in parts { emit(node, into: &blocks, checked: false) }
        return blocks
    }

    private func isScorable(_ node: Int) -> Bool {
        switch page.nodes[node].name {
        case "p", "pre", "td", "blockquote": return true
        case "div", "section", "span": return !hasBlockChildren(node)
        default: return false
        }
    }

    private mutating func topCandidate() -> Int? {
        var candidates: [Int] = []
        var pending = [0]
        while let node = pending.popLast() {
            guard !page.nodes[node].isText, !dropped[node] else { continue }
            pending.append(contentsOf: page.nodes[node].children)
            if isScorable(node) {
                if textLength[node] >= 25 { award(length: textLength[node], commas: commas[node], from: page.nodes[node].parent, to: &candidates) }
                continue
            }
            // Text written straight into a box between its blocks (and lines apart by `<br>`) are paragraphs too.
            guard Self.boxTags.contains(page.nodes[node].name) else { continue }
            var length = 0, comma = 0
            for child in page.nodes[node].children + [-1] {
                if child < 0 || Self.blockTags.contains(page.nodes[child].name) || page.nodes[child].name == "br" {
                    if length >= 25 { award(length: length, commas: comma, from: node, to: &candidates) }
                    length = 0
                    comma = 0
                } else if !dropped[child] {
                    length += textLength[child]
                    comma += commas[child]
                }
            }
        }
        for node in candidates { score[node] *= 1 - linkDensity(node) }
        guard var top = candidates.max(by: { score[$0] < score[$1] }) else { return nil }
        // Several near-best candidates inside one box: the box is the article (cut into cards or columns).
        let near = candidates.filter { $0 != top && score[$0] >= score[top] * 0.75 }.sorted { score[$0] > score[$1] }.prefix(5)
        if near.count >= 3 {
            var ancestor = page.nodes[top].parent
            while ancestor > 0 {
                if near.filter({ isInside($0, ancestor) }).count >= 3 { top = ancestor; break }
                ancestor = page.nodes[ancestor].parent
            }
        }
        // A parent that scores better than its best child is the article (its text runs over several boxes).
        var parent = page.nodes[top].parent
        var last = score[top]
        let threshold = last / 3
        while parent > 0 {
            if !scored[parent] { parent = page.nodes[parent].parent; continue }
            if score[parent] < threshold { break }
            if score[parent] > last { top = parent; break }
            last = score[parent]
            parent = page.nodes[parent].parent
        }
        // An only child is its parent's whole content.
        while page.nodes[top].parent > 0,
              page.nodes[page.nodes[top].parent].children.filter({ !dropped[$0] && (textLength[$0] > 0 || !page.nodes[$0].isText) }).count == 1 {
            top = page.nodes[top].parent
        }
        return top
    }

    private func isInside(_ node: Int, _ ancestor: Int) -> Bool {
        var current = node
        while current > 0 {
            if current == ancestor { return true }
            current = page.nodes[current].parent
        }
        return false
    }

    /// A paragraph's points to the box it is in (`first`) and, less and less, the boxes around.
    private mutating func award(length: Int, commas: Int, from first: Int, to candidates: inout [Int]) {
        let points = 1 + Double(commas) + min(Double(length) / 100, 3)
        var ancestor = first
        var level = 0
        while ancestor > 0, level < 5 {
            if !scored[ancestor] {
                scored[ancestor] = true
                score[ancestor] = initialScore(ancestor)
                candidates.append(ancestor)
            }
            score[ancestor] += points / (level == 0 ? 1 : level == 1 ? 2 : Double(level) * 3)
            ancestor = page.nodes[ancestor].parent
            level += 1
        }
    }

    private func initialScore(_ node: Int) -> Double {
        let tag: Double
        switch page.nodes[node].name {
        case "div", "article", "main": tag = 5
        case "pre", "td", "blockquote": tag = 3
        case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": tag = -3
        case "h1", "h2", "h3", "h4", "h5", "h6", "th": tag = -5
        default: tag = 0
        }
        return tag + classWeight(node)
    }

    /// The top candidate and those of its siblings that read as more of the article.
    private func withSiblings(_ top: Int) -> [Int] {
        let parent = page.nodes[top].parent
        guard parent >= 0 else { return [top] }
        let threshold = max(10, score[top] * 0.2)
        let topClass = page.attribute(top, "class") ?? ""
        return page.nodes[parent].children.filter { sibling in
            if sibling == top { return true }
            guard !page.nodes[sibling].isText, !dropped[sibling] else { return false }
            var bonus = 0.0
            if !topClass.isEmpty, page.attribute(sibling, "class") == topClass { bonus = score[top] * 0.2 }
            if scored[sibling], score[sibling] + bonus >= threshold { return true }
            guard page.nodes[sibling].name == "p" else { return false }
            let length = textLength[sibling]
            let density = linkDensity(sibling)
            if length > 80 { return density < 0.25 }
            let text = page.text(of: sibling)
            return length > 0 && density == 0 && (text.contains(". ") || text.hasSuffix("."))
        }
    }

    /// Boxes near the article's box (within two levels up) of its very class, with text and
    /// few links: the rest of an article cut into chunks between advertisements. (Farther
    /// away, boxes of the same class are usually teasers of other articles.)
    private func sameKind(as top: Int) -> [Int] {
        guard let kind = page.attribute(top, "class"), !kind.isEmpty else { return [] }
        var around = top
        for _ in 0..<2 where page.nodes[around].parent > 0 { around = page.nodes[around].parent }
        return page.elements(below: around, skipping: { dropped[$0] }).filter { node in
            node != top && page.nodes[node].attributes["class"] == kind && !dropped[node] && textLength[node] >= 100
                && linkDensity(node) < 0.3 && !isInside(node, top) && !isInside(top, node)
        }
    }

    // MARK: Emitting

    /// A box of text of its own (written straight in, or between `<br>`s), which counts as a
    /// paragraph when judging clutter.
    private func isParagraphLike(_ element: Int) -> Bool {
        textLength[element] >= 25 && !hasBlockChildren(element)
    }

    /// Boxes inside the article that are mostly links, pictures or forms (related stories,
    /// share bars, galleries): readability's "clean conditionally".
    private func isClutter(_ node: Int) -> Bool {
        let name = page.nodes[node].name
        guard ["div", "section", "ul", "ol", "table", "dl", "figure", "span", "form", "fieldset"].contains(name) else { return false }
        let weight = classWeight(node)
        if weight + (scored[node] ? score[node] : 0) < 0 { return true }
        guard commas[node] < 10 else { return false }
        var paragraphs = 0, pictures = 0, items = 0, inputs = 0
        for element in page.elements(below: node, skipping: { dropped[$0] }) {
            switch page.nodes[element].name {
            case "p": paragraphs += 1
            case "div" where isParagraphLike(element), "section" where isParagraphLike(element): paragraphs += 1
            case "img": pictures += 1
            case "li": items += 1
            case "input", "select", "textarea": inputs += 1
            default: break
            }
        }
        let isList = name == "ul" || name == "ol"
        let density = linkDensity(node)
        let length = textLength[node]
        if pictures > 1 && Double(paragraphs) / Double(pictures) < 0.5 && name != "figure" { return true }
        if !isList && items - 100 > paragraphs { return true }
        if Double(inputs) > Double(paragraphs) / 3 { return true }
        if !isList && name != "figure" && length < 25 && (pictures == 0 || pictures > 2) { return true }
        if weight < 25 && density > (isList ? 0.5 : 0.2) && length < 600 { return true }
        if weight >= 25 && density > 0.5 { return true }
        return false
    }

    /// Boxes whose loose text counts as paragraphs.
    static let boxTags: Set<String> = ["div", "section", "article", "main", "td", "blockquote", "form", "center", "body"]

    private static let paragraphTags: Set<String> = ["p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dd", "dt", "figcaption", "td", "th", "address"]

    /// `checked`: whether the node may be clutter (the article's own boxes are not).
    private func emit(_ node: Int, into blocks: inout [ArticleBlock], checked: Bool = true) {
        let record = page.nodes[node]
        if record.isText {
            let text = collapsedWhitespace(record.text)
            if !text.isEmpty { blocks.append(.paragraph(text)) }
            return
        }
        guard !dropped[node], !checked || !isClutter(node) else { return }
        switch record.name {
        case "img":
            if let picture = picture(node) { blocks.append(picture) }
            return
        case "pre":
            let text = page.text(of: node).trimmingCharacters(in: .newlines)
            if !text.isEmpty { blocks.append(.preformatted(text)) }
            return
        case "blockquote" where !hasBlockChildren(node):
            let text = inlineText(node, pictures: &blocks)
            if !text.isEmpty { blocks.append(.quote(text)) }
            return
        case _ where Self.paragraphTags.contains(record.name) || !hasBlockChildren(node):
            var pictures: [ArticleBlock] = []
            let text = inlineText(node, pictures: &pictures)
            blocks += pictures
            guard !text.isEmpty else { return }
            switch record.name {
            case "h1":
                break  // the article's title, which the extraction gives apart
            case "h2", "h3", "h4", "h5", "h6":
                blocks.append(.heading(text, level: max(2, Int(record.name.dropFirst()) ?? 2)))
            case "li": blocks.append(.listItem(text))
            default: blocks.append(.paragraph(text))
            }
            return
        default:
            break
        }
        // A box of blocks: text between its blocks reads as paragraphs of its own.
        var loose: [Int] = []
        func flushLoose() {
            guard !loose.isEmpty else { return }
            var pictures: [ArticleBlock] = []
            let text = collapsedWhitespace(loose.map { inlineText($0, pictures: &pictures) }.joined(separator: " "))
            blocks += pictures
            if !text.isEmpty { blocks.append(.paragraph(text)) }
            loose = []
        }
        for child in record.children {
            if page.nodes[child].name == "br" {
                flushLoose()
            } else if page.nodes[child].isText || !Self.blockTags.contains(page.nodes[child].name) && page.nodes[child].name != "img" {
                loose.append(child)
            } else {
                flushLoose()
                emit(child, into: &blocks)
            }
        }
        flushLoose()
    }

    /// The text of an element as one line; its pictures go to `pictures`.
    private func inlineText(_ node: Int, pictures: inout [ArticleBlock]) -> String {
        var out = ""
        func walk(_ node: Int) {
            let record = page.nodes[node]
            if record.isText { out += record.text; return }
            guard !dropped[node] else { return }
            switch record.name {
            case "br": out += " "
            case "img": if let picture = picture(node) { pictures.append(picture) }
            default:
                let block = Self.blockTags.contains(record.name)
                if block { out += " " }
                for child in record.children { walk(child) }
                if block { out += " " }
            }
        }
        walk(node)
        return collapsedWhitespace(out)
    }

    private func picture(_ node: Int) -> ArticleBlock? {
        let source = [page.attribute(node, "data-src"), page.attribute(node, "src")].compactMap { $0 }
            .first { !$0.isEmpty && !$0.lowercased().hasPrefix("data:") }
        guard let source, let url = ArticleExtraction.resolve(source, against: base) else { return nil }
        return .picture(url, alt: collapsedWhitespace(page.attribute(node, "alt") ?? ""))
    }
}
