/// One node of the tree, stored with all the others in one array: no object per node,
/// so building and freeing a large document stays cheap.
struct NodeRecord {
    /// Lower-cased local name (namespace prefix dropped); empty for text.
    var name: String
    var attributes: [String: String]
    var text: String
    var firstChild: Int32 = -1
    var lastChild: Int32 = -1
    var nextSibling: Int32 = -1
    /// Text: its whitespace is already collapsed (it is not inside `<pre>`).
    var collapsed = false
    /// Text: it holds controls, escapes or bidi overrides for `Sanitizer` to remove.
    var needsCleaning = false
    /// Element: whitespace inside is kept as written (`<pre>` and its descendants).
    var preformatted = false
    /// Element: implicit closes (of `<p>`, `<li>`, `<a>`) never look past it.
    var isScopeBoundary = false

    init(element name: String, attributes: [String: String] = [:]) {
        self.name = name
        self.attributes = attributes
        self.text = ""
    }

    init(text: String, collapsed: Bool, needsCleaning: Bool) {
        self.name = ""
        self.attributes = [:]
        self.text = text
        self.collapsed = collapsed
        self.needsCleaning = needsCleaning
    }
}

/// A node of the tolerant HTML tree (an element with children, or text), as a view
/// into the tree's array.
struct HTMLNode: Equatable {
    let nodes: [NodeRecord]
    let index: Int

    static func == (a: HTMLNode, b: HTMLNode) -> Bool { a.index == b.index }

    var name: String { nodes[index].name }
    var text: String { nodes[index].text }
    var attributes: [String: String] { nodes[index].attributes }
    var collapsed: Bool { nodes[index].collapsed }
    var needsCleaning: Bool { nodes[index].needsCleaning }
    var isText: Bool { nodes[index].name.isEmpty }
    var hasAttributes: Bool { !nodes[index].attributes.isEmpty }

    subscript(attribute: String) -> String? { nodes[index].attributes[attribute] }

    var children: Children { Children(nodes: nodes, first: Int(nodes[index].firstChild)) }

    struct Children: Sequence {
        let nodes: [NodeRecord]
        let first: Int

        struct Iterator: IteratorProtocol {
            let nodes: [NodeRecord]
            var upcoming: Int
            mutating func next() -> HTMLNode? {
                guard upcoming >= 0 else { return nil }
                let node = HTMLNode(nodes: nodes, index: upcoming)
                upcoming = Int(nodes[upcoming].nextSibling)
                return node
            }
        }

        func makeIterator() -> Iterator { Iterator(nodes: nodes, upcoming: first) }
    }

    /// All text below this node, whitespace as written.
    func textContent(into out: inout String) {
        if isText {
            out += nodes[index].text
            return
        }
        if nodes[index].name == "br" {
            out += "\n"
            return
        }
        for child in children { child.textContent(into: &out) }
    }
}

/// Reads HTML or XHTML bytes into an `HTMLNode` tree the way a forgiving browser would,
/// simplified: never throws, never fetches or expands anything, bounded nesting.
struct HTMLTreeBuilder {
    /// Elements deeper than this are flattened into their ancestor, so hostile nesting
    /// cannot exhaust the stack of later recursive passes.
    static let maximumDepth = 160

    /// Every node; the root (`#root`) first.
    private(set) var nodes = [NodeRecord(element: "#root")]
    private(set) var title: String?
    /// Indexes of the open elements.
    private var stack = [0]
    private var headOpen = false
    private var headNode: Int?

    init() {}

    static func parse(_ html: String) -> (root: HTMLNode, title: String?) {
        var builder = HTMLTreeBuilder()
        var source = html
        source.withUTF8 { bytes in
            var tokenizer = HTMLTokenizer(bytes: bytes)
            tokenizer.run(into: &builder)
        }
        return (HTMLNode(nodes: builder.nodes, index: 0), builder.title)
    }

    /// Adds `record` as the last child of `parent` (or unattached, for `<head>`).
    private mutating func add(_ record: NodeRecord, to parent: Int?) -> Int {
        let index = nodes.count
        nodes.append(record)
        if let parent {
            let last = Int(nodes[parent].lastChild)
            if last >= 0 {
                nodes[last].nextSibling = Int32(index)
            } else {
                nodes[parent].firstChild = Int32(index)
            }
            nodes[parent].lastChild = Int32(index)
        }
        return index
    }

