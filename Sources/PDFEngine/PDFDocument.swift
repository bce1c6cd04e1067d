import CPoppler
import CPopplerText
import Foundation
import Imaging
import IssueArchive
import PDF
import PDFDrawing

/// A PDF opened through poppler in this process. Not thread-safe: poppler's documents are
/// used from one thread at a time. Code that must survive a hostile PDF goes through
/// `PDFWorker`, which holds one of these in a child process.
public final class PDFDocument {
    /// The largest picture a page is drawn into (a hostile page size cannot ask for more).
    public static let maximumPixels = WorkerFraming.maximumPixels

    private let document: OpaquePointer
    public let url: URL
    private let password: String?
    private var pages: MuPDFPages?
    /// The same file opened through poppler-cpp, for its text layer (opened when first asked).
    private var words: UnsafeMutableRawPointer??

    /// Opens the PDF at `url`; `password` opens an encrypted one. Throws `PDFError`:
    /// `.needsPassword`, `.wrongPassword`, or `.unreadable` with the reason.
    public init(url: URL, password: String? = nil) throws {
        PDFLibrary.silenceLog()
        self.url = url
        self.password = password
        try MuPDFPages.checkReadable(url)
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(url.standardizedFileURL.path, nil, &error) else {
            defer { if error != nil { g_error_free(error) } }
            throw PDFError(.unreadable, "cannot open \(PDFError.naming(url)): \(Self.message(error))")
        }
        defer { g_free(uri) }
        let opened: OpaquePointer? = password.map { poppler_document_new_from_file(uri, $0, &error) }
            ?? poppler_document_new_from_file(uri, nil, &error)
        guard let opened else {
            defer { if error != nil { g_error_free(error) } }
            if shim_error_is_encrypted(error) != 0 {
                throw password == nil ? PDFError(.needsPassword, "\(PDFError.naming(url)) needs a password")
                                      : PDFError(.wrongPassword, "the password does not open \(PDFError.naming(url))")
            }
            throw PDFError(.unreadable, "\(PDFError.naming(url)) is not a PDF that can be read (\(Self.message(error)))")
        }
        document = opened
    }

    deinit {
        shim_object_unref(UnsafeMutableRawPointer(document))
        if let words = words ?? nil { text_document_close(words) }
    }

    public var pageCount: Int { Int(poppler_document_get_n_pages(document)) }

    public var title: String? { Self.take(poppler_document_get_title(document)).flatMap(Self.nonEmpty) }
    public var author: String? { Self.take(poppler_document_get_author(document)).flatMap(Self.nonEmpty) }

    /// The identifiers its XMP metadata gives (an ISBN, a DOI, calibre's); none from a packet
    /// past a megabyte, which no real one is.
    public var identifiers: [BookIdentifier] {
        guard let xmp = Self.take(poppler_document_get_metadata(document)), xmp.utf8.count <= 1 << 20 else { return [] }
        return BookIdentifier.of(xmp: Data(xmp.utf8))
    }
    /// The Info dictionary's CreationDate; nil when the PDF gives none (poppler answers -1).
    public var creationDate: Date? {
        let seconds = poppler_document_get_creation_date(document)
        return seconds > 0 ? Date(timeIntervalSince1970: TimeInterval(seconds)) : nil
    }

    /// Page `index`'s size in points as it is shown.
    public func pageSize(_ index: Int) throws -> PDFSize {
        try withPage(index) { page in
            var width = 0.0, height = 0.0
            poppler_page_get_size(page, &width, &height)
            return PDFSize(width: width, height: height)
        }
    }

    /// Every page's label, or nil when they are just the page numbers (or absent).
    public var pageLabels: [String]? {
        let labels = (0..<pageCount).map { index in
            (try? withPage(index) { Self.take(poppler_page_get_label($0)) }) ?? nil
        }
        let numbered = labels.enumerated().allSatisfy { $0.element == nil || $0.element == String($0.offset + 1) }
        return numbered ? nil : labels.enumerated().map { $0.element ?? String($0.offset + 1) }
    }

    /// Everything `PDFInfo` holds, read at once.
    /// A page the document counts but cannot give is listed, not a failure of the whole: what
    /// can be read is read (its size is taken from a page that can).
    public func info() throws -> PDFInfo {
        var sizes: [PDFSize?] = [], unreadable: [Int] = []
        for index in 0..<pageCount {
            do { sizes.append(try pageSize(index)) } catch let error as PDFError where error.kind == .unreadablePage {
                sizes.append(nil)
                unreadable.append(index)
            }
        }
        let stand = sizes.lazy.compactMap { $0 }.first ?? PDFSize(width: 612, height: 792)
        return PDFInfo(title: title, author: author, pageCount: pageCount, pageSizes: sizes.map { $0 ?? stand }, pageLabels: pageLabels,
                       outline: outline, creationDate: creationDate, unreadablePages: unreadable)
    }

