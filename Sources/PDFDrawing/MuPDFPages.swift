import CMuPDF
import Foundation
import Imaging
import PDF

/// A PDF's pages drawn by MuPDF: its text at reading sizes keeps its letters' spacing
/// (cairo 1.16 puts each glyph on a whole pixel), and a page costs about half of
/// poppler's instructions (benchmarks/HISTORY.md, "Session 13: the PDF engine"). Not
/// thread-safe, like `PDFDocument`, which holds one.
package final class MuPDFPages {
    private let document: OpaquePointer
    private let name: String

    /// Opens `url` with `password`; throws `PDFError` in the words `PDFDocument` uses.
    package init(url: URL, password: String?) throws {
        try Self.checkReadable(url)
        name = PDFError.naming(url)
        var status: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        guard let opened = mupdf_open(url.path, password, &status, &message, message.count) else {
            switch Int(status) {
            case Int(MUPDF_NEEDS_PASSWORD): throw PDFError(.needsPassword, "\(name) needs a password")
            case Int(MUPDF_WRONG_PASSWORD): throw PDFError(.wrongPassword, "the password does not open \(name)")
            default: throw PDFError(.unreadable, "\(name) is not a PDF that can be read (\(String(cString: message)))")
            }
        }
        document = opened
    }

    deinit { mupdf_close(document) }

    /// A file that cannot be read is named whole, before either library tries it.
    package static func checkReadable(_ url: URL) throws {
        guard FileManager.default.isReadableFile(atPath: url.path) else { throw PDFError(.unreadable, "cannot read '\(url.path)'") }
    }

    package var pageCount: Int { Int(mupdf_page_count(document)) }

    /// Page `index` (or the `region` of it) on white, fitted inside `size` pixels keeping
    /// its shape (nil: one pixel a point), never more than `maximumPixels`.
    package func render(page index: Int, region: PageRegion?, fitting size: (width: Int, height: Int)?, maximumPixels: Int) throws -> RGBAImage {
        guard (0..<pageCount).contains(index) else {
            throw PDFError(.noSuchPage, "\(name) has no page \(index + 1) (it has \(pageCount))")
        }
        var message = [CChar](repeating: 0, count: 256)
        var pageWidth = 0.0, pageHeight = 0.0
        guard mupdf_page_size(document, Int32(index), &pageWidth, &pageHeight, &message, message.count) == MUPDF_OK,
              pageWidth > 0, pageHeight > 0, pageWidth.isFinite, pageHeight.isFinite else {
            throw PDFError(.unreadable, "page \(index + 1) of \(name) has no size")
        }
        try checkContents(page: index)
        let part = region ?? PageRegion(x0: 0, y0: 0, x1: 1, y1: 1)!
        let (width, height) = Self.pixels(of: (pageWidth * part.width, pageHeight * part.height), fitting: size, maximum: maximumPixels)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let status = pixels.withUnsafeMutableBufferPointer { buffer in
            mupdf_draw(document, Int32(index), part.x0, part.y0, part.x1, part.y1, Int32(width), Int32(height),
                       buffer.baseAddress, &message, message.count)
        }
        guard status == MUPDF_OK else {
            throw PDFError(.unreadable, "page \(index + 1) of \(name) could not be drawn (\(String(cString: message)))")
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Page `index`'s contents may be read by either library: refused, in a line, when
    /// they inflate past `inflatedLimit` bytes at more than `inflationLimit` times what is
    /// stored. Such a flate bomb (benchmarks/reliability/pdf_paths.py: 64 MB of lines behind
    /// 160 KB) kept poppler's text and MuPDF's drawing busy until the worker's 20 s wall
    /// clock; real pages inflate 2–13 times to kilobytes (the six test pages: 31 B–33 KB).
    /// Counting stops past the limit: 0.1 s on that bomb.
    package func checkContents(page index: Int) throws {
        var inflated: Int64 = 0, stored: Int64 = 0
        guard mupdf_page_contents(document, Int32(index), Int64(Self.inflatedLimit), &inflated, &stored) == MUPDF_OK,
              inflated > Self.inflatedLimit, inflated > Int64(Self.inflationLimit) * max(1, stored) else { return }
        throw PDFError(.unreadable, "page \(index + 1) of \(name) cannot be read: its contents inflate to more than "
                       + "\(Self.inflatedLimit >> 20) MB from \(max(1, stored) >> 10) KB, as a flate bomb does")
    }

    static let inflatedLimit = 16 << 20
    static let inflationLimit = 50

    /// The picture's size for `points` fitted inside `size` keeping its shape (each side
    /// rounded, at least 1), scaled down to at most `maximum` pixels.
    package static func pixels(of points: (width: Double, height: Double), fitting size: (width: Int, height: Int)?,
                       maximum: Int) -> (width: Int, height: Int) {
        var scale = 1.0
        if let size { scale = min(Double(max(1, size.width)) / points.width, Double(max(1, size.height)) / points.height) }
        let area = points.width * points.height * scale * scale
        if area > Double(maximum) { scale *= (Double(maximum) / area).squareRoot() }
        return (max(1, Int((points.width * scale).rounded())), max(1, Int((points.height * scale).rounded())))
    }
}
