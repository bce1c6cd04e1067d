import Foundation

/// A link to an issue's content.
struct ContentLink {
    var url: URL
    var type: String?
    var length: Int64?
    var sha256: String?

    init(url: URL, type: String?, length: String? = nil, sha256: String? = nil) {
        self.url = url
        self.type = FeedText.line(type)?.lowercased()
        self.length = length.flatMap { FeedText.line($0) }.flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
        let hash = FeedText.line(sha256)?.lowercased()
        self.sha256 = hash.flatMap { $0.count == 64 && $0.allSatisfy(\.isHexDigit) ? $0 : nil }
    }

    /// Whether this is an archive an issue can be made of: zip, EPUB or CBZ, by media type,
    /// or by file extension when the type is missing or generic.
    var isIssueArchive: Bool { matches(types: ContentLink.archiveTypes, extensions: ["zip", "epub", "cbz"]) }

    /// Whether this is a PDF, an issue of one file: by media type, or by extension when the
    /// type is missing or generic.
    var isPDF: Bool { matches(types: ContentLink.pdfTypes, extensions: ["pdf"]) }

    private func matches(types: Set<String>, extensions: Set<String>) -> Bool {
        if let type, types.contains(type) { return true }
        let base = type.map { String($0.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        if let base, types.contains(base) { return true }
        if base == nil || base == "application/octet-stream" || base == "binary/octet-stream" {
            return extensions.contains(url.pathExtension.lowercased())
        }
        return false
    }

    static let archiveTypes: Set<String> = [
        "application/zip", "application/x-zip", "application/x-zip-compressed", "application/epub+zip",
        "application/vnd.comicbook+zip", "application/x-cbz", "application/vnd.cbz", "application/cbz", "application/x-cdisplay",
    ]

    static let pdfTypes: Set<String> = ["application/pdf", "application/x-pdf"]

    /// The content among candidates, in order of preference: an archive first (it may hold
    /// the PDF and its pictures together), else a PDF.
    static func best(_ candidates: [ContentLink]) -> ContentLink? {
        candidates.first(where: \.isIssueArchive) ?? candidates.first(where: \.isPDF)
    }
}
