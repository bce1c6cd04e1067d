// libFuzzer target: feed bytes → FeedParser (every format it sniffs: Atom, RSS, OPDS,
// JSON Feed, plist) → the one-line report the CLI prints. Any crash, trap or
// AddressSanitizer report is a bug; thrown errors are expected.
//
// Two differential checks trap on a disagreement:
// - the entries the parser streams (and calls final) are exactly the document's entries,
//   and streaming changes nothing in the document;
// - every streamed element (a flat node table) reads exactly like the same element of the
//   tree the document gives when nothing is streamed.
import Feeds
import Foundation
import Markup

private let base = URL(fileURLWithPath: "/fuzz/feeds/index.xml")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeed(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let document = try? FeedParser.parse(data, url: base)
    if let document {
        // Touch everything a caller reads so lazy paths run too.
        _ = FeedReport.text(document)
        _ = try? FeedReport.json(document)
    }
    var streamed: [FeedEntry] = []
    let result = try? FeedParser.parse(data, url: base, batchSize: 3) { streamed += $0 }
    precondition((result == nil) == (document == nil), "streaming changed whether the feed reads")
    if let document, let result {
        precondition(result.document.entries == document.entries, "streaming changed the entries")
        precondition(result.document.problems == document.problems, "streaming changed the problems")
        if result.streamedEntriesAreFinal {
            precondition(streamed == document.entries, "entries streamed as final differ from the document's")
        }
    }
    compareStreamedNodes(data)
    return 0
}

private func compareStreamedNodes(_ data: Data) {
    let names: Set<String> = ["entry", "item"]
    var nodes: [XMLElement] = []
    _ = MarkupParser.parse(data, streaming: names) { nodes.append($0.element.element()) }
    guard let root = MarkupParser.parse(data).root else {
        precondition(nodes.isEmpty, "elements streamed from a document without a root")
        return
    }
    // Streamed: those at depth one, and at depth two under an element that is not streamed.
    let expected = root.children.flatMap { child in
        names.contains(child.localName) ? [child] : child.children.filter { names.contains($0.localName) }
    }
    precondition(nodes.count == expected.count, "\(nodes.count) elements streamed, \(expected.count) in the tree")
    for (node, element) in zip(nodes, expected) { precondition(same(node, element), "a streamed element differs from the tree's") }
}

private func same(_ a: XMLElement, _ b: XMLElement) -> Bool {
    a.name == b.name && a.localName == b.localName && a.namespaceURI == b.namespaceURI && a.text == b.text
        && a.allText == b.allText && a.attributeList.map(\.name) == b.attributeList.map(\.name)
        && a.attributeList.map(\.value) == b.attributeList.map(\.value)
        && a.children.count == b.children.count && zip(a.children, b.children).allSatisfy(same)
}
