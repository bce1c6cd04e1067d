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
    var isIssueArchive: Bool {
        if let type, ContentLink.archiveTypes.contains(type) { return true }
        let base = type.map { String($0.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        if let base, ContentLink.archiveTypes.contains(base) { return true }
        if base == nil || base == "application/octet-stream" || base == "binary/octet-stream" {
            return ["zip", "epub", "cbz"].contains(url.pathExtension.lowercased())
        }
        return false
    }

    static let archiveTypes: Set<String> = [
        "application/zip", "application/x-zip", "application/x-zip-compressed", "application/epub+zip",
        "application/vnd.comicbook+zip", "application/x-cbz", "application/vnd.cbz", "application/cbz", "application/x-cdisplay",
    ]

    /// The first archive among candidates, in order of preference.
    static func best(_ candidates: [ContentLink]) -> ContentLink? {
        candidates.first(where: \.isIssueArchive)
    }
}
