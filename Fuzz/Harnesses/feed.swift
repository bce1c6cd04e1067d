// libFuzzer target: feed bytes → FeedParser (every format it sniffs: Atom, RSS, OPDS,
// JSON Feed, plist) → the one-line report the CLI prints. Any crash, trap or
// AddressSanitizer report is a bug; thrown errors are expected.
//
// Three differential checks trap on a disagreement:
// - the entries the parser streams (and calls final) are exactly the document's entries,
//   and streaming changes nothing in the document;
// - tokenizing on a second thread (what feeds of 256 KiB or more get) changes nothing
//   (checked for one input in eight);
// - every streamed element (a flat node table) reads exactly like the same element of the
//   tree the document gives when nothing is streamed.
@testable import Feeds
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
    // One input in eight (by its length, so a saved input repeats what it did) also goes
    // through the tokenizer on a second thread: its parsing is the one above, what it adds
    // is the handoff between threads, and each input it takes pays for a thread and a wait.
    if count % 8 == 0 {
        let threads = threadCount()
        let aside = try? FeedParser.parse(data, url: base, sink: nil, pipelined: true)
        waitForThreads(toNumber: threads)
        precondition((aside == nil) == (document == nil), "the second-thread tokenizer changed whether the feed reads")
        if let document, let aside {
            precondition(aside.entries == document.entries, "the second-thread tokenizer changed the entries")
            precondition(aside.problems == document.problems, "the second-thread tokenizer changed the problems")
        }
    }
    compareStreamedNodes(data)
    return 0
}

/// `parse` returns once the tokenizer thread has closed its handoff; the thread itself ends
/// a moment later, and only then does Foundation release its closure, which holds the
/// input. LeakSanitizer, which libFuzzer runs whenever an input's mallocs and frees differ,
/// takes an input held by an ending thread for a leak (it did, within 7,500 inputs), so
/// each input waits until the thread is gone.
private func waitForThreads(toNumber count: Int) {
    while threadCount() > count { usleep(20) }
}

private func threadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
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
