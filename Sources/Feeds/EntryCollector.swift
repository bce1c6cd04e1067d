import Foundation

/// What a reader found for one entry, before names, titles and dates are settled.
struct EntryDraft {
    var id: String?
    var title: String?
    var date: Date?
    var summary: String?
    var coverURL: URL?
    var thumbnailURL: URL?
    var content: ContentLink?
    var endDate: Date?
}

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

/// Turns drafts into entries: a stable unique name (id, else content URL), a title, a date
/// (the feed's, with a note, when the entry has none), and notes for what was dropped.
/// Drafts are kept until `finish`, because whether entries without content count is only
/// known once the whole feed has been read (a newsstand feed lists them anyway).
struct EntryCollector {
    private var drafts: [EntryDraft] = []
    private var notes: [String] = []

    mutating func note(_ problem: String) { notes.append(problem) }

    mutating func add(_ draft: EntryDraft) { drafts.append(draft) }

    /// The entries, in feed order, and every problem met. Undated entries get the feed's date
    /// (else the newest entry date, else the epoch).
    mutating func finish(feedDate: Date?, keepsEntriesWithoutContent: Bool, itemWord: String = "items")
        -> (entries: [FeedEntry], problems: [String]) {
        var entries: [FeedEntry] = []
        entries.reserveCapacity(drafts.count)
        var problems = notes
        var names = Set<String>()
        var undated: [Int] = []
        var skippedWithoutContent = 0
        for draft in drafts {
            let label = draft.title ?? draft.id ?? "entry \(entries.count + skippedWithoutContent + 1)"
            if draft.content == nil, !keepsEntriesWithoutContent {
                skippedWithoutContent += 1
                continue
            }
            if draft.content == nil { problems.append("entry \"\(label)\" has no zip, EPUB or CBZ content link") }
            guard let name = draft.id ?? draft.content?.url.absoluteString else {
                problems.append("entry \"\(label)\" has neither an id nor a content link; skipped")
                continue
            }
            guard names.insert(name).inserted else {
                problems.append("entry \"\(label)\" repeats the name \(name); skipped")
                continue
            }
            if draft.date == nil { undated.append(entries.count) }
            let title = draft.title ?? draft.content.map { $0.url.deletingPathExtension().lastPathComponent } ?? name
            entries.append(FeedEntry(
                name: name, title: title, date: draft.date ?? .distantPast, summary: draft.summary,
                coverURL: draft.coverURL, thumbnailURL: draft.thumbnailURL ?? draft.coverURL,
                contentURL: draft.content?.url, contentType: draft.content?.type,
                contentLength: draft.content?.length, sha256: draft.content?.sha256, endDate: draft.endDate))
        }
        drafts = []
        if skippedWithoutContent > 0 {
            problems.append("\(skippedWithoutContent) \(itemWord) carry no zip, EPUB or CBZ link and are not issues")
        }
        let fallback = feedDate
            ?? entries.map(\.date).filter { $0 != .distantPast }.max()
            ?? Date(timeIntervalSince1970: 0)
        for index in undated {
            entries[index].date = fallback
            problems.append("entry \"\(entries[index].title)\" has no readable date; the feed's date was used")
        }
        return (entries, problems)
    }

    static func summary(_ text: String?) -> String? {
        guard let text else { return nil }
        guard text.utf8.count > 2000, text.count > 2000 else { return text }
        return String(text.prefix(1999)) + "…"
    }
}
