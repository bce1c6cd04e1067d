import Foundation
import Synchronization
import TextLayout

/// PDF pages as text to read, through the contained worker: a page reflowed (with its
/// neighbours' running bands, for running headers, in the same request), every page's text
/// for search. The last pages' texts and reflows are kept, so paging back and forth does not
/// ask the worker again. Every page's text is read ahead in short batches once a document
/// is opened (`readAhead`) and kept beside it (`KeptPageTexts`), so a search finds it read.
public final class PDFTextReader: DocumentTextReader, Sendable {
    /// Pages asked of the worker at once when every page's text is read: one worker serves
    /// one request at a time, and a page turn waits behind at most one batch (~10 ms).
    static let batch = 8

    private let worker: PDFWorker
    private let delay: Double, pause: Double
    // The reader may read ahead on another thread.
    private let kept = Mutex(Kept())
    /// Told when a read-ahead has ended, its texts kept (or it failed), on its thread.
    private let readAheadEnded: @Sendable () -> Void

    /// What has been read of the last pages and documents.
    private struct Kept {
        var texts = RecentlyUsed<PageKey, PDFPageText>(capacity: 24)
        /// Pages' running bands (nil: no such page), which is all of a neighbour the reflow reads.
        var bands = RecentlyUsed<PageKey, PDFPageText?>(capacity: 48)
        var reflows = RecentlyUsed<PageKey, TextDocument>(capacity: 8)
        /// Every page's text of the last documents, as far as it has been read, by path.
        var documents = RecentlyUsed<String, PageTexts>(capacity: 4)
        var readingAhead: Set<String> = []
    }

    /// `delay` is how long after `readAhead` is asked the first batch goes to the worker (the
    /// first page and those rendered ahead go first), `pause` the worker's rest between batches;
    /// `readAheadEnded` lets a caller (a test) wait for a read-ahead rather than poll for its file.
    public init(worker: PDFWorker, readingAheadAfter delay: Double = 1, pausing pause: Double = 0.02,
                readAheadEnded: @escaping @Sendable () -> Void = {}) {
        self.worker = worker
        self.delay = delay
        self.pause = pause
        self.readAheadEnded = readAheadEnded
    }

    /// A page the worker cannot read is a `PDFError` naming the page ("page 3 of x.pdf:
    /// the PDF library crashed"); a page the PDF counts but cannot give (its page tree is
    /// broken) reads as a line that says so, the other pages being readable.
    public func page(_ index: Int, of document: URL) throws -> TextDocument {
        let key = PageKey(document: document, index: index)
        if let done = kept.withLock({ $0.reflows[key] }) { return done }
        let reflowed: TextDocument
        do {
            let (page, neighbours) = try reading(key)
            reflowed = PDFReflow.document(of: page, index: index, neighbours: neighbours.compactMap { $0 })
        } catch let error as PDFError where error.kind == .unreadablePage {
            reflowed = TextDocument(blocks: [.paragraph([StyledSpan("[This page cannot be read: its place in the PDF's page tree is broken.]")])])
        }
        kept.withLock { $0.reflows[key] = reflowed }
        return reflowed
    }

    /// Page `index`'s characters in fractions of the page, from the text the reflow reads
    /// (kept, or read with its neighbours' bands in one request). A worker's numbers are not
    /// trusted: boxes off the page are clamped to it, characters without one left out.
    public func characters(ofPage index: Int, of document: URL) throws -> PageCharacters? {
        let page = try reading(PageKey(document: document, index: index)).page
        let (width, height) = (page.size.width, page.size.height)
        guard width.isFinite, height.isFinite, width > 0, height > 0 else { return nil }
        func fraction(_ value: Double, of side: Double) -> Double { max(0, min(1, value / side)) }
        var scalars: [Unicode.Scalar] = [], boxes: [PageBox] = []
        for character in page.characters where !PDFCharacter.isEmbeddingMark(character.scalar) {
            let rect = character.rect
            guard [rect.x0, rect.y0, rect.x1, rect.y1].allSatisfy(\.isFinite) else { continue }
            scalars.append(character.scalar)
            boxes.append(PageBox(x0: fraction(min(rect.x0, rect.x1), of: width), y0: fraction(min(rect.y0, rect.y1), of: height),
                                 x1: fraction(max(rect.x0, rect.x1), of: width), y1: fraction(max(rect.y0, rect.y1), of: height)))
        }
        return PageCharacters(scalars: scalars, boxes: boxes)
    }

