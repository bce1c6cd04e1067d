/// One element of a parsed XML document: its qualified name, resolved namespace, attributes,
/// child elements and direct text (CDATA included, entities decoded).
///
/// Elements are built once by `MarkupParser` and only read afterwards, which is why the class
/// is marked `@unchecked Sendable`.
public final class XMLElement: @unchecked Sendable {
    /// The name as written, with its prefix (`news:cover_art_icon`).
    public let name: String
    /// The name without its prefix (`cover_art_icon`).
    public let localName: String
    /// The namespace the prefix (or the default namespace) is bound to; nil when there is none
    /// or the prefix was never declared.
    public let namespaceURI: String?
    /// Attributes in document order, by qualified name as written (`href`, `xml:base`,
    /// `opf:role`). Stored as pairs: elements have few attributes, and a dictionary per
    /// element cost more than a linear search.
    public var attributeList: [(name: String, value: String)]
    /// Attributes by qualified name as written (`href`, `xml:base`, `opf:role`).
    public var attributes: [String: String] {
        get { Dictionary(attributeList.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }) }
        set { attributeList = newValue.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) } }
    }
    public var children: [XMLElement]
    /// The element's own text, all runs concatenated in order, without its children's text.
    public var text: String
    /// Where each child starts inside `text` (UTF-8 offset), so `allText` keeps document order.
    var textOffset = 0

    init(name: String, localName: String, namespaceURI: String?, attributeList: [(name: String, value: String)]) {
        self.name = name
        self.localName = localName
        self.namespaceURI = namespaceURI
        self.attributeList = attributeList
        children = []
        text = ""
    }

    public init(name: String, localName: String? = nil, namespaceURI: String? = nil,
                attributes: [String: String] = [:], children: [XMLElement] = [], text: String = "") {
        self.name = name
        self.localName = localName ?? XMLElement.localPart(of: name)
        self.namespaceURI = namespaceURI
        self.attributeList = attributes.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        self.children = children
        self.text = text
    }

    /// Every direct child with this local name (and namespace, when given), in document order.
    public func all(_ localName: String, namespace: String? = nil) -> [XMLElement] {
        children.filter { $0.matches(localName, namespace) }
    }

    /// Every descendant (not this element) with this local name, depth first, in document order.
    public func descendants(_ localName: String, namespace: String? = nil) -> [XMLElement] {
        var found: [XMLElement] = []
        collect(localName, namespace, into: &found)
        return found
    }

    /// The text of this element and all its descendants, in document order.
    public var allText: String {
        if children.isEmpty { return text }
        var out = ""
        appendAllText(to: &out)
        return out
    }

    /// The value of an attribute by its local name: an exact match of the qualified name first
    /// (`href`, or `xml:base` when asked for it), else any prefixed attribute with that local name.
    public func attribute(_ localName: String) -> String? {
        for attribute in attributeList where attribute.name == localName { return attribute.value }
        for (key, value) in attributeList where Self.name(key, isPrefixed: localName) { return value }
        return nil
    }

    /// Whether a qualified name is `localName` with some prefix (`opf:role` for `role`).
    static func name(_ qualified: String, isPrefixed localName: String) -> Bool {
        let utf8 = qualified.utf8
        let wanted = localName.utf8.count
        guard utf8.count > wanted + 1 else { return false }
        let colon = utf8.index(utf8.endIndex, offsetBy: -(wanted + 1))
        return utf8[colon] == UInt8(ascii: ":") && utf8[utf8.index(after: colon)...].elementsEqual(localName.utf8)
    }

    func matches(_ localName: String, _ namespace: String?) -> Bool {
        self.localName == localName && (namespace == nil || namespaceURI == namespace)
    }

    private func collect(_ localName: String, _ namespace: String?, into found: inout [XMLElement]) {
        for child in children {
            if child.matches(localName, namespace) { found.append(child) }
            child.collect(localName, namespace, into: &found)
        }
    }

    private func appendAllText(to out: inout String) {
        let utf8 = text.utf8
        var from = utf8.startIndex
        for child in children {
            let offset = min(max(child.textOffset, 0), utf8.count)
            let to = utf8.index(utf8.startIndex, offsetBy: offset)
            if from < to { out += String(decoding: utf8[from..<to], as: UTF8.self) }
            if to > from { from = to }
            child.appendAllText(to: &out)
        }
        if from < utf8.endIndex { out += String(decoding: utf8[from...], as: UTF8.self) }
    }

    static func localPart(of name: String) -> String {
        guard let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return String(name[name.utf8.index(after: colon)...])
    }
}

/// The result of a parse: the tree read so far, and what went wrong, if anything.
public struct XMLDocument: Sendable {
    /// The root element; nil only when not even one start tag could be read.
    public let root: XMLElement?
    /// nil when the document is well-formed (as far as this tolerant reader checks); otherwise
    /// the first problem met, with its line ("line 12: document ends before </entry> closes").
    public let error: String?
    /// Problems that did not stop reading: invalid UTF-8 replaced, an unknown encoding read
    /// as UTF-8, a DOCTYPE whose entities were ignored.
    public let warnings: [String]

    public init(root: XMLElement?, error: String?, warnings: [String] = []) {
        self.root = root
        self.error = error
        self.warnings = warnings
    }
}
