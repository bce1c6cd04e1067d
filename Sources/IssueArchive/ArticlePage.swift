import Foundation
import Markup

/// A web page read into a small tree for the article extractor: elements with the few
/// attributes extraction looks at, text, the document's `<title>`, its `<meta>` tags and
/// its JSON-LD blocks. Tolerant the way a browser is, simplified: a `<p>` ends at the next
/// block, a list item at the next item, an end tag closes up to its nearest open element
/// and a stray one is ignored. Never fetches or expands anything.
struct ArticlePage {
    struct Node {
        /// Lower-cased tag name; empty for text.
        var name: String
        var attributes: [String: String] = [:]
        var text = ""
        var parent: Int
        var children: [Int] = []
        var isText: Bool { name.isEmpty }
    }

    /// Every node; the root (`#root`) first.
    private(set) var nodes = [Node(name: "#root", parent: -1)]
    private(set) var title: String?
    /// `<meta>` tags as `property`/`name`/`itemprop` (lower-cased) and `content`, in page order.
    private(set) var meta: [(key: String, value: String)] = []
    /// The text of each `<script type="application/ld+json">`.
    private(set) var structuredData: [String] = []
    /// `<link rel=…>` tags as rel (lower-cased) and href.
    private(set) var links: [(rel: String, href: String)] = []
    private var stack = [0]

    /// Elements deeper than this are flattened into their ancestor, so hostile nesting cannot
    /// exhaust the stack of the extractor's recursive passes.
    static let maximumDepth = 160

    static let keptAttributes: Set<String> = [
        "id", "class", "role", "hidden", "aria-hidden", "style", "href", "src", "data-src", "alt", "itemprop", "datetime",
        "rel", "content", "itemtype",
    ]
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]
    /// Skipped with everything inside: never text of the page.
    static let skipped: Set<String> = ["style", "template", "noembed", "noframes", "iframe", "xmp", "svg", "math", "textarea", "select", "canvas"]
    static let closesParagraph: Set<String> = [
        "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure", "footer",
        "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "menu", "nav", "ol", "p", "pre", "section",
        "table", "ul", "li", "dd", "dt",
    ]

    init(html: String) {
        HTMLTokens.reading(html) { tokens in
            while let token = tokens.next() {
                switch token {
                case .text(let text):
                    addText(text)
                case .start(let name, let attributes, let selfClosing):
                    switch name {
                    case "title":
                        let text = collapsedWhitespace(tokens.rawText(of: name))
                        if title == nil, !text.isEmpty { title = CharacterReferences.decode(text) }
                    case "script":
                        let type = attributes.first { $0.0 == "type" }?.1.lowercased() ?? ""
                        let text = selfClosing ? "" : tokens.rawText(of: name)
                        if type.contains("ld+json") { structuredData.append(text) }
                    case "meta":
                        let value = attributes.first { $0.0 == "content" }?.1 ?? ""
                        if let key = attributes.first(where: { ["property", "name", "itemprop"].contains($0.0) })?.1, !value.isEmpty {
                            meta.append((key.lowercased(), value))
                        }
                    case "link":
                        if let rel = attributes.first(where: { $0.0 == "rel" })?.1, let href = attributes.first(where: { $0.0 == "href" })?.1 {
                            links.append((rel.lowercased(), href))
                        }
                    case "html", "body", "head":
                        break
                    case _ where Self.skipped.contains(name):
                        if !selfClosing { tokens.skipElement(name) }
                    default:
                        start(name, attributes, selfClosing: selfClosing)
                    }
                case .end(let name):
                    end(name)
                }
            }
        }
    }

    private mutating func add(_ node: Node) -> Int {
        nodes.append(node)
        nodes[node.parent].children.append(nodes.count - 1)
        return nodes.count - 1
    }

    private mutating func addText(_ text: String) {
        let parent = stack[stack.count - 1]
        if let last = nodes[parent].children.last, nodes[last].isText {
            nodes[last].text += text
        } else {
            _ = add(Node(name: "", text: text, parent: parent))
        }
    }

    private mutating func start(_ name: String, _ attributes: [(String, String)], selfClosing: Bool) {
        if Self.closesParagraph.contains(name) { closeOpen("p", within: ["div", "td", "th", "li", "blockquote", "section", "article"]) }
        if name == "li" { closeOpen("li", within: ["ul", "ol", "menu"]) }
        if name == "dt" || name == "dd" { closeOpen("dt", within: ["dl"]); closeOpen("dd", within: ["dl"]) }
        if name == "tr" { closeOpen("tr", within: ["table"]) }
        if name == "td" || name == "th" { closeOpen("td", within: ["tr", "table"]); closeOpen("th", within: ["tr", "table"]) }
        if name == "a" { closeOpen("a", within: []) }
        var kept: [String: String] = [:]
        for (key, value) in attributes where Self.keptAttributes.contains(key) { kept[key] = value }
        let node = add(Node(name: name, attributes: kept, parent: stack[stack.count - 1]))
        if selfClosing || Self.voidElements.contains(name) || stack.count >= Self.maximumDepth { return }
        stack.append(node)
    }

    /// Closes the nearest open `name`, unless one of `boundaries` is open nearer.
    private mutating func closeOpen(_ name: String, within boundaries: Set<String>) {
        var index = stack.count - 1
        while index > 0 {
            let current = nodes[stack[index]].name
            if current == name {
                stack.removeSubrange(index...)
                return
            }
            if boundaries.contains(current) { return }
            index -= 1
        }
    }

    private mutating func end(_ name: String) {
        if name == "br" || name == "p", !stack.contains(where: { nodes[$0].name == name }) {
            // `</p>` with none open is an empty paragraph and `</br>` a line break, as in browsers.
            start(name, [], selfClosing: true)
            return
        }
        if let index = stack.lastIndex(where: { nodes[$0].name == name }), index > 0 { stack.removeSubrange(index...) }
    }

    // MARK: Reading the tree

    func attribute(_ node: Int, _ name: String) -> String? { nodes[node].attributes[name] }

    /// All text below `node`, whitespace as written, a line break for `<br>`.
    func text(of node: Int) -> String {
        var out = ""
        appendText(of: node, to: &out)
        return out
    }

    private func appendText(of node: Int, to out: inout String) {
        if nodes[node].isText { out += nodes[node].text; return }
        if nodes[node].name == "br" { out += "\n"; return }
        for child in nodes[node].children { appendText(of: child, to: &out) }
    }

    /// Every element below `node` (itself included) in document order, but those `skipping`
    /// says and what is inside them.
    func elements(below node: Int, skipping: (Int) -> Bool = { _ in false }) -> [Int] {
        var found: [Int] = []
        var pending = [node]
        while let next = pending.popLast() {
            guard !nodes[next].isText, !skipping(next) else { continue }
            found.append(next)
            pending.append(contentsOf: nodes[next].children.reversed())
        }
        return found
    }
}

/// Runs of whitespace as one space, both ends trimmed.
func collapsedWhitespace(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}
