import Foundation
import Markup

/// A book's document read for EPUB CFI (EPUB Canonical Fragment Identifiers 1.1): its body's
/// text, each run of white space one space and a space where a block starts or ends, with
/// where each of its characters is in the document's tree, so a passage found in `text` is
/// named as calibre, Thorium and Readium name it: `epubcfi(/6/4[ch1]!/4/2[p3],/1:10,/1:24)`.
///
/// Steps follow the spec: an element is an even index among its parent's elements (`/2`
/// the first), the character data between them an odd one (`/1` before the first); an
/// element's `id` is kept as an assertion (`[p3]`); a character offset counts UTF-16 code
/// units, as a browser's DOM (calibre's viewer, epub.js) does. The spine step names the
/// `spine` element among the package's elements and the document's `itemref` among the spine's.
public struct EPUBDocumentText: Sendable {
    /// The body's text, white space folded (see `folded`).
    public let text: String
    /// The path to the document's `itemref` in the package (`/6/4[ch1ref]`).
    public let spineStep: String
    /// The document's place among the spine's `itemref`s, from 0 (calibre's `spine_index`).
    public let spineIndex: Int

    private let chunks: [[Step]]
    /// For each UTF-8 byte of `text`: the chunk of character data it is in (-1: a space at a
    /// block's edge, in no chunk) and the UTF-16 offset of its character in that chunk.
    private let chunkOfByte: [Int32]
    private let offsetOfByte: [Int32]

    struct Step: Equatable, Sendable {
        var index: Int
        var id: String?
        var written: String { "/\(index)" + (id.map { "[\(EPUBDocumentText.escaped($0))]" } ?? "") }
    }

    /// `document` (a path in the book as its reading order gives it) of the book extracted at
    /// `root`; nil when the book has no package naming it in its spine.
    public init?(book root: URL, document path: String) {
        guard let tree = try? ContentTree(root: root), let packagePath = try? EPUBBook.packageDocument(tree),
              let data = tree.data(packagePath), let package = XMLReading.root(of: data),
              let spineAt = package.children.firstIndex(where: { $0.localName == "spine" }),
              let file = tree.existing(path), let html = tree.data(file) else { return nil }
        let items = Dictionary(package.first("manifest")?.all("item").compactMap { item -> (String, String)? in
            guard let id = item.attribute("id"), let href = item.attribute("href"),
                  let resolved = BookPath.resolve(href, from: packagePath) else { return nil }
            let plain = BookPath.withoutFragment(resolved)
            return (id, (tree.existing(plain) ?? plain).lowercased())
        } ?? [], uniquingKeysWith: { first, _ in first })
        let spine = package.children[spineAt]
        let itemrefs = spine.children.enumerated().filter { $0.element.localName == "itemref" }
        guard let found = itemrefs.enumerated().first(where: { items[$0.element.element.attribute("idref") ?? ""] == file.lowercased() })
        else { return nil }
        spineIndex = found.offset
        let itemref = found.element
        spineStep = Step(index: 2 * (spineAt + 1), id: nil).written
            + Step(index: 2 * (itemref.offset + 1), id: itemref.element.attribute("id")).written
        (text, chunks, chunkOfByte, offsetOfByte) = Self.read(String(decoding: html, as: UTF8.self))
    }

    /// The CFI of the passage at `range` (UTF-8 offsets into `text`); nil when it starts or
    /// ends at a space that is in no character data.
    public func cfi(utf8 range: Range<Int>) -> EPUBCFIRange? {
        guard !range.isEmpty, range.upperBound <= chunkOfByte.count,
              let start = point(range.lowerBound, after: false), let end = point(range.upperBound - 1, after: true) else { return nil }
        return EPUBCFIRange(spineStep: spineStep, spineIndex: spineIndex, start: start.steps, startOffset: start.offset,
                            end: end.steps, endOffset: end.offset)
    }

    private func point(_ byte: Int, after: Bool) -> (steps: [Step], offset: Int)? {
        let chunk = Int(chunkOfByte[byte])
        guard chunk >= 0 else { return nil }
        var offset = Int(offsetOfByte[byte])
        if after {
            // Past the character whose bytes end here.
            var first = byte
            while first > 0, chunkOfByte[first - 1] == chunkOfByte[byte], offsetOfByte[first - 1] == offsetOfByte[byte] { first -= 1 }
            let bytes = text.utf8.dropFirst(first).prefix(byte - first + 1)
            offset += String(decoding: bytes, as: UTF8.self).utf16.count
        }
        return (chunks[chunk], offset)
    }

