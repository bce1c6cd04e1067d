import Foundation
import IssueArchive
import TextLayout

/// An article of an issue read into blocks, by its media type or file extension; a page
/// of a PDF is its words reflowed by the document's text reader.
enum ArticleDocument {
    static func load(_ resource: Resource, in root: URL, texts: DocumentTexts = .shared) throws -> TextDocument {
        let (text, kind) = try read(resource, in: root, texts: texts)
        return parse(text, kind)
    }

    /// `reflowed`: a document page, already read into blocks.
    enum Kind: Sendable { case html, markdown, plain, image(String), reflowed(TextDocument) }

    static func read(_ resource: Resource, in root: URL, texts: DocumentTexts = .shared) throws -> (Data, Kind) {
        if let page = PagePath(resource.path) { return (Data(), .reflowed(try reflow(page, in: root, texts: texts))) }
        let file = try IssueReader.resolve(resource.path, in: root)
        let type = resource.mediaType.lowercased()
        let ext = file.pathExtension.lowercased()
        if resource.isPicture { return (Data(), .image((resource.path as NSString).lastPathComponent)) }
        let data = try Data(contentsOf: file)
        if type.contains("markdown") || ext == "md" || ext == "markdown" { return (data, .markdown) }
        if type.hasPrefix("text/plain") || ext == "txt" { return (data, .plain) }
        return (data, .html)
    }

    /// A document page's words in reading order; no blocks when the page has no text layer.
    static func reflow(_ page: PagePath, in root: URL, texts: DocumentTexts) throws -> TextDocument {
        let file = try IssueReader.resolve(page.file, in: root)
        guard let reader = texts.reader(for: file) else { throw PageTextError.noReader(page) }
        do { return try reader.page(page.index, of: file) } catch { throw PageTextError.unreadable(page, "\(error)") }
    }

    static func parse(_ data: Data, _ kind: Kind) -> TextDocument {
        switch kind {
        case .reflowed(let document): return document
        case .image(let name): return TextDocument(title: nil, blocks: [.image(source: name, alt: "")])
        case .markdown: return MarkdownReader.document(markdown: String(decoding: data, as: UTF8.self))
        case .plain: return PlainTextReader.document(text: String(decoding: data, as: UTF8.self))
        case .html: return HTMLReader.document(html: String(decoding: data, as: UTF8.self))
        }
    }

    /// Articles longer than this open from their first part while the rest is read.
    static let progressiveBytes = 256 << 10
    /// How much of a long article is read first: many screens of text.
    static let firstPartBytes = 48 << 10

    /// The first part of a long HTML article, cut just after a closing `</p>` (so the blocks
    /// before the cut read exactly as in the whole article); nil when the article is short
    /// or has no such place.
    static func firstPart(of data: Data, _ kind: Kind) -> Data? {
        guard case .html = kind, data.count > progressiveBytes else { return nil }
        let marker = Array("</p>".utf8)
        return data.withUnsafeBytes { bytes -> Data? in
            var index = firstPartBytes
            let end = min(data.count - marker.count, firstPartBytes * 4)
            while index < end {
                if bytes[index] == 0x3C, bytes[index + 1] == 0x2F, bytes[index + 2] | 0x20 == 0x70, bytes[index + 3] == 0x3E {
                    return Data(bytes[0..<(index + marker.count)])
                }
                index += 1
            }
            return nil
        }
    }
}

/// A place in an article's text that survives a change of width: the top-level block, and
/// how many visible characters of that block come before the place.
struct TextAnchor: Equatable {
    var block: Int
    var offset: Int
}

/// One article laid out at one width, a few blocks at a time: opening a long article lays
/// out only the first screen; scrolling, searching and `G` lay out more.
final class ArticleText {
    let document: TextDocument
    let width: Int
    private(set) var lines: [LayoutLine] = []
    /// Blocks `0..<laidOutBlocks` have their lines in `lines`.
    private(set) var laidOutBlocks = 0
    private var searchIndex: SearchIndex?
    /// Blocks laid out per step; enough for a screen of ordinary prose.
    static let chunk = 24

    /// Pictures' sizes as drawn, so each takes the rows it needs (see `LayoutOptions.imageSizes`).
    let pictureSizes: [String: PixelSize]

