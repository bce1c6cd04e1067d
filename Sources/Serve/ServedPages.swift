import Foundation
import Imaging
import IssueArchive
import NewsstandKit

/// A comic's or a PDF's pages one at a time, for OPDS-PSE (`/pages/ID/N?maxWidth=W`): a
/// comic's page is its picture file, sent as it is unless it is wider than asked; a PDF's
/// page is drawn by the registered document renderer (the contained PDF worker in
/// `newsstand`) and sent as a PNG. Pages are named by number only, looked up in the issue's
/// reading order as the library installed it.
public struct ServedPages: Sendable {
    /// A PDF page's width when the device names none.
    static let defaultWidth = 1200
    /// The widest a page is drawn or scaled to, whatever a device asks.
    static let largestWidth = 4000

    let library: Library
    let files: ServedFiles
    let documents: DocumentRenderers
    private let orders = InstallMemo<[String]>()

    public init(library: Library, files: ServedFiles, documents: DocumentRenderers = .shared) {
        self.library = library
        self.files = files
        self.documents = documents
    }

    /// The resources of the issue's reading order, when it is a comic or a PDF (remembered per install).
    func pages(of issue: Issue) -> [String]? {
        guard let kind = files.kind(of: issue), kind == .cbz || kind == .pdf else { return nil }
        return orders.value(for: issue) {
            (try? files.formats.open(directory: library.paths.contentDirectory(for: issue)))?.readingOrder.map(\.path)
        }
    }

    /// Page `index` (from 0) of issue `id`, no wider than `maxWidth`: its bytes and media type.
    public func page(issueID id: Int64, index: Int, maxWidth: Int?) throws -> (data: Data, type: String)? {
        guard let issue = try library.store.issue(id: id), let pages = pages(of: issue), pages.indices.contains(index) else { return nil }
        let directory = library.paths.contentDirectory(for: issue)
        let width = maxWidth.map { min(max($0, 16), Self.largestWidth) }
        if let page = PagePath(pages[index]) {
            let file = directory.appendingPathComponent(page.file)
            guard ServedFiles.isPlainFile(file), ServedFiles.isInside(file, library.paths.cache) else { return nil }
            let box = (width: width ?? Self.defaultWidth, height: 4 * (width ?? Self.defaultWidth))
            let drawn = try ImageDecoder.decode(.page(page.index, of: file, kind: .pdf), size: box, documents: documents)
            return (Data(try ImageEncoder.png(PixelFitting.fitted(drawn, into: box))), "image/png")
        }
        let file = directory.appendingPathComponent(pages[index])
        guard ServedFiles.isPlainFile(file), ServedFiles.isInside(file, library.paths.cache),
              let type = ServedFiles.imageType(of: file) else { return nil }
        let bytes = try Data(contentsOf: file)
        guard let width else { return (bytes, type) }
        let image = try ImageDecoder.decode(bytes)
        guard image.width > width else { return (bytes, type) }
        let fitted = PixelFitting.fitted(image, into: (width: width, height: Self.largestWidth * 4))
        return (Data(try ImageEncoder.png(fitted)), "image/png")
    }
}

