/// What kind of issue this is, as the format reader that opened it names it ("epub"):
/// open-ended, so a format added as a plug-in has a name of its own.
public struct IssueFormat: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let epub = IssueFormat(rawValue: "epub")
    public static let cbz = IssueFormat(rawValue: "cbz")
    public static let zip = IssueFormat(rawValue: "zip")

    public var description: String { rawValue }
}

public struct IssueMetadata: Codable, Sendable, Equatable {
    public var title: String?
    public var creators: [String]
    public var date: String?
    public var language: String?
    public var publisher: String?
    public var summary: String?
    public var series: String?
    public var number: String?

    public init(title: String? = nil, creators: [String] = [], date: String? = nil, language: String? = nil,
                publisher: String? = nil, summary: String? = nil, series: String? = nil, number: String? = nil) {
        self.title = title
        self.creators = creators
        self.date = date
        self.language = language
        self.publisher = publisher
        self.summary = summary
        self.series = series
        self.number = number
    }
}

public struct TOCEntry: Codable, Sendable, Equatable {
    public var title: String
    /// Relative to the content root; may end in `#fragment`.
    public var path: String
    public var children: [TOCEntry]

    public init(title: String, path: String, children: [TOCEntry] = []) {
        self.title = title
        self.path = path
        self.children = children
    }
}

public struct Resource: Codable, Sendable, Equatable {
    /// Relative to the content root.
    public var path: String
    public var mediaType: String
    /// What the publication calls this resource where that differs from its place in the
    /// reading order: a PDF's page label ("xii" for the 14th page); nil when it says nothing.
    public var label: String?

    public init(path: String, mediaType: String, label: String? = nil) {
        self.path = path
        self.mediaType = mediaType
        self.label = label
    }

    /// A page that is a picture (a comic page, an image in a spine); false for documents,
    /// SVG pages included: they are read for the pictures and text they hold.
    public var isPicture: Bool {
        let type = mediaType.lowercased()
        return type.hasPrefix("image/") && type != "image/svg+xml"
    }
}

public struct IssueContent: Codable, Sendable, Equatable {
    public var format: IssueFormat
    public var metadata: IssueMetadata
    public var tableOfContents: [TOCEntry]
    /// Articles (EPUB spine, zip order) or page images (CBZ).
    public var readingOrder: [Resource]
    /// Relative path of the cover image, if the issue names or has one.
    public var coverImage: String?
    public var rightToLeft: Bool

    public init(format: IssueFormat, metadata: IssueMetadata = IssueMetadata(), tableOfContents: [TOCEntry] = [],
                readingOrder: [Resource] = [], coverImage: String? = nil, rightToLeft: Bool = false) {
        self.format = format
        self.metadata = metadata
        self.tableOfContents = tableOfContents
        self.readingOrder = readingOrder
        self.coverImage = coverImage
        self.rightToLeft = rightToLeft
    }
}
