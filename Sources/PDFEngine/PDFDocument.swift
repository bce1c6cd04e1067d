import CPoppler
import Foundation
import Imaging
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
            throw PDFError(.unreadable, "cannot open '\(url.path)': \(Self.message(error))")
        }
        defer { g_free(uri) }
        let opened: OpaquePointer? = password.map { poppler_document_new_from_file(uri, $0, &error) }
            ?? poppler_document_new_from_file(uri, nil, &error)
        guard let opened else {
            defer { if error != nil { g_error_free(error) } }
            if shim_error_is_encrypted(error) != 0 {
                throw password == nil ? PDFError(.needsPassword, "\(url.lastPathComponent) needs a password")
                                      : PDFError(.wrongPassword, "the password does not open \(url.lastPathComponent)")
            }
            throw PDFError(.unreadable, "\(url.lastPathComponent) is not a PDF that can be read (\(Self.message(error)))")
        }
        document = opened
    }

    deinit { shim_object_unref(UnsafeMutableRawPointer(document)) }

    public var pageCount: Int { Int(poppler_document_get_n_pages(document)) }

    public var title: String? { Self.take(poppler_document_get_title(document)).flatMap(Self.nonEmpty) }
    public var author: String? { Self.take(poppler_document_get_author(document)).flatMap(Self.nonEmpty) }
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
    public func info() throws -> PDFInfo {
        PDFInfo(title: title, author: author, pageCount: pageCount,
                pageSizes: try (0..<pageCount).map(pageSize), pageLabels: pageLabels, outline: outline, creationDate: creationDate)
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

    /// MuPDF's copy of the document, opened at the first page drawn (text alone never needs it).
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
    /// without rectangles (search reads these).
    public func pageTexts(first: Int = 0, count: Int = .max) -> [String] {
        let pages = max(0, first)..<max(first, first + min(count, pageCount - first))
        return pages.map { index in (try? withPage(index) { Self.readingSelection(of: $0)?.text }) ?? nil ?? "" }
    }

    /// Page `index`'s text layer: each character with its rectangle and font size, and
    /// where its pictures are unless `figures` is false (a neighbour's text needs none, and
    /// finding them is another pass over the page).
    public func text(page index: Int, figures withFigures: Bool = true) throws -> PDFPageText {
        try withPage(index) { page in
            var width = 0.0, height = 0.0
            poppler_page_get_size(page, &width, &height)
            let size = PDFSize(width: width, height: height)
            let figures = withFigures ? try self.figures(page: index) : []
            guard let selection = Self.readingSelection(of: page) else { return PDFPageText(characters: [], size: size, figures: figures) }
            let text = selection.text
            var area = selection.area
            var rectangles: UnsafeMutablePointer<PopplerRectangle>?
            var count: guint = 0
            guard poppler_page_get_text_layout_for_area(page, &area, &rectangles, &count) != 0, let rectangles else {
                return PDFPageText(characters: [], size: size, figures: figures)
            }
            defer { g_free(rectangles) }
            var sizes = [Double](repeating: 0, count: Int(count))
            var fonts = [String](repeating: "", count: Int(count))
            if let attributes = poppler_page_get_text_attributes_for_area(page, &area) {
                var node: UnsafeMutablePointer<GList>? = attributes
                while let current = node {
                    if let run = current.pointee.data?.assumingMemoryBound(to: PopplerTextAttributes.self) {
                        let name = run.pointee.font_name.map { String(cString: $0) } ?? ""
                        let start = max(0, Int(run.pointee.start_index)), end = min(Int(count) - 1, Int(run.pointee.end_index))
                        if start <= end {
                            for position in start...end {
                                sizes[position] = run.pointee.font_size
                                fonts[position] = name
                            }
                        }
                    }
                    node = current.pointee.next
                }
                poppler_page_free_text_attributes(attributes)
            }
            // Poppler brackets right-to-left words in embedding marks that have no rectangle of
            // their own: they keep their place in the text (the reflow reads the runs by them)
            // but take no rectangle, or every later character would get its neighbour's.
            var position = 0
            let characters = text.unicodeScalars.compactMap { scalar -> PDFCharacter? in
                if PDFCharacter.isEmbeddingMark(scalar) {
                    let at = min(position, Int(count) - 1)
                    return PDFCharacter(scalar: scalar, rect: PDFRect(x0: 0, y0: 0, x1: 0, y1: 0),
                                        fontSize: at >= 0 ? sizes[at] : 0, fontName: at >= 0 ? fonts[at] : "")
                }
                guard position < Int(count) else { return nil }
                defer { position += 1 }
                let box = rectangles[position]
                return PDFCharacter(scalar: scalar, rect: PDFRect(x0: box.x1, y0: box.y1, x1: box.x2, y1: box.y2),
                                    fontSize: sizes[position], fontName: fonts[position])
            }
            return PDFPageText(characters: characters, size: size, figures: figures)
        }
    }

    /// The page's whole text, and the selection that gave it (the text's layout and
    /// attributes must come from the same one). Poppler-glib reads a page as a selection
    /// from its first corner to its second, in reading order: from the top left, a page
    /// whose main direction is right to left loses its first and last lines (the selection
    /// starts at the end of the first and stops at the start of the last; ArabicCIDTrueType.pdf
    /// gives 2 lines of 4). So a page with right-to-left words in it (poppler brackets them
    /// in U+202B…U+202C) is also read from the top right, and the longer text wins; from
    /// there a left-to-right page would lose lines the same way.
    private static func readingSelection(of page: OpaquePointer) -> (text: String, area: PopplerRectangle)? {
        var width = 0.0, height = 0.0
        poppler_page_get_size(page, &width, &height)
        var forward = PopplerRectangle(x1: 0, y1: 0, x2: width, y2: height)
        guard let text = take(poppler_page_get_text_for_area(page, &forward)) else { return nil }
        guard text.unicodeScalars.contains("\u{202B}") else { return (text, forward) }
        var backward = PopplerRectangle(x1: width, y1: 0, x2: 0, y2: height)
        guard let fromTheRight = take(poppler_page_get_text_for_area(page, &backward)),
              fromTheRight.unicodeScalars.count > text.unicodeScalars.count else { return (text, forward) }
        return (fromTheRight, backward)
    }

    private func withPage<Result>(_ index: Int, _ body: (OpaquePointer) throws -> Result) throws -> Result {
        // Poppler prints a critical for an index out of range: checked here first.
        guard (0..<pageCount).contains(index), let page = poppler_document_get_page(document, Int32(index)) else {
            throw PDFError(.noSuchPage, "\(url.lastPathComponent) has no page \(index + 1) (it has \(pageCount))")
        }
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
