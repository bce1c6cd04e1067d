/// What the readers of a document ask of an element, whether it is a node of the tree
/// (`XMLElement`) or of a flat table (`XMLNode`), so one reader serves both.
public protocol MarkupElement {
    associatedtype Children: Sequence where Children.Element == Self
    /// The name as written, with its prefix (`news:cover_art_icon`).
    var name: String { get }
    /// The name without its prefix (`cover_art_icon`).
    var localName: String { get }
    /// The namespace of the prefix (or of the default namespace); nil when none was declared.
    var namespaceURI: String? { get }
    /// The element's own text, without its children's.
    var text: String { get }
    /// The text of the element and all its descendants, in document order.
    var allText: String { get }
    /// The child elements, in document order.
    var children: Children { get }
    /// An attribute by qualified name as written (`href`, `xml:base`), else any prefixed
    /// attribute with that local name.
    func attribute(_ localName: String) -> String?
    /// Whether an `xmlns` or `xmlns:p` attribute of this element declares `uri`.
    func declares(_ uri: String) -> Bool
}

extension MarkupElement {
    /// The first direct child with this local name (and namespace, when given).
    public func first(_ localName: String, namespace: String? = nil) -> Self? {
        children.first { $0.localName == localName && (namespace == nil || $0.namespaceURI == namespace) }
    }
}

extension XMLElement: MarkupElement {
    public func declares(_ uri: String) -> Bool {
        attributeList.contains { key, value in (key == "xmlns" || key.hasPrefix("xmlns:")) && value == uri }
    }
}

/// An element of a flat table: how `MarkupParser` hands over a streamed element (a feed
/// entry) and its descendants. The table is a few arrays of numbers and one buffer of
/// decoded text, built without an object per element; strings are made only for what a
/// reader asks for.
public struct XMLNode: MarkupElement {
    let table: NodeTable
    let index: Int

    init(_ table: NodeTable, _ index: Int) {
        self.table = table
        self.index = index
    }

    private var node: NodeTable.Node { table.nodes[index] }

    public var name: String { table.names[Int(node.name)].name }
    public var localName: String { table.names[Int(node.name)].localName }
    public var namespaceURI: String? {
        let namespace = Int(node.namespace)
        return namespace < 0 ? nil : table.namespaces[namespace]
    }

    public var allText: String { table.string(Int(node.textStart)..<Int(node.textEnd)) }

    public var text: String {
        let node = self.node
        // A leaf's own text is all of its text; otherwise the runs between the children.
        guard node.end > index + 1 else { return table.string(Int(node.textStart)..<Int(node.textEnd)) }
        return String(decoding: ownText(), as: UTF8.self)
    }

    /// The element's own text, each child passed to `visit` with where it starts in that text.
    private func ownText(visiting visit: (XMLNode, Int) -> Void = { _, _ in }) -> [UInt8] {
        let node = self.node
        var own: [UInt8] = []
        var from = Int(node.textStart)
        for child in children {
            let inner = table.nodes[child.index]
            own += table.bytes[from..<Int(inner.textStart)]
            from = Int(inner.textEnd)
            visit(child, own.count)
        }
        own += table.bytes[from..<Int(node.textEnd)]
        return own
    }

    public var children: Children { Children(table: table, following: index + 1, end: Int(node.end)) }

    public struct Children: Sequence, IteratorProtocol {
        let table: NodeTable
        var following: Int
        let end: Int

        public mutating func next() -> XMLNode? {
            guard following < end else { return nil }
            defer { following = Int(table.nodes[following].end) }
            return XMLNode(table, following)
        }
    }

    public var attributeList: [(name: String, value: String)] {
        let node = self.node
        return table.attributes[Int(node.attributeStart)..<Int(node.attributeEnd)].map {
            (table.names[Int($0.name)].name, table.value($0))
        }
    }

    public func attribute(_ localName: String) -> String? {
        let node = self.node
        let range = Int(node.attributeStart)..<Int(node.attributeEnd)
        for attribute in table.attributes[range] where table.names[Int(attribute.name)].name == localName {
            return table.value(attribute)
        }
        for attribute in table.attributes[range] where XMLElement.name(table.names[Int(attribute.name)].name, isPrefixed: localName) {
            return table.value(attribute)
        }
        return nil
    }

    public func declares(_ uri: String) -> Bool {
        let node = self.node
        return table.attributes[Int(node.attributeStart)..<Int(node.attributeEnd)].contains { attribute in
            table.names[Int(attribute.name)].declaredPrefix != nil
                && table.value(attribute) == uri
        }
    }

    /// The same element as a tree (for callers that keep it, and for tests comparing the two).
    public func element() -> XMLElement {
        let element = XMLElement(name: name, localName: localName, namespaceURI: namespaceURI, attributeList: attributeList)
        let own = ownText { child, offset in
            let built = child.element()
            built.textOffset = offset
            element.children.append(built)
        }
        element.text = String(decoding: own, as: UTF8.self)
        return element
    }
}

/// A name as nodes refer to it, by number.
struct NodeName {
    let name: String
    let localName: String
    /// As an attribute: the prefix an `xmlns` / `xmlns:p` attribute declares.
    let declaredPrefix: String?
}

/// A streamed element and its descendants while they are read: plain arrays in the reader,
/// so filling them costs no reference counting and no exclusivity checks.
struct NodeStore {
    struct Node {
        var name: Int32
        /// Into the namespaces by number; -1 for none.
        var namespace: Int32
        var attributeStart: Int32
        var attributeEnd: Int32
        /// All the text of the element and its descendants, in document order: `bytes[textStart..<textEnd]`.
        var textStart: Int32
        var textEnd: Int32
        /// The index after the element's last descendant.
        var end: Int32
    }

    struct Attribute {
        var name: Int32
        var valueStart: Int32
        var valueEnd: Int32
    }

    var nodes: [Node] = []
    var attributes: [Attribute] = []
    /// Decoded text of the elements, in document order.
    var bytes: [UInt8] = []
    /// Decoded attribute values (apart from the text, so a text range never covers one).
    var values: [UInt8] = []

    func string(_ range: Range<Int>) -> String { Self.string(bytes, range) }
    func value(_ range: Range<Int>) -> String { Self.string(values, range) }

    private static func string(_ buffer: [UInt8], _ range: Range<Int>) -> String {
        buffer.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// An empty store with room for one like this one.
    func emptied() -> NodeStore {
        var empty = NodeStore()
        empty.nodes.reserveCapacity(nodes.count)
        empty.attributes.reserveCapacity(attributes.count)
        empty.bytes.reserveCapacity(bytes.count)
        empty.values.reserveCapacity(values.count)
        return empty
    }
}

/// The storage of `XMLNode`s once handed over: read only.
final class NodeTable {
    typealias Node = NodeStore.Node
    let store: NodeStore
    let names: [NodeName]
    let namespaces: [String]

    init(_ store: NodeStore, names: [NodeName], namespaces: [String]) {
        self.store = store
        self.names = names
        self.namespaces = namespaces
    }

    var nodes: [Node] { store.nodes }
    var attributes: [NodeStore.Attribute] { store.attributes }
    var bytes: [UInt8] { store.bytes }
    func string(_ range: Range<Int>) -> String { store.string(range) }
    func value(_ attribute: NodeStore.Attribute) -> String { store.value(Int(attribute.valueStart)..<Int(attribute.valueEnd)) }
}