    /// `text` with every run of white space one space: how a quote is compared with `text`.
    public static func folded(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var space = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                space = true
                continue
            }
            if space, !out.isEmpty { out.append(" ") }
            space = false
            out.append(scalar)
        }
        if space, !out.isEmpty { out.append(" ") }
        return String(out)
    }

    /// Elements that start a block: a space stands where they start and end.
    private static let blocks: Set<String> = [
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure", "footer",
        "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table",
        "td", "th", "tr", "ul", "img",
    ]
    private static let voids: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                                             "source", "track", "wbr"]

    private struct Frame {
        var name: String
        var steps: [Step]
        var elements = 0
        var chunk: Int?
        var chunkUTF16 = 0
    }

    private static func read(_ html: String) -> (String, [[Step]], [Int32], [Int32]) {
        var out: [UInt8] = []
        var chunkOfByte: [Int32] = [], offsetOfByte: [Int32] = []
        var chunks: [[Step]] = []
        var stack: [Frame] = [Frame(name: "", steps: [])]
        var bodyDepth: Int?
        func space() {
            guard let last = out.last, last != 0x20 else { return }
            out.append(0x20)
            chunkOfByte.append(-1)
            offsetOfByte.append(0)
        }
        func characters(_ decoded: String) {
            guard let body = bodyDepth, stack.count > body else { return }
            var frame = stack[stack.count - 1]
            let chunk: Int
            if let current = frame.chunk {
                chunk = current
            } else {
                chunk = chunks.count
                chunks.append(frame.steps + [Step(index: 2 * frame.elements + 1, id: nil)])
                frame.chunk = chunk
                frame.chunkUTF16 = 0
            }
            for scalar in decoded.unicodeScalars {
                let offset = frame.chunkUTF16
                frame.chunkUTF16 += scalar.utf16.count
                if scalar.properties.isWhitespace {
                    if let last = out.last, last != 0x20 {
                        out.append(0x20)
                        chunkOfByte.append(Int32(chunk))
                        offsetOfByte.append(Int32(offset))
                    }
                    continue
                }
                for byte in String(scalar).utf8 {
                    out.append(byte)
                    chunkOfByte.append(Int32(chunk))
                    offsetOfByte.append(Int32(offset))
                }
            }
            stack[stack.count - 1] = frame
        }
        HTMLLexer.reading(html) { lexer in
            while let token = lexer.next() {
                switch token {
                case .text(let range):
                    characters(lexer.decoded(range))
                case .cdata(let range):
                    characters(lexer.string(range))
                case .startTag(let tag):
                    let name = lexer.lowercased(lexer.localName(tag.name))
                    if stack.count == 1 {
                        // The root element: steps inside the document start at its children.
                        stack.append(Frame(name: name, steps: []))
                        continue
                    }
                    stack[stack.count - 1].elements += 1
                    stack[stack.count - 1].chunk = nil
                    let id = lexer.attribute("id", of: tag).map { lexer.decoded($0, in: .attribute) }
                    let step = Step(index: 2 * stack[stack.count - 1].elements, id: id)
                    if blocks.contains(name) { space() }
                    if name == "script" || name == "style" {
                        _ = lexer.rawText(until: name)
                    } else if !tag.selfClosing && !voids.contains(name) {
                        stack.append(Frame(name: name, steps: stack[stack.count - 1].steps + [step]))
                        if name == "body" && bodyDepth == nil { bodyDepth = stack.count - 1 }
                    }
                case .endTag(let range):
                    let name = lexer.lowercased(lexer.localName(range))
                    guard let at = stack.lastIndex(where: { $0.name == name }), at > 0 else { continue }
                    stack.removeSubrange(at...)
                    if let body = bodyDepth, stack.count <= body { bodyDepth = nil }
                    stack[stack.count - 1].chunk = nil
                    if blocks.contains(name) { space() }
                }
            }
        }
        return (String(decoding: out, as: UTF8.self), chunks, chunkOfByte, offsetOfByte)
    }

    /// An id as a CFI assertion writes it: `^` before each of `^[](),;=`.
    static func escaped(_ value: String) -> String {
        var out = ""
        for character in value {
            if "^[](),;=".contains(character) { out.append("^") }
            out.append(character)
        }
        return out
    }
}

/// A passage in an EPUB as EPUB CFI: its document's spine step and where it starts and ends
/// inside the document.
public struct EPUBCFIRange: Sendable, Equatable {
    public let spineStep: String
    public let spineIndex: Int
    let start: [EPUBDocumentText.Step]
    let startOffset: Int
    let end: [EPUBDocumentText.Step]
    let endOffset: Int

    /// The start inside the document (`/4/2[p3]/1:10`).
    public var startPath: String { start.map(\.written).joined() + ":\(startOffset)" }
    /// The end inside the document (`/4/2[p3]/1:24`).
    public var endPath: String { end.map(\.written).joined() + ":\(endOffset)" }

    /// The range CFI: the common parent, then each end relative to it.
    public var cfi: String {
        var common = 0
        while common < start.count - 1, common < end.count - 1, start[common] == end[common] { common += 1 }
        let parent = start[..<common].map(\.written).joined()
        let from = start[common...].map(\.written).joined() + ":\(startOffset)"
        let to = end[common...].map(\.written).joined() + ":\(endOffset)"
        return "epubcfi(\(spineStep)!\(parent),\(from),\(to))"
    }
}