    // MARK: Element categories

    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "image", "input", "link", "meta",
        "param", "source", "track", "wbr", "keygen", "basefont", "bgsound", "frame",
    ]
    /// Start tags that close an open `<p>`.
    static let closesParagraph: Set<String> = [
        "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div",
        "dl", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5",
        "h6", "header", "hgroup", "hr", "main", "menu", "nav", "ol", "p", "pre", "section",
        "summary", "table", "ul", "li", "dd", "dt", "plaintext", "listing", "xmp",
    ]
    /// Elements an implicit close never looks past.
    static let scopeBoundaries: Set<String> = [
        "#root", "html", "table", "td", "th", "caption", "button", "object", "template", "marquee", "applet",
    ]
    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    static let headContent: Set<String> = [
        "title", "meta", "link", "style", "script", "base", "noscript", "template",
    ]

    // MARK: Tokenizer callbacks

    /// Whether text here keeps its whitespace (inside `<pre>`).
    var preservesWhitespace: Bool { nodes[stack[stack.count - 1]].preformatted }

    /// Text for the current element; `collapsed` when its whitespace runs are already single
    /// spaces, `needsCleaning` when it holds anything `Sanitizer` removes.
    mutating func text(_ text: String, collapsed: Bool = false, needsCleaning: Bool = true) {
        if headOpen {
            if text.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D || $0 == 0x0C }) {
                return
            }
            closeHead()
        }
        let parent = stack[stack.count - 1]
        let last = Int(nodes[parent].lastChild)
        if last >= 0, nodes[last].name.isEmpty {
            nodes[last].text += text
            nodes[last].collapsed = false  // two collapsed runs may meet at spaces
            nodes[last].needsCleaning = nodes[last].needsCleaning || needsCleaning
        } else {
            _ = add(NodeRecord(text: text, collapsed: collapsed, needsCleaning: needsCleaning), to: parent)
        }
    }

    mutating func titleText(_ text: String) {
        let inForeign = stack.contains { nodes[$0].name == "svg" || nodes[$0].name == "math" }
        if title == nil, !inForeign {
            let cleaned = collapseWhitespace(Sanitizer.clean(text))
            if !cleaned.isEmpty { title = cleaned }
        }
    }

    /// What a start tag does to the open elements, looked up once per tag.
    enum StartAction {
        case document, head, listItem, definition, heading, row, cell, section, anchor, option, other
    }

    struct TagInfo {
        var action: StartAction = .other
        var closesParagraph = false
        var isVoid = false
    }

    static let tagInfo: [String: TagInfo] = {
        var table: [String: TagInfo] = [:]
        let actions: [(StartAction, [String])] = [
            (.document, ["html", "body"]), (.head, ["head"]), (.listItem, ["li"]), (.definition, ["dt", "dd"]),
            (.heading, ["h1", "h2", "h3", "h4", "h5", "h6"]), (.row, ["tr"]), (.cell, ["td", "th"]),
            (.section, ["thead", "tbody", "tfoot"]), (.anchor, ["a"]), (.option, ["option"]),
        ]
        for (action, names) in actions {
            for name in names { table[name, default: TagInfo()].action = action }
        }
        for name in closesParagraph { table[name, default: TagInfo()].closesParagraph = true }
        for name in voidElements { table[name, default: TagInfo()].isVoid = true }
        return table
    }()

    mutating func startTag(_ name: String, attributes: [String: String], selfClosing: Bool) {
        let info = Self.tagInfo[name] ?? TagInfo()
        switch info.action {
        case .document:
            if headOpen { closeHead() }
            return
        case .head:
            if !headOpen && headNode == nil {
                let node = add(NodeRecord(element: "head"), to: nil)
                headNode = node
                headOpen = true
                stack.append(node)
            }
            return
        default:
            break
        }
        if headOpen && !Self.headContent.contains(name) { closeHead() }

        if info.closesParagraph { closeInScope(Self.paragraphNames) }
        switch info.action {
        case .listItem:
            closeInScope(Self.listItemNames, boundaries: Self.listBoundaries)
        case .definition:
            closeInScope(Self.definitionNames, boundaries: Self.definitionBoundaries)
        case .heading:
            if let top = stack.last, top > 0, Self.headings.contains(nodes[top].name) { stack.removeLast() }
        case .row:
            closeInTable(Self.rowNames, boundaries: Self.rowBoundaries)
        case .cell:
            closeInTable(Self.cellNames, boundaries: Self.cellBoundaries)
        case .section:
            closeInTable(Self.sectionNames, boundaries: Self.tableBoundary)
            closeInTable(Self.rowNames, boundaries: Self.tableBoundary)
        case .anchor:
            closeInScope(Self.anchorNames)
        case .option:
            closeInScope(Self.optionNames, boundaries: Self.selectBoundary)
        case .document, .head, .other:
            break
        }

        let parent = stack[stack.count - 1]
        var record = NodeRecord(element: name, attributes: attributes)
        record.preformatted = nodes[parent].preformatted || name == "pre" || name == "listing"
            || name == "textarea" || name == "plaintext"
        record.isScopeBoundary = Self.scopeBoundaries.contains(name)
        let node = add(record, to: parent)
        if selfClosing || info.isVoid { return }
        if stack.count >= Self.maximumDepth { return }
        stack.append(node)
    }

    mutating func endTag(_ name: String) {
        switch name {
        case "br":
            // `</br>` is read as `<br>`, as browsers do.
            startTag("br", attributes: [:], selfClosing: true)
            return
        case "html", "body":
            return
        case "head":
            if headOpen { closeHead() }
            return
        default:
            break
        }
        // Pop to the nearest open element of that name; a stray end tag is ignored.
        var index = stack.count - 1
        while index > 0 {
            if nodes[stack[index]].name == name {
                stack.removeSubrange(index...)
                if headOpen, !stack.contains(where: { $0 == headNode }) { headOpen = false }
                return
            }
            if Self.headings.contains(name) && Self.headings.contains(nodes[stack[index]].name) {
                // `<h2>…</h3>` closes the open heading.
                stack.removeSubrange(index...)
                return
            }
            index -= 1
        }
    }

    // MARK: Helpers

    private mutating func closeHead() {
        guard headOpen, let head = headNode, let index = stack.firstIndex(where: { $0 == head }) else {
            headOpen = false
            return
        }
        stack.removeSubrange(index...)
        headOpen = false
    }

    /// Closes the nearest open element of `names` inside the current table; cells and
    /// rows are not boundaries here.
    // Kept as static arrays: a literal at the call site would be built on every tag.
    static let paragraphNames: StaticNames = ["p"]
    static let listItemNames: StaticNames = ["li"]
    static let definitionNames: StaticNames = ["dt", "dd"]
    static let rowNames: StaticNames = ["tr"]
    static let cellNames: StaticNames = ["td", "th"]
    static let sectionNames: StaticNames = ["thead", "tbody", "tfoot"]
    static let anchorNames: StaticNames = ["a"]
    static let optionNames: StaticNames = ["option"]
    static let listBoundaries = ["ul", "ol", "menu", "dir"]
    static let definitionBoundaries = ["dl"]
    static let rowBoundaries = ["table", "thead", "tbody", "tfoot"]
    static let cellBoundaries = ["tr", "table"]
    static let tableBoundary = ["table"]
    static let selectBoundary = ["select"]

    private mutating func closeInTable(_ names: StaticNames, boundaries: [String]) {
        var index = stack.count - 1
        while index > 0 {
            let current = nodes[stack[index]].name
            if names.contains(current) {
                stack.removeSubrange(index...)
                return
            }
            if boundaries.contains(current) || current == "#root" { return }
            index -= 1
        }
    }

    private mutating func closeInScope(_ names: StaticNames, boundaries: [String] = []) {
        var index = stack.count - 1
        while index > 0 {
            let current = nodes[stack[index]].name
            if names.contains(current) {
                stack.removeSubrange(index...)
                return
            }
            if nodes[stack[index]].isScopeBoundary || boundaries.contains(current) { return }
            index -= 1
        }
    }
}

/// Up to three tag names, compared without hashing or allocating.
struct StaticNames: ExpressibleByArrayLiteral {
    let first: String
    let second: String?
    let third: String?

    init(arrayLiteral names: String...) {
        first = names.first ?? ""
        second = names.count > 1 ? names[1] : nil
        third = names.count > 2 ? names[2] : nil
    }

    func contains(_ name: String) -> Bool {
        name == first || name == second || name == third
    }
}

/// Collapses runs of HTML whitespace into one space and trims both ends.
func collapseWhitespace(_ text: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    var pendingSpace = false
    for byte in text.utf8 {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
            pendingSpace = !out.isEmpty
        default:
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            out.append(byte)
        }
    }
    return String(decoding: out, as: UTF8.self)
}