    /// The outline (bookmarks), each entry's destination resolved to a page.
    public var outline: [PDFOutlineItem] {
        guard let iterator = poppler_index_iter_new(document) else { return [] }
        defer { poppler_index_iter_free(iterator) }
        return outlineItems(iterator, depth: 0)
    }

    private func outlineItems(_ iterator: OpaquePointer, depth: Int) -> [PDFOutlineItem] {
        var items: [PDFOutlineItem] = []
        // Hostile outlines may be deep or long; a reader needs neither.
        guard depth < 32 else { return items }
        repeat {
            guard items.count < 10_000 else { break }
            var title = "", page: Int?
            if let action = poppler_index_iter_get_action(iterator) {
                title = action.pointee.any.title.map { String(cString: $0) } ?? ""
                if action.pointee.type == POPPLER_ACTION_GOTO_DEST, let destination = action.pointee.goto_dest.dest {
                    page = self.page(of: destination)
                }
                poppler_action_free(action)
            }
            var children: [PDFOutlineItem] = []
            if let child = poppler_index_iter_get_child(iterator) {
                children = outlineItems(child, depth: depth + 1)
                poppler_index_iter_free(child)
            }
            items.append(PDFOutlineItem(title: title, page: page, children: children))
        } while poppler_index_iter_next(iterator) != 0
        return items
    }

    /// The page a destination leads to (0 is the first), a named one looked up.
    private func page(of destination: UnsafeMutablePointer<PopplerDest>) -> Int? {
        var number = Int(destination.pointee.page_num)
        if destination.pointee.type == POPPLER_DEST_NAMED, let name = destination.pointee.named_dest {
            guard let named = poppler_document_find_dest(document, name) else { return nil }
            number = Int(named.pointee.page_num)
            poppler_dest_free(named)
        }
        return (1...max(1, pageCount)).contains(number) ? number - 1 : nil
    }

    /// Page `index` (or the `region` of it) drawn on white by MuPDF, fitted inside `size`
    /// pixels keeping its shape (nil: one pixel a point).
    public func render(page index: Int, region: PageRegion? = nil, fitting size: (width: Int, height: Int)?) throws -> RGBAImage {
        // Poppler still answers which pages there are, in the words of every other request.
        try withPage(index) { _ in try drawnPages().render(page: index, region: region, fitting: size, maximumPixels: Self.maximumPixels) }
    }

    /// MuPDF's copy of the document, opened at the first page drawn or read (whose contents it checks).
    private func drawnPages() throws -> MuPDFPages {
        if let pages { return pages }
        let opened = try MuPDFPages(url: url, password: password)
        pages = opened
        return opened
    }

    /// Where page `index` draws pictures, in points from its top left.
    public func figures(page index: Int) throws -> [PDFRect] {
        try withPage(index) { page in
            guard let mappings = poppler_page_get_image_mapping(page) else { return [] }
            defer { poppler_page_free_image_mapping(mappings) }
            var rectangles: [PDFRect] = []
            var node: UnsafeMutablePointer<GList>? = mappings
            while let current = node, rectangles.count < 1_000 {
                if let mapping = current.pointee.data?.assumingMemoryBound(to: PopplerImageMapping.self) {
                    let area = mapping.pointee.area
                    rectangles.append(PDFRect(x0: min(area.x1, area.x2), y0: min(area.y1, area.y2),
                                              x1: max(area.x1, area.x2), y1: max(area.y1, area.y2)))
                }
                node = current.pointee.next
            }
            return rectangles
        }
    }

    /// The plain text of the pages from `first`, at most `count` of them (fewer at the end),
    /// without rectangles (search reads these): the text layer's lines as the reflow reads
    /// them, so search finds what is read.
    public func pageTexts(first: Int = 0, count: Int = .max) -> [String] {
        let pages = max(0, first)..<max(first, first + min(count, pageCount - first))
        return pages.map { index in (try? text(page: index, figures: false)).map(PDFReflow.lines) ?? "" }
    }

