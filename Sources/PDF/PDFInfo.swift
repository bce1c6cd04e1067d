import Foundation

/// What a PDF says about itself: metadata, pages, outline and page labels.
public struct PDFInfo: Equatable, Sendable, Codable {
    public var title: String?
    public var author: String?
    public var pageCount: Int
    /// Each page's size in PDF points (1/72 inch), as it is shown (rotation applied).
    public var pageSizes: [PDFSize]
    /// The page labels the PDF gives ("xii", "A-3"), one per page; nil when it gives none
    /// beyond the page numbers.
    public var pageLabels: [String]?
    public var outline: [PDFOutlineItem]
    /// When the document says it was made (its Info dictionary's CreationDate).
    public var creationDate: Date?
    /// The pages (0 is the first) it counts but cannot give: a page tree that loops or is cut.
    public var unreadablePages: [Int]

    public init(title: String?, author: String?, pageCount: Int, pageSizes: [PDFSize], pageLabels: [String]?,
                outline: [PDFOutlineItem], creationDate: Date? = nil, unreadablePages: [Int] = []) {
        self.creationDate = creationDate
        self.unreadablePages = unreadablePages
        self.title = title
        self.author = author
        self.pageCount = pageCount
        self.pageSizes = pageSizes
        self.pageLabels = pageLabels
        self.outline = outline
    }
}

public struct PDFSize: Equatable, Sendable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// One entry of a PDF's outline (its bookmarks).
public struct PDFOutlineItem: Equatable, Sendable, Codable {
    public var title: String
    /// The page it leads to (0 is the first), named destinations resolved; nil when it
    /// leads nowhere inside the document (a link elsewhere is never followed).
    public var page: Int?
    public var children: [PDFOutlineItem]

    public init(title: String, page: Int?, children: [PDFOutlineItem] = []) {
        self.title = title
        self.page = page
        self.children = children
    }
}
