import CPoppler
import Foundation

/// PDFs the tests write themselves with cairo's PDF surface: A5 pages (420×595 pt) with
/// a heading at 24 pt, two columns of 10 pt text and a black rectangle as a picture.
enum SamplePDF {
    static let pageSize = (width: 420.0, height: 595.0)
    /// Where the picture is drawn on every page, in points.
    static let picture = (x: 40.0, y: 300.0, width: 150.0, height: 100.0)
    /// Where a raster photograph (a red-to-blue gradient) is drawn on every page, in points.
    static let photo = (x: 230.0, y: 300.0, width: 150.0, height: 100.0)

    /// A temporary folder, removed by the caller.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pdf-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// `body` given a magazine of three pages (`write`) named `sample.pdf` in a folder of its own, removed after.
    static func withSample<Result>(_ body: (URL) throws -> Result) throws -> Result {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sample.pdf")
        write(to: file, pages: 3)
        return try body(file)
    }

    /// Writes a magazine of `pages` pages to `url`: metadata, labels "i", "ii", then 1, 2…,
    /// and an outline of "Cover" (page 1) and "Second article" (page 2, a named destination)
    /// with a child "Letters" (the last page).
    /// `created` is its CreationDate as cairo takes it ("2019-05-04T10:00:00Z"); cairo's own (now) without.
    static func write(to url: URL, pages: Int = 3, created: String? = nil) {
        let surface = cairo_pdf_surface_create(url.path, pageSize.width, pageSize.height)
        if let created { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, created) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, "The Test Monthly")
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, "Ada Writer")
        let cairo = cairo_create(surface)
        let romans = ["i", "ii"]
        for page in 0..<pages {
            cairo_pdf_surface_set_page_label(surface, page < romans.count ? romans[page] : String(page - romans.count + 1))
            if page == 1 {
                cairo_tag_begin(cairo, CAIRO_TAG_DEST, "name='second'")
                cairo_tag_end(cairo, CAIRO_TAG_DEST)
            }
            cairo_select_font_face(cairo, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
            cairo_set_source_rgb(cairo, 0, 0, 0)
            cairo_set_font_size(cairo, 24)
            cairo_move_to(cairo, 40, 60)
            cairo_show_text(cairo, "Heading \(page + 1)")
            cairo_select_font_face(cairo, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(cairo, 10)
            for line in 0..<5 {
                cairo_move_to(cairo, 40, 100 + Double(line) * 14)
                cairo_show_text(cairo, "left column \(line)")
                cairo_move_to(cairo, 230, 100 + Double(line) * 14)
                cairo_show_text(cairo, "right column \(line)")
            }
            cairo_rectangle(cairo, picture.x, picture.y, picture.width, picture.height)
            cairo_fill(cairo)
            drawPhoto(on: cairo)
            cairo_show_page(cairo)
        }
        _ = cairo_pdf_surface_add_outline(surface, CAIRO_PDF_OUTLINE_ROOT, "Cover", "page=1", CAIRO_PDF_OUTLINE_FLAG_OPEN)
        let second = cairo_pdf_surface_add_outline(surface, CAIRO_PDF_OUTLINE_ROOT, "Second article", "dest='second'",
                                                   CAIRO_PDF_OUTLINE_FLAG_OPEN)
        _ = cairo_pdf_surface_add_outline(surface, second, "Letters", "page=\(pages)", CAIRO_PDF_OUTLINE_FLAG_OPEN)
        cairo_destroy(cairo)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
    }

    /// A 60×40-pixel picture scaled into `photo`: red at its left, blue at its right.
    private static func drawPhoto(on cairo: OpaquePointer?) {
        let image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 60, 40)
        let data = cairo_image_surface_get_data(image)!
        let stride = Int(cairo_image_surface_get_stride(image))
        for y in 0..<40 {
            for x in 0..<60 {
                let pixel = data + y * stride + x * 4
                // Native-endian xRGB: bytes B, G, R, x.
                pixel[0] = UInt8(x * 255 / 59)
                pixel[1] = 0
                pixel[2] = UInt8(255 - x * 255 / 59)
            }
        }
        cairo_surface_mark_dirty(image)
        cairo_save(cairo)
        cairo_translate(cairo, photo.x, photo.y)
        cairo_scale(cairo, photo.width / 60, photo.height / 40)
        cairo_set_source_surface(cairo, image, 0, 0)
        cairo_paint(cairo)
        cairo_restore(cairo)
        cairo_surface_destroy(image)
    }
}