    /// Page `index`'s text layer: each character with its rectangle (on the page as it is
    /// shown) and font, the page's rotation, and where its pictures are unless `figures` is
    /// false (a neighbour's text needs none, and finding them is another pass over the page).
    /// Lines end with "\n"; a space stands where poppler saw one between two words.
    public func text(page index: Int, figures withFigures: Bool = true) throws -> PDFPageText {
        let size = try pageSize(index)
        // Before poppler reads the page (its pictures, its words): a flate bomb is refused.
        // (A PDF MuPDF cannot open is read by poppler as before.)
        try (try? drawnPages())?.checkContents(page: index)
        let figures = withFigures ? try self.figures(page: index) : []
        if words == nil { words = .some(text_document_open(url.standardizedFileURL.path, password)) }
        guard let opened = words ?? nil else { return PDFPageText(characters: [], size: size, figures: figures) }
        var layer = text_page()
        guard text_page_read(opened, Int32(index), &layer) == 0 else { throw unreadable(page: index) }
        defer { text_page_free(&layer) }
        let fonts = (0..<layer.font_count).map { layer.fonts[$0].map { String(cString: $0) } ?? "" }
        var characters: [PDFCharacter] = []
        characters.reserveCapacity(layer.glyph_count + layer.word_count)
        var previous: text_word?
        for wordIndex in 0..<layer.word_count {
            let word = layer.words[wordIndex]
            guard word.first <= layer.glyph_count, word.count <= layer.glyph_count - word.first, word.count > 0 else { continue }
            let first = layer.glyphs[word.first]
            let font = fonts.indices.contains(Int(first.font)) ? fonts[Int(first.font)] : ""
            if let previous {
                if !Self.sameLine(previous, word) {
                    characters.append(PDFCharacter(scalar: "\n", rect: Self.box(previous), fontSize: first.font_size, fontName: font))
                } else if previous.space_after != 0 {
                    characters.append(PDFCharacter(scalar: " ", rect: Self.gap(previous, word), fontSize: first.font_size, fontName: font))
                }
            }
            for glyphIndex in word.first..<word.first + word.count {
                let glyph = layer.glyphs[glyphIndex]
                characters.append(PDFCharacter(scalar: Unicode.Scalar(glyph.scalar) ?? "\u{FFFD}",
                                               rect: PDFRect(x0: glyph.x0, y0: glyph.y0, x1: glyph.x1, y1: glyph.y1), fontSize: glyph.font_size,
                                               fontName: fonts.indices.contains(Int(glyph.font)) ? fonts[Int(glyph.font)] : ""))
            }
            previous = word
        }
        return PDFPageText(characters: characters, size: size, figures: figures, rotation: Int(layer.rotation))
    }

    /// Whether `next` goes on the line of `word`: it runs the same way, level with it.
    private static func sameLine(_ word: text_word, _ next: text_word) -> Bool {
        guard word.rotation == next.rotation else { return false }
        let across = word.rotation % 2 == 0
        let (a0, a1) = across ? (word.y0, word.y1) : (word.x0, word.x1)
        let (b0, b1) = across ? (next.y0, next.y1) : (next.x0, next.x1)
        return min(a1, b1) - max(a0, b0) >= 0.5 * min(a1 - a0, b1 - b0)
    }

    private static func box(_ word: text_word) -> PDFRect { PDFRect(x0: word.x0, y0: word.y0, x1: word.x1, y1: word.y1) }

    /// The space between two words of a line, whichever way it runs.
    private static func gap(_ word: text_word, _ next: text_word) -> PDFRect {
        func between(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> (Double, Double) {
            let low = min(a1, b1), high = max(a0, b0)
            return low <= high ? (low, high) : ((low + high) / 2, (low + high) / 2)
        }
        if word.rotation % 2 == 0 {
            let (x0, x1) = between(word.x0, word.x1, next.x0, next.x1)
            return PDFRect(x0: x0, y0: min(word.y0, next.y0), x1: x1, y1: max(word.y1, next.y1))
        }
        let (y0, y1) = between(word.y0, word.y1, next.y0, next.y1)
        return PDFRect(x0: min(word.x0, next.x0), y0: y0, x1: max(word.x1, next.x1), y1: y1)
    }

    /// A page the document counts but cannot give (a page tree that loops or is cut).
    private func unreadable(page index: Int) -> PDFError {
        PDFError(.unreadablePage, "page \(index + 1) of \(PDFError.naming(url)) cannot be read: its place in the PDF's page tree is broken")
    }

    private func withPage<Result>(_ index: Int, _ body: (OpaquePointer) throws -> Result) throws -> Result {
        // Poppler prints a critical for an index out of range: checked here first.
        guard (0..<pageCount).contains(index) else {
            throw PDFError(.noSuchPage, "\(PDFError.naming(url)) has no page \(index + 1) (it has \(pageCount))")
        }
        guard let page = poppler_document_get_page(document, Int32(index)) else { throw unreadable(page: index) }
        defer { shim_object_unref(UnsafeMutableRawPointer(page)) }
        return try body(page)
    }

    /// A string GLib allocated, freed once read.
    private static func take(_ string: UnsafeMutablePointer<gchar>?) -> String? {
        guard let string else { return nil }
        defer { g_free(string) }
        return String(cString: string)
    }

    private static func nonEmpty(_ string: String) -> String? {
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        error?.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}

/// Process-wide set-up of the PDF library.
enum PDFLibrary {
    /// GLib's log (poppler's criticals) must never reach a terminal the shelf is drawing on.
    static func silenceLog() { _ = silenced }
    private static let silenced: Void = shim_silence_glib_log()
}
