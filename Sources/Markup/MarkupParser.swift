import Foundation

/// A small, tolerant, safe XML reader that builds an `XMLElement` tree.
///
/// Hand-written rather than built on FoundationXML's `XMLParser` (libxml2): it never loads a
/// DTD and has no entity machinery to switch off — a DOCTYPE is skipped, and only the five
/// predefined entities, HTML5's fixed table of names (`HTMLNamedCharacters`, read by
/// `CharacterReferences`) and numeric character references are decoded, so an entity bomb
/// or an external entity stays inert text. It keeps whatever it read when a document is cut off
/// or malformed, and it works on the UTF-8 bytes directly, which is several times faster
/// than delegate callbacks that box every string.
public enum MarkupParser {
    /// Elements nested deeper than this are flattened into their parent (a guard against
    /// stack exhaustion on hostile input; real documents stay far below it).
    public static let maxDepth = 256

    public static func parse(_ data: Data) -> XMLDocument {
        read(data, stream: nil)
    }

    public static func parse(_ string: String) -> XMLDocument {
        read(string, warnings: [], stream: nil)
    }

    /// An element handed over while the document is read, with its descendants, as a flat
    /// table; it is valid after the handler returns only if the handler keeps it.
    public struct Streamed {
        public let element: XMLNode
        public let parent: XMLElement
        public let root: XMLElement
    }

    /// Reads a document, handing each element whose local name is in `names` and that sits
    /// directly under the root or one level below it (Atom entries, RSS items) to `handler`
    /// as soon as it closes, and leaving it out of the tree. A long feed then never holds
    /// more than one entry's elements at a time, and those in a table of numbers and text
    /// (`XMLNode`) rather than an object each. Elements of these names inside a streamed
    /// one are part of it.
    public static func parse(_ data: Data, streaming names: Set<String>, _ handler: (Streamed) -> Void) -> XMLDocument {
        withoutActuallyEscaping(handler) { handler in
            read(data, stream: Stream(names: names, handler: handler))
        }
    }

    private static func read(_ data: Data, stream: Stream?) -> XMLDocument {
        if let input = TextDecoding.utf8Input(data) {
            return data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                var reader = Reader(bytes: UnsafeBufferPointer(rebasing: bytes[input.skip...]), stream: stream)
                reader.warnings = input.warnings
                reader.run()
                return XMLDocument(root: reader.root, error: reader.error, warnings: reader.warnings)
            }
        }
        let decoded = TextDecoding.decode(data)
        return read(decoded.text, warnings: decoded.warnings, stream: stream)
    }

    private static func read(_ string: String, warnings: [String], stream: Stream?) -> XMLDocument {
        var text = string
        return text.withUTF8 { buffer in
            var reader = Reader(bytes: buffer, stream: stream)
            reader.warnings = warnings
            reader.run()
            return XMLDocument(root: reader.root, error: reader.error, warnings: reader.warnings)
        }
    }
}

private struct Stream {
    let names: Set<String>
    let handler: (MarkupParser.Streamed) -> Void
}

private let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), amp = UInt8(ascii: "&")
private let slash = UInt8(ascii: "/"), question = UInt8(ascii: "?"), bang = UInt8(ascii: "!")
private let equals = UInt8(ascii: "="), colon = UInt8(ascii: ":")
private let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")
private let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

@inline(__always) private func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

