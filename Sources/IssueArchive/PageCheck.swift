import Foundation

/// Whether a comic page's bytes can be a picture at all, checked from its structure rather
/// than decoded (IssueArchive does not link the image codecs): a PNG, JPEG, GIF or WebP
/// signature, not empty, and for PNG and JPEG the end marker present (a file cut short
/// never draws). A comic none of whose pages passes is refused at install.
enum PageCheck {
    /// Unreadable pages named in the refusal before the rest are only counted.
    static let namedProblems = 3

    /// Throws when no page of a comic can be shown, naming why for the first few.
    static func requireOneReadablePage(of content: IssueContent, in root: URL) throws {
        let pages = content.readingOrder.map(\.path).filter { MediaType.isImage($0) }
        guard !pages.isEmpty else { return }
        var problems: [String] = []
        for page in pages {
            guard let problem = problem(with: root.appendingPathComponent(page)) else { return }
            problems.append("\(ArchiveError.printable(page)) \(problem)")
        }
        var summary = problems.prefix(namedProblems).joined(separator: ", ")
        if problems.count > namedProblems { summary += ", and \(problems.count - namedProblems) more" }
        throw ArchiveError(.invalidContent, "comic archive has no page that can be shown: \(summary)")
    }

    /// Why the image at `url` cannot be shown ("is empty", "is cut short", …), nil when it looks whole.
    static func problem(with url: URL) -> String? {
        guard let bytes = try? Data(contentsOf: url, options: .alwaysMapped) else { return "cannot be read" }
        if bytes.isEmpty { return "is empty" }
        return bytes.withUnsafeBytes { raw in
            let page = raw.bindMemory(to: UInt8.self)
            if page.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return pngEnds(page) ? nil : "is cut short" }
            if page.starts(with: [0xFF, 0xD8, 0xFF]) { return jpegEnds(page) ? nil : "is cut short" }
            if page.starts(with: Array("GIF87a".utf8)) || page.starts(with: Array("GIF89a".utf8)) { return nil }
            if page.count >= 12, page.starts(with: Array("RIFF".utf8)), Array(page[8..<12]) == Array("WEBP".utf8) {
                return webpIsWhole(page) ? nil : "is cut short"
            }
            return "is not a PNG, JPEG, GIF or WebP image"
        }
    }

    private static func bigEndian32(_ page: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
        page[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Walks the chunks from the signature to IEND without running past the end.
    private static func pngEnds(_ page: UnsafeBufferPointer<UInt8>) -> Bool {
        var at = 8
        while at + 12 <= page.count {
            let length = bigEndian32(page, at)
            if Array(page[at + 4..<at + 8]) == Array("IEND".utf8) { return true }
            at += 12 + length
        }
        return false
    }

    /// Walks the segments to the scan, then looks for the end-of-image marker after it (inside
    /// the entropy-coded data a 0xFF byte is always followed by 0x00 or a restart marker).
    private static func jpegEnds(_ page: UnsafeBufferPointer<UInt8>) -> Bool {
        var at = 2
        while at + 4 <= page.count {
            guard page[at] == 0xFF else { return false }
            let marker = page[at + 1]
            if marker == 0xFF { at += 1; continue }  // fill bytes before a marker
            if marker == 0xD9 { return true }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { at += 2; continue }  // markers without a length
            let length = Int(page[at + 2]) << 8 | Int(page[at + 3])
            if marker == 0xDA {
                var scan = at + 2 + length
                while scan + 1 < page.count {
                    if page[scan] == 0xFF && page[scan + 1] == 0xD9 { return true }
                    scan += 1
                }
                return false
            }
            at += 2 + length
        }
        return false
    }

    /// The RIFF header's size covers the whole file.
    private static func webpIsWhole(_ page: UnsafeBufferPointer<UInt8>) -> Bool {
        let size = page[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        return size >= 4 && size + 8 <= page.count
    }
}