    /// Page `key`'s text and its neighbours' bands, from the caches or in one worker request.
    private func reading(_ key: PageKey) throws -> (page: PDFPageText, neighbours: [PDFPageText?]) {
        let around = PDFReflow.neighbourOffsets.map { key.moved(by: $0) }
        let known = kept.withLock { kept -> (PDFPageText, [PDFPageText?])? in
            guard let page = kept.texts[key] else { return nil }
            var neighbours: [PDFPageText?] = []
            for neighbour in around {
                guard neighbour.index >= 0 else { neighbours.append(nil); continue }
                guard let band = kept.bands[neighbour] else { return nil }
                neighbours.append(band)
            }
            return (page, neighbours)
        }
        if let known { return known }
        do {
            let read = try worker.readingText(page: key.index, of: key.document)
            kept.withLock { kept in
                kept.texts[key] = read.page
                kept.bands[key] = .some(read.page.runningBands)
                for (neighbour, band) in zip(around, read.neighbours) where neighbour.index >= 0 { kept.bands[neighbour] = .some(band) }
            }
            return read
        } catch let error as PDFError {
            let page = "page \(key.index + 1)"
            throw error.description.contains(page) ? error : PDFError(error.kind, "\(page) of \(PDFError.naming(key.document)): \(error.description)")
        }
    }

    /// Every page's text: kept from an earlier session, read ahead, or read now (the batches
    /// not read ahead yet, back to back).
    public func pageTexts(of document: URL) throws -> [String] {
        try allTexts(of: document, pausing: 0)
    }

    /// Starts reading every page's text of `document` on another thread (once per document),
    /// or loading the texts kept from an earlier session, so the first search need not.
    public func readAhead(of document: URL) {
        let path = document.standardizedFileURL.path
        guard kept.withLock({ $0.readingAhead.insert(path).inserted }) else { return }
        Thread.detachNewThread { [self] in
            Thread.sleep(forTimeInterval: delay)
            _ = try? allTexts(of: document, pausing: pause)
            readAheadEnded()
        }
    }

    /// Every page's text of `document`, read in batches of `batch` pages with `pause` seconds
    /// between them, carrying on from what was read before (by this thread or another).
    private func allTexts(of document: URL, pausing pause: Double) throws -> [String] {
        let path = document.standardizedFileURL.path
        guard let version = KeptPageTexts.Version(of: document) else {
            // No file to key the texts by: the worker says why it cannot read it.
            return try worker.pageTexts(of: document).map { Sanitizer.clean($0, multiline: true) }
        }
        func progress() -> PageTexts {
            kept.withLock { kept in
                if let known = kept.documents[path], known.version == version { return known }
                kept.documents[path] = PageTexts(version: version)
                return PageTexts(version: version)
            }
        }
        if progress().texts.isEmpty, let kept = KeptPageTexts.load(for: document) {
            self.kept.withLock { $0.documents[path] = PageTexts(version: version, texts: kept, complete: true) }
        }
        while true {
            let known = progress()
            if known.complete { return known.texts }
            let first = known.texts.count
            let read = try worker.pageTexts(of: document, pages: first..<first + Self.batch).map { Sanitizer.clean($0, multiline: true) }
            let now = kept.withLock { kept -> PageTexts? in
                // Another thread may have read the same batch meanwhile: one copy is kept.
                guard var texts = kept.documents[path], texts.version == version, texts.texts.count == first else { return nil }
                texts.texts += read
                texts.complete = read.count < Self.batch
                kept.documents[path] = texts
                return texts
            }
            if let now, now.complete {
                KeptPageTexts.keep(now.texts, of: document, version: version)
                return now.texts
            }
            if pause > 0 { Thread.sleep(forTimeInterval: pause) }
        }
    }

    /// A document's pages' texts as far as they have been read.
    private struct PageTexts {
        var version: KeptPageTexts.Version
        var texts: [String] = []
        var complete = false
    }

    /// A page of a document as it is on disk now: a file replaced (a new download) is another.
    private struct PageKey: Hashable {
        var path: String
        var modified: Date?
        var size: Int?
        var index: Int
        var document: URL { URL(fileURLWithPath: path) }

        init(document: URL, index: Int) {
            path = document.standardizedFileURL.path
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            modified = attributes?[.modificationDate] as? Date
            size = (attributes?[.size] as? NSNumber)?.intValue
            self.index = index
        }

        /// The page `offset` pages on in the same document.
        func moved(by offset: Int) -> PageKey {
            var moved = self
            moved.index += offset
            return moved
        }
    }
}

/// A small cache that forgets the entry used longest ago once it holds `capacity`.
struct RecentlyUsed<Key: Hashable, Value> {
    let capacity: Int
    private var entries: [Key: Value] = [:]
    private var uses: [Key] = []

    init(capacity: Int) { self.capacity = capacity }

    subscript(key: Key) -> Value? {
        mutating get {
            guard let value = entries[key] else { return nil }
            touch(key)
            return value
        }
        set {
            entries[key] = newValue
            if newValue == nil { uses.removeAll { $0 == key }; return }
            touch(key)
            while uses.count > capacity { entries[uses.removeFirst()] = nil }
        }
    }

    private mutating func touch(_ key: Key) {
        uses.removeAll { $0 == key }
        uses.append(key)
    }
}