    /// `blockWeights`: each top-level block's visible characters (`blockWeights(of:)`), counted
    /// ahead where the article is read, off the run loop; nil: counted here at the first `share`.
    init(document: TextDocument, width: Int, pictureSizes: [String: PixelSize] = [:], blockWeights: [Int]? = nil) {
        self.document = document
        self.width = width
        self.pictureSizes = pictureSizes
        givenWeights = blockWeights?.count == document.blocks.count ? blockWeights : nil
    }

    var isComplete: Bool { laidOutBlocks >= document.blocks.count }

    /// Lays out until at least `count` lines exist or the article ends.
    func ensureLines(_ count: Int) {
        while lines.count < count && !isComplete { layoutMore(upTo: laidOutBlocks + Self.chunk) }
    }

    /// Lays out until block `block` is complete (its trailing blank belongs to it, so the
    /// block after it too).
    func ensureBlock(_ block: Int) {
        if laidOutBlocks < block + 2 && !isComplete { layoutMore(upTo: block + 2) }
    }

    func layoutAll() {
        if !isComplete { layoutMore(upTo: document.blocks.count) }
    }

    private func layoutMore(upTo end: Int) {
        let range = laidOutBlocks..<min(document.blocks.count, max(end, laidOutBlocks + 1))
        lines += Layout.lines(for: document, blocks: range, options: LayoutOptions(width: width, imageSizes: pictureSizes))
        laidOutBlocks = range.upperBound
        searchIndex = nil
    }

    /// How far through the article the place before line `index` is, 0…1, by its visible
    /// characters (a picture counts one): the same figure for the same place however much
    /// of the article happens to be laid out (a search lays out all of it, scrolling a
    /// screen at a time only what it shows). Past the last line: 1.
    func share(beforeLine index: Int) -> Double {
        ensureLines(index + 1)
        guard lines.indices.contains(index) else { return 1 }
        let total = blockStarts.last ?? 0
        let place = anchor(ofLine: index)
        guard total > 0, blockStarts.indices.contains(place.block + 1) else { return 0 }
        let within = min(place.offset, blockStarts[place.block + 1] - blockStarts[place.block])
        return Double(blockStarts[place.block] + within) / Double(total)
    }