@inline(__always) private func isNameStart(_ c: UInt8) -> Bool {
    (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c == colon || c >= 0x80
}

/// Ends a name in a tag: whitespace, `>`, `/`, `=`, quotes and `<` (a tag cut off by another).
@inline(__always) private func endsName(_ c: UInt8) -> Bool {
    isSpace(c) || c == gt || c == slash || c == equals || c == lt || c == quote || c == apostrophe
}

private let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

private struct Reader {
    struct Frame {
        /// The element of the tree; nil for a node of `table`.
        let element: XMLElement?
        /// The node's index in `table` (for a frame without an element).
        var node = -1
        let interned: InternedName
        var text = TextBuffer()
        /// The namespace bindings to restore when this element closes, if it declared any.
        let savedNamespaces: [String: String]?
    }

    let b: UnsafeBufferPointer<UInt8>
    let n: Int
    var i = 0
    var stack: [Frame] = []
    var namespaces: [String: String] = ["xml": xmlNamespace]
    var root: XMLElement?
    var rootClosed = false
    var error: String?
    var warnings: [String] = []
    /// Open elements beyond `maxDepth` that were flattened; their end tags are swallowed.
    var flattened = 0
    /// Names seen so far, by FNV-1a hash of their bytes: a feed repeats a few dozen names
    /// thousands of times, and each is made into strings only once.
    var names = [InternedName?](repeating: nil, count: 1024)
    var moreNames: [UInt64: [InternedName]] = [:]
    /// Bumped whenever the namespace bindings change, so a name's resolved namespace can be
    /// cached on the name itself.
    var namespaceGeneration = 0
    /// Every name by number, and every namespace, for the nodes of tables.
    var nodeNames: [NodeName] = []
    var numberOfName: [String: Int32] = [:]
    var namespaceList: [String] = []
    var namespaceNumbers: [String: Int32] = [:]
    /// The streamed element being read, with its descendants; nil outside one.
    var table: NodeStore?
    /// The size of the last one, to reserve room for the next.
    var lastTable = NodeStore()

    mutating func number(ofNamespace uri: String) -> Int32 {
        if let number = namespaceNumbers[uri] { return number }
        let number = Int32(namespaceList.count)
        namespaceList.append(uri)
        namespaceNumbers[uri] = number
        return number
    }

    final class InternedName {
        let hash: UInt64
        let name: String
        let localName: String
        /// "" when the name has no prefix (the key of the default namespace).
        let prefix: String
        var resolvedGeneration = -1
        var resolvedNamespace: String?
        /// `resolvedNamespace` by its number in the `NameList`; -1 for none.
        var resolvedNamespaceNumber: Int32 = -1
        /// The name's number in the `NameList`.
        let number: Int32
        /// Whether elements of this name are handed to the stream handler.
        let streamed: Bool
        /// As an attribute name: the prefix an `xmlns` / `xmlns:p` attribute declares ("" for
        /// the default namespace); nil for any other attribute.
        let declaredPrefix: String?

        func spells(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var copy = name
            return copy.withUTF8 { own in
                guard own.count == bytes.count else { return false }
                guard let a = own.baseAddress, let b = bytes.baseAddress else { return true }
                return memcmp(a, b, own.count) == 0
            }
        }

        init(hash: UInt64, name: String, localName: String, prefix: String, streamed: Bool, number: Int32) {
            self.hash = hash
            self.number = number
            self.name = name
            self.localName = localName
            self.prefix = prefix
            self.streamed = streamed
            if name == "xmlns" {
                declaredPrefix = ""
            } else if prefix == "xmlns" {
                declaredPrefix = localName
            } else {
                declaredPrefix = nil
            }
        }
    }

    mutating func intern(_ range: Range<Int>) -> InternedName {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for k in range { hash = (hash ^ UInt64(b[k])) &* 0x0000_0100_0000_01B3 }
        let bytes = UnsafeBufferPointer(rebasing: b[range])
        let slot = Int(truncatingIfNeeded: hash >> 54)
        if let entry = names[slot], entry.hash == hash, entry.spells(bytes) { return entry }
        if names[slot] != nil, let bucket = moreNames[hash] {
            for entry in bucket where entry.spells(bytes) { return entry }
        }
        let name = String(decoding: bytes, as: UTF8.self)
        // Two spellings can decode to one name (invalid UTF-8 becomes U+FFFD): one number, so
        // a repeated attribute is known by its number as by its name.
        let known = numberOfName[name]
        let number = known ?? Int32(nodeNames.count)
        let entry: InternedName
        if let offset = bytes.firstIndex(of: colon) {
            let colonIndex = range.lowerBound + offset  // a rebased buffer counts from 0
            let localName = String(decoding: UnsafeBufferPointer(rebasing: b[(colonIndex + 1)..<range.upperBound]), as: UTF8.self)
            entry = InternedName(
                hash: hash, name: name, localName: localName,
                prefix: String(decoding: UnsafeBufferPointer(rebasing: b[range.lowerBound..<colonIndex]), as: UTF8.self),
                streamed: stream?.names.contains(localName) ?? false, number: number)
        } else {
            entry = InternedName(hash: hash, name: name, localName: name, prefix: "",
                                 streamed: stream?.names.contains(name) ?? false, number: number)
        }
        if known == nil {
            numberOfName[name] = number
            nodeNames.append(NodeName(name: entry.name, localName: entry.localName, declaredPrefix: entry.declaredPrefix))
        }
        if names[slot] == nil { names[slot] = entry } else { moreNames[hash, default: []].append(entry) }
        return entry
    }

    let stream: Stream?

    init(bytes: UnsafeBufferPointer<UInt8>, stream: Stream?) {
        b = bytes
        n = bytes.count
        self.stream = stream
    }

    mutating func run() {
        while i < n {
            if b[i] == lt {
                if !markup() { break }
            } else {
                text()
            }
        }
        if !stack.isEmpty {
            fail(at: n, "document ends before </\(stack[stack.count - 1].interned.name)> closes")
            while !stack.isEmpty { close() }
        }
        if root == nil, error == nil {
            fail(at: n, n == 0 ? "document is empty" : "document has no root element")
        }
    }

    mutating func fail(at offset: Int, _ message: String) {
        guard error == nil else { return }
        var line = 1
        for k in 0..<min(offset, n) where b[k] == lf { line += 1 }
        error = "line \(line): \(message)"
    }

    // MARK: Text

    /// Reads character data up to the next `<`, decoding references and line ends.
    mutating func text() {
        let start = i
        var run = i
        var decoded: [UInt8] = []
        var needsCopy = false
        while i < n {
            let c = b[i]
            if c == lt { break }
            if c == amp || c == cr {
                needsCopy = true
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: b[run..<i]))
                if c == amp {
                    decodeReference(into: &decoded)
                } else {
                    decoded.append(lf)
                    i += 1
                    if i < n, b[i] == lf { i += 1 }
                }
                run = i
                continue
            }
            i += 1
        }
        guard !stack.isEmpty else {
            if !rootClosed || error != nil { return }
            for k in start..<i where !isSpace(b[k]) {
                fail(at: k, "text after the root element")
                break
            }
            return
        }
        if needsCopy {
            decoded.append(contentsOf: UnsafeBufferPointer(rebasing: b[run..<i]))
            appendText(decoded)
        } else {
            appendText(run: start..<i)
        }
    }

    /// Adds a run of the input to the open element's text.
    mutating func appendText(run range: Range<Int>) {
        if table != nil {
            table!.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: b[range]))
        } else {
            stack[stack.count - 1].text.appendRun(range, of: b)
        }
    }

    /// Adds decoded text to the open element's text.
    mutating func appendText(_ decoded: [UInt8]) {
        if table != nil {
            table!.bytes.append(contentsOf: decoded)
        } else {
            stack[stack.count - 1].text.append(decoded, source: b)
        }
    }

    /// At `&`: appends what the reference stands for, read as XML spells references (see
    /// `CharacterReferences.Context.xml`); a lone `&` or an unknown name stays as written.
    mutating func decodeReference(into out: inout [UInt8]) {
        if let next = CharacterReferences.appendReference(b, at: i, end: n, in: .xml, to: &out) {
            i = next
        } else {
            out.append(amp)
            i += 1
        }
    }

    // MARK: Markup

    /// At `<`. Returns false when the input ends inside the construct.
    mutating func markup() -> Bool {
        guard i + 1 < n else {
            fail(at: i, "document ends inside a tag")
            i = n
            return false
        }
        let next = b[i + 1]
        if next == slash { return endTag() }
        if next == question { return skip(past: "?>", what: "processing instruction") }
        if next == bang {
            if matches("<!--") { return skip(past: "-->", what: "comment") }
            if matches("<![CDATA[") { return cdata() }
            if matchesCaseInsensitive("<!DOCTYPE") { return doctype() }
            return skip(past: ">", what: "declaration")
        }
        if isNameStart(next) { return startTag() }
        // A '<' that starts no markup ("a < b" in sloppy feeds) is text.
        fail(at: i, "'<' that starts no tag")
        if !stack.isEmpty { appendText([lt]) }
        i += 1
        return true
    }

    func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard i + count <= n else { return false }
        let p = literal.utf8Start
        for k in 0..<count where b[i + k] != p[k] { return false }
        return true
    }

    func matchesCaseInsensitive(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard i + count <= n else { return false }
        let p = literal.utf8Start
        for k in 0..<count where b[i + k] | 0x20 != p[k] | 0x20 { return false }
        return true
    }

    /// Index of the first occurrence of `literal` at or after `from`, if any.
    func find(_ literal: StaticString, from: Int) -> Int? {
        let count = literal.utf8CodeUnitCount
        let p = literal.utf8Start
        var k = from
        while k + count <= n {
            if b[k] == p[0] {
                var j = 1
                while j < count, b[k + j] == p[j] { j += 1 }
                if j == count { return k }
            }
            k += 1
        }
        return nil
    }

    mutating func skip(past terminator: StaticString, what: String) -> Bool {
        guard let end = find(terminator, from: i + 2) else {
            fail(at: i, "document ends inside a \(what)")
            i = n
            return false
        }
        i = end + terminator.utf8CodeUnitCount
        return true
    }

    mutating func cdata() -> Bool {
        let start = i + 9
        let end = find("]]>", from: start)
        if !stack.isEmpty {
            let stop = end ?? n
            var k = start
            var run = start
            // Only line ends are normalised inside CDATA; nothing else is decoded.
            while k < stop {
                if b[k] == cr {
                    appendText(run: run..<k)
                    appendText([lf])
                    if k + 1 < stop, b[k + 1] == lf { k += 1 }
                    run = k + 1
                }
                k += 1
            }
            appendText(run: run..<stop)
        }
        guard let end else {
            fail(at: i, "document ends inside CDATA")
            i = n
            return false
        }
        i = end + 3
        return true
    }

    /// Skips a DOCTYPE with its internal subset. Nothing in it is used: declared entities are
    /// never expanded and no external DTD is ever fetched.
    mutating func doctype() -> Bool {
        var k = i + 9
        var inSubset = false
        var inQuote: UInt8 = 0
        while k < n {
            let c = b[k]
            if inQuote != 0 {
                if c == inQuote { inQuote = 0 }
            } else if c == quote || c == apostrophe {
                inQuote = c
            } else if c == UInt8(ascii: "[") {
                inSubset = true
            } else if c == UInt8(ascii: "]") {
                inSubset = false
            } else if inSubset, c == lt, k + 3 < n, b[k + 1] == bang, b[k + 2] == UInt8(ascii: "-"), b[k + 3] == UInt8(ascii: "-") {
                // A comment inside the subset may hold quotes or brackets.
                let save = i
                i = k
                guard skip(past: "-->", what: "comment") else { i = n; return false }
                k = i
                i = save
                continue
            } else if c == gt, !inSubset {
                if find("<!ENTITY", from: i).map({ $0 < k }) == true {
                    warnings.append("entity declarations in the DOCTYPE were ignored")
                }
                i = k + 1
                return true
            }
            k += 1
        }
        fail(at: i, "document ends inside the DOCTYPE")
        i = n
        return false
    }

    mutating func endTag() -> Bool {
        let nameStart = i + 2
        var k = nameStart
        while k < n, !endsName(b[k]) { k += 1 }
        let nameEnd = k
        while k < n, b[k] != gt, b[k] != lt { k += 1 }
        guard k < n else {
            fail(at: i, "document ends inside an end tag")
            i = n
            return false
        }
        let tagStart = i
        i = b[k] == gt ? k + 1 : k
        if flattened > 0 {
            flattened -= 1
            return true
        }
        let interned = intern(nameStart..<nameEnd)
        let name = interned.name
        guard let depth = stack.lastIndex(where: { $0.interned === interned }) else {
            fail(at: tagStart, "</\(name)> closes no open element")
            return true
        }
        if depth != stack.count - 1 {
            fail(at: tagStart, "</\(name)> closes <\(name)> while <\(stack[stack.count - 1].interned.name)> is open")
        }
        while stack.count > depth { close() }
        return true
    }

    mutating func close() {
        guard let frame = stack.popLast() else { return }
        if let saved = frame.savedNamespaces {
            namespaces = saved
            namespaceGeneration += 1
        }
        if let element = frame.element {
            element.text = frame.text.string(source: b)
            if stack.isEmpty, element === root { rootClosed = true }
            return
        }
        guard table != nil else { return }
        table!.nodes[frame.node].textEnd = Int32(table!.bytes.count)
        table!.nodes[frame.node].end = Int32(table!.nodes.count)
        guard frame.node == 0, let store = table else { return }
        // The streamed element itself: handed over.
        table = nil
        lastTable = store
        if let stream, let root, let parent = stack.last?.element {
            let nodes = NodeTable(store, names: nodeNames, namespaces: namespaceList)
            stream.handler(MarkupParser.Streamed(element: XMLNode(nodes, 0), parent: parent, root: root))
        }
    }

    mutating func startTag() -> Bool {
        let tagStart = i
        var k = i + 1
        while k < n, !endsName(b[k]) { k += 1 }
        let interned = intern((i + 1)..<k)
        let name = interned.name
        // A streamed element starts a table of its own; its descendants go into it too. Only
        // inside the root: what follows the root is left out of the document, streamed or not.
        if table == nil, interned.streamed, stream != nil, root != nil, !rootClosed, stack.count == 1 || stack.count == 2 {
            table = lastTable.emptied()
        }
        let attributeStart = table?.attributes.count ?? 0
        let valuesStart = table?.values.count ?? 0
        var attributes: [(name: String, value: String)] = []
        /// Namespace declarations among the attributes, as (prefix, URI).
        var declarations: [(prefix: String, uri: String)] = []
        var selfClosing = false
        i = k
        while true {
            while i < n, isSpace(b[i]) { i += 1 }
            guard i < n else {
                fail(at: tagStart, "document ends inside <\(name)>")
                return false
            }
            let c = b[i]
            if c == gt { i += 1; break }
            if c == slash, i + 1 < n, b[i + 1] == gt { i += 2; selfClosing = true; break }
            if c == lt {
                fail(at: i, "<\(name)> is not closed with '>'")
                break
            }
            let attrStart = i
            while i < n, !endsName(b[i]) { i += 1 }
            if i == attrStart {
                i += 1  // a stray '/', '=' or quote
                continue
            }
            let attrInterned = intern(attrStart..<i)
            let attrName = attrInterned.name
            while i < n, isSpace(b[i]) { i += 1 }
            let bare = !(i < n && b[i] == equals)
            if !bare {
                i += 1
                while i < n, isSpace(b[i]) { i += 1 }
                guard i < n else { continue }
            }
            if table != nil {
                let valueStart = table!.values.count
                if !bare {
                    switch attributeValue() {
                    case let .run(range): table!.values.append(contentsOf: UnsafeBufferPointer(rebasing: b[range]))
                    case let .decoded(bytes): table!.values.append(contentsOf: bytes)
                    }
                }
                let repeated = table!.attributes[attributeStart...].contains { $0.name == attrInterned.number }
                if repeated {
                    table!.values.removeSubrange(valueStart...)
                    if !bare { fail(at: attrStart, "attribute \(attrName) repeated in <\(name)>") }
                } else {
                    let valueEnd = table!.values.count
                    table!.attributes.append(NodeStore.Attribute(name: attrInterned.number, valueStart: Int32(valueStart),
                                                                 valueEnd: Int32(valueEnd)))
                    if let prefix = attrInterned.declaredPrefix {
                        declarations.append((prefix, table!.value(valueStart..<valueEnd)))
                    }
                }
                continue
            }
            if bare {
                if !attributes.contains(where: { $0.name == attrName }) {
                    attributes.append((attrName, ""))  // HTML-style bare attribute
                    if let prefix = attrInterned.declaredPrefix { declarations.append((prefix, "")) }
                }
                continue
            }
            let value = string(attributeValue())
            if attributes.contains(where: { $0.name == attrName }) {
                fail(at: attrStart, "attribute \(attrName) repeated in <\(name)>")
            } else {
                if attributes.isEmpty { attributes.reserveCapacity(4) }  // one allocation for most elements
                attributes.append((attrName, value))
                if let prefix = attrInterned.declaredPrefix { declarations.append((prefix, value)) }
            }
        }
        if i > n { i = n }

        if stack.isEmpty, rootClosed {
            fail(at: tagStart, "a second root element <\(name)>")
        }
        if stack.count >= MarkupParser.maxDepth {
            fail(at: tagStart, "elements nested deeper than \(MarkupParser.maxDepth)")
            if !selfClosing { flattened += 1 }
            if table != nil {
                table!.attributes.removeSubrange(attributeStart...)
                table!.values.removeSubrange(valuesStart...)
            }
            return true
        }

        var saved: [String: String]?
        for (prefix, value) in declarations {
            if saved == nil {
                saved = namespaces
                namespaceGeneration += 1
            }
            if value.isEmpty, prefix.isEmpty {
                namespaces[prefix] = nil
            } else {
                namespaces[prefix] = value
            }
        }
        // An undeclared prefix is tolerated: the element has no namespace.
        if interned.resolvedGeneration != namespaceGeneration {
            interned.resolvedNamespace = namespaces[interned.prefix]
            interned.resolvedNamespaceNumber = interned.resolvedNamespace.map { number(ofNamespace: $0) } ?? -1
            interned.resolvedGeneration = namespaceGeneration
        }
        if table != nil {
            let index = table!.nodes.count
            table!.nodes.append(NodeStore.Node(
                name: interned.number, namespace: interned.resolvedNamespaceNumber,
                attributeStart: Int32(attributeStart), attributeEnd: Int32(table!.attributes.count),
                textStart: Int32(table!.bytes.count), textEnd: 0, end: 0))
            stack.append(Frame(element: nil, node: index, interned: interned, savedNamespaces: saved))
        } else {
            let element = XMLElement(name: name, localName: interned.localName, namespaceURI: interned.resolvedNamespace,
                                     attributeList: attributes)
            if !stack.isEmpty {
                element.textOffset = stack[stack.count - 1].text.count
                stack[stack.count - 1].element?.children.append(element)
            } else if root == nil {
                root = element
            }
            stack.append(Frame(element: element, interned: interned, savedNamespaces: saved))
        }
        if selfClosing { close() }
        return true
    }

    /// An attribute value: a run of the input as it is, or its bytes once decoded.
    enum AttributeValue {
        case run(Range<Int>)
        case decoded([UInt8])
    }

    func string(_ value: AttributeValue) -> String {
        switch value {
        case let .run(range): String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
        case let .decoded(bytes): String(decoding: bytes, as: UTF8.self)
        }
    }

    /// At an attribute value: quoted (the usual case) or bare. Returns it with references
    /// decoded and whitespace characters turned into spaces, as XML normalises them.
    mutating func attributeValue() -> AttributeValue {
        let delimiter = b[i]
        let quoted = delimiter == quote || delimiter == apostrophe
        if quoted {
            // The usual case: nothing to decode or normalise, the value is the bytes themselves.
            var k = i + 1
            while k < n, b[k] != delimiter, b[k] != amp, b[k] >= 0x20 { k += 1 }
            if k < n, b[k] == delimiter {
                let value = AttributeValue.run((i + 1)..<k)
                i = k + 1
                return value
            }
        }
        var out: [UInt8] = []
        if quoted { i += 1 }
        let start = i
        while i < n {
            let c = b[i]
            if quoted ? c == delimiter : (isSpace(c) || c == gt) { break }
            if !quoted, c == slash, i + 1 < n, b[i + 1] == gt { break }
            if c == amp {
                decodeReference(into: &out)
                continue
            }
            if c == cr, i + 1 < n, b[i + 1] == lf { i += 1; continue }
            out.append(isSpace(c) ? 0x20 : c)
            i += 1
        }
        if quoted {
            if i < n { i += 1 } else { fail(at: start, "document ends inside an attribute value") }
        }
        return .decoded(out)
    }
}

/// An element's text while it is read: usually one run of the input, kept as a range and
/// made into a string once; copied into a buffer only when runs or references are joined.
private struct TextBuffer {
    private var bytes: [UInt8] = []
    private var run: Range<Int>?

    var count: Int { run?.count ?? bytes.count }

    mutating func appendRun(_ range: Range<Int>, of source: UnsafeBufferPointer<UInt8>) {
        guard !range.isEmpty else { return }
        if run == nil, bytes.isEmpty {
            run = range
            return
        }
        materialize(source)
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[range]))
    }

    mutating func append(_ more: [UInt8], source: UnsafeBufferPointer<UInt8>) {
        materialize(source)
        bytes.append(contentsOf: more)
    }

    private mutating func materialize(_ source: UnsafeBufferPointer<UInt8>) {
        guard let range = run else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[range]))
        run = nil
    }

    func string(source: UnsafeBufferPointer<UInt8>) -> String {
        if let range = run { return String(decoding: UnsafeBufferPointer(rebasing: source[range]), as: UTF8.self) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