    /// The place `share` (0…1) of the way through the article's visible characters:
    /// `share(beforeLine:)` the other way round, for a place known only by how far it is
    /// (a percentage from another device, `place --set 40%`).
    func anchor(atShare share: Double) -> TextAnchor {
        guard let total = blockStarts.last, total > 0, blockStarts.count >= 2 else { return TextAnchor(block: 0, offset: 0) }
        let target = min(total - 1, Int(max(0, min(1, share)) * Double(total)))
        // The last block starting at or before `target` (blocks of no characters are passed over).
        var low = 0, high = blockStarts.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if blockStarts[middle] <= target { low = middle } else { high = middle - 1 }
        }
        return TextAnchor(block: low, offset: target - blockStarts[low])
    }

    private let givenWeights: [Int]?

    /// Where each top-level block starts in the article's visible characters, and (last) the total.
    private lazy var blockStarts: [Int] = (givenWeights ?? Self.blockWeights(of: document))
        .reduce(into: [0]) { $0.append($0[$0.count - 1] + $1) }

    /// Each top-level block's visible characters, as `share` weighs the article: a 2 MB
    /// article takes 20 ms or more to count, so the reader counts it where it reads the
    /// article (`LoadedArticle`), not in its `update` (#29 re-measure).
    static func blockWeights(of document: TextDocument) -> [Int] { document.blocks.map(weight) }

    /// `weights` (of `original`'s blocks) for `document`, made from it by describing some of
    /// its pictures: only the blocks that differ are counted again.
    static func blockWeights(of document: TextDocument, from original: TextDocument, weights: [Int]) -> [Int] {
        guard document.blocks.count == original.blocks.count, weights.count == original.blocks.count else {
            return blockWeights(of: document)
        }
        return document.blocks.indices.map { document.blocks[$0] == original.blocks[$0] ? weights[$0] : weight(document.blocks[$0]) }
    }

    /// A block's visible characters as `weight(_: LayoutLine)` counts them in its lines.
    static func weight(_ block: Block) -> Int {
        func count(_ spans: [StyledSpan]) -> Int { spans.reduce(0) { $0 + visibleCharacters($1.text) } }
        switch block {
        case .heading(_, let spans), .paragraph(let spans): return count(spans)
        case .quote(let blocks): return blocks.reduce(0) { $0 + weight($1) }
        case .list(_, let items): return items.reduce(0) { $0 + $1.reduce(0) { $0 + weight($1) } }
        case .code(let text): return visibleCharacters(text)
        case .rule: return 0
        case .image: return 1
        case .figure(let image, let caption): return weight(image) + count(caption)
        case .table(let rows): return rows.reduce(0) { $0 + $1.reduce(0) { $0 + count($1) } }
        }
    }

    // MARK: Anchors

    /// Visible characters of a line, markers (bullets, quote bars) left out; a picture row counts one.
    private static func weight(_ line: LayoutLine) -> Int {
        if case .image = line.kind { return 1 }
        var count = 0
        for span in line.spans where !span.style.contains(.marker) { count += visibleCharacters(span.text) }
        return count
    }

    /// The characters of `text` that are not whitespace (`Character.isWhitespace`), the same
    /// count as by `Character`s but reading runs of ASCII by their bytes: by characters, a 2 MB
    /// article's first position took 60–75 ms of the run loop (#29 re-measure). Only a run
    /// holding non-ASCII is read by `Character`s, from the space before it (a combining mark
    /// may sit on a space; never on a control character, nor does an ASCII byte end a mark).
    static func visibleCharacters(_ text: String) -> Int {
        let bytes = text.utf8
        var count = 0, runBytes = 0, runIsASCII = true
        var runStart = bytes.startIndex, index = bytes.startIndex
        func endRun(at end: String.Index) {
            count += runIsASCII ? runBytes : text[runStart..<end].reduce(0) { $0 + ($1.isWhitespace ? 0 : 1) }
            runBytes = 0
            runIsASCII = true
        }
        while index != bytes.endIndex {
            let byte = bytes[index]
            let next = bytes.index(after: index)
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                if runBytes > 0 { endRun(at: index) }
                runStart = byte == 0x20 ? index : next
            } else {
                runBytes += 1
                if byte >= 0x80 { runIsASCII = false }
            }
            index = next
        }
        if runBytes > 0 { endRun(at: bytes.endIndex) }
        return count
    }

    func anchor(ofLine index: Int) -> TextAnchor {
        guard lines.indices.contains(index) else { return TextAnchor(block: max(0, laidOutBlocks - 1), offset: 0) }
        let block = lines[index].blockIndex
        var start = index
        while start > 0 && lines[start - 1].blockIndex == block { start -= 1 }
        var offset = 0
        for line in lines[start..<index] { offset += Self.weight(line) }
        return TextAnchor(block: block, offset: offset)
    }

    /// The line holding the anchor's character (laid out as far as needed).
    func line(for anchor: TextAnchor) -> Int {
        let block = max(0, min(anchor.block, document.blocks.count - 1))
        ensureBlock(block)
        guard let first = firstLine(ofBlock: block) else { return max(0, lines.count - 1) }
        var before = 0
        var index = first
        while index < lines.count && lines[index].blockIndex == block {
            let weight = Self.weight(lines[index])
            if before + weight > anchor.offset { return index }
            before += weight
            index += 1
        }
        return max(first, index - 1)
    }

    /// The first line of a top-level block, or of the nearest block after it that has lines.
    func firstLine(ofBlock block: Int) -> Int? {
        ensureBlock(block)
        var low = 0, high = lines.count
        while low < high {
            let middle = (low + high) / 2
            if lines[middle].blockIndex < block { low = middle + 1 } else { high = middle }
        }
        return low < lines.count ? low : nil
    }

    // MARK: Search

    /// Every match of `query` in the whole article (which this lays out completely).
    func matches(of query: String) -> [SearchMatch] {
        layoutAll()
        if searchIndex == nil { searchIndex = SearchIndex(lines: lines) }
        return searchIndex?.matches(of: query) ?? []
    }
}
