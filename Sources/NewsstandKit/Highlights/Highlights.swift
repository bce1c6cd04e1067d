import Foundation
import IssueArchive

/// The reader's highlights as the library offers them: made, changed, deleted (a tombstone
/// kept for sync), listed for an issue in reading order or all of them newest first, and
/// found again in a resource's text (`resolve`). The reader, the shelf's list and the
/// `highlight`/`highlights` commands all go through it.
public struct Highlights: Sendable {
    let store: LibraryStore
    let downloads: DownloadQueue
    let clock: WallClock

    /// A new highlight from `draft`, stored; in an EPUB it carries its CFI (for calibre's and
    /// the W3C exports, and calibre's sync), made here unless the draft has one.
    @discardableResult
    public func add(_ draft: HighlightDraft) throws -> Highlight {
        var draft = draft
        if draft.cfi == nil, let issue = try store.issue(id: draft.issueID) {
            // Nil where the content is no EPUB (no package to name the place in).
            draft.cfi = HighlightCFI.range(of: draft.quote, document: draft.locator.resource,
                                           book: downloads.contentDirectory(for: issue))?.cfi
        }
        let highlight = Highlight(issueID: draft.issueID, locator: draft.locator, position: draft.position, textOffset: draft.textOffset,
                                  quote: draft.quote, cfi: draft.cfi, color: draft.color, note: Self.note(draft.note),
                                  chapter: draft.chapter, created: clock.now())
        try store.insertHighlight(highlight)
        return highlight
    }

    /// The note of highlight `id` replaced (nil or blank: no note).
    @discardableResult
    public func editNote(_ id: String, to note: String?) throws -> Highlight {
        try change(id) { $0.note = Self.note(note) }
    }

    @discardableResult
    public func recolor(_ id: String, to color: Highlight.Color) throws -> Highlight {
        try change(id) { $0.color = color }
    }

    /// Deletes highlight `id`: no list shows it again; its tombstone stays for sync.
    public func delete(_ id: String) throws {
        try change(id) { $0.deleted = true }
    }

    /// A highlight of `quote` in downloaded `issue`, whose text `texts` reads (`HighlightTexts`
    /// in Shelf: the text the reader lays out): the words must be there exactly once (in the
    /// `chapter`th part with text, from 1, when given), or it is refused with a `HighlightError`.
    @discardableResult
    public func add(quote: String, in issue: Issue, texts: any IssueTextSource, chapter: Int? = nil,
                    color: Highlight.Color = .yellow, note: String? = nil) throws -> Highlight {
        guard let issueID = issue.id else { throw LibraryError.noSuchIssue(issue.name) }
        guard issue.status == .available else { throw LibraryError.notDownloaded(issue.name) }
        guard !quote.isEmpty else { throw HighlightError.emptyQuote }
        let directory = downloads.contentDirectory(for: issue)
        let content = try IssueReader.open(directory: directory)
        let parts = try texts.parts(ofContentIn: directory)
        if let chapter, !parts.indices.contains(chapter - 1) {
            throw HighlightError.noSuchChapter(issue: issue.shownTitle, chapter: chapter, chapters: parts.count)
        }
        let needle = TextQuoteSelector(exact: quote)
        var found: [(part: Int, range: Range<String.Index>)] = []
        for (number, part) in parts.enumerated() where chapter == nil || chapter == number + 1 {
            found += needle.occurrences(in: part.text).map { (number, $0) }
        }
        guard let only = found.first else { throw HighlightError.quoteNotFound(issue: issue.shownTitle, chapter: chapter) }
        guard found.count == 1 else {
            throw HighlightError.quoteAmbiguous(issue: issue.shownTitle, places: found.count,
                                                chapters: Array(Set(found.map { $0.part + 1 })).sorted())
        }
        let part = parts[only.part]
        let text = part.text
        let resource = part.resource ?? ""
        let utf8 = text.utf8
        let progression = utf8.isEmpty ? 0 : Double(utf8.distance(from: utf8.startIndex, to: only.range.lowerBound)) / Double(utf8.count)
        let total = content.readingOrder.isEmpty ? 0 : (Double(part.position) + progression) / Double(content.readingOrder.count)
        let locator = Locator(resource: resource, progression: progression, totalProgression: total, page: part.page,
                              updated: clock.now())
        guard let draft = HighlightDraft(issueID: issueID, locator: locator, position: part.position, range: only.range, in: text,
                                         color: color, note: note, chapter: Self.chapterTitle(of: resource, in: content) ?? part.label)
        else { throw HighlightError.emptyQuote }
        return try add(draft)
    }

    /// The title the contents give `resource` (the first entry that opens it), if any.
    public static func chapterTitle(of resource: String, in content: IssueContent) -> String? {
        func search(_ entries: [TOCEntry]) -> String? {
            for entry in entries {
                // A chapter's entry may point inside it (`ch2.xhtml#night`); a PDF's page is its resource (`issue.pdf#page=4`).
                if entry.path == resource || entry.path.split(separator: "#", maxSplits: 1).first.map(String.init) == resource {
                    return entry.title
                }
                if let inner = search(entry.children) { return inner }
            }
            return nil
        }
        return search(content.tableOfContents)
    }

    /// The highlight by id, a deleted one too (`deleted` says so).
    public func highlight(id: String) throws -> Highlight? { try store.highlight(id: id) }

    /// An issue's highlights in reading order.
    public func list(for issue: Issue) throws -> [Highlight] {
        guard let id = issue.id else { return [] }
        return try store.highlights(issueID: id)
    }

    /// Every highlight on the shelf, newest first; with `publication` (as `publication(matching:)`
    /// takes it), only its issues'; with `text`, only those whose quote, note or chapter holds it.
    public func all(publication: String? = nil, containing text: String? = nil) throws -> [ListedHighlight] {
        let only = try publication.map { [try store.publication(matching: $0, includingUnsubscribed: true).id ?? -1] }
        return try store.listedHighlights(publicationIDs: only, containing: text)
    }

    /// What an export writes: `issue`'s highlights (every issue's without it; with
    /// `publication`, as `all` takes it, only its issues') grouped by issue, the issue with
    /// the newest highlight first, each issue's in reading order.
    public func forExport(issue: Issue? = nil, publication: String? = nil) throws -> [ListedHighlight] {
        let all = try self.all(publication: publication)
            .filter { issue == nil || $0.highlight.issueID == issue?.id }
        return HighlightExport.grouped(all).flatMap { group in
            group.sorted { ($0.highlight.position, $0.highlight.textOffset) < ($1.highlight.position, $1.highlight.textOffset) }
        }
    }

    /// Where `highlight` is in `text`, its resource's text as `TextQuoteSelector` describes
    /// it, or `.gone` when its words are no longer there (or there twice, undecidably).
    public func resolve(_ highlight: Highlight, in text: String) -> TextQuoteSelector.Resolution {
        highlight.quote.resolve(in: text)
    }

    private func change(_ id: String, _ edit: (inout Highlight) -> Void) throws -> Highlight {
        let now = clock.now()
        guard let changed = try store.updateHighlight(id: id, { edit(&$0); $0.modified = now }) else {
            throw HighlightError.noSuchHighlight(id)
        }
        return changed
    }

    /// A note as kept: nil when it holds nothing but spaces and line ends.
    static func note(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }
}

/// What can go wrong with a highlight, in words a user can act on.
public enum HighlightError: Error, CustomStringConvertible, Equatable {
    case noSuchHighlight(String)
    case quoteNotFound(issue: String, chapter: Int?)
    case quoteAmbiguous(issue: String, places: Int, chapters: [Int])
    case noSuchChapter(issue: String, chapter: Int, chapters: Int)
    case emptyQuote

    public var description: String {
        switch self {
        case .noSuchHighlight(let id): return "no highlight \(id) in the library (see `newsstand highlights --format json`)"
        case .quoteNotFound(let issue, let chapter):
            return "the quote is not in \(chapter.map { "chapter \($0) of " } ?? "")'\(issue)': its words must be exactly as `newsstand read ISSUE --plain` shows them, within one paragraph"
        case .quoteAmbiguous(let issue, let places, let chapters):
            let list = chapters.map(String.init).joined(separator: ", ")
            return "the quote is in \(places) places of '\(issue)' (chapter\(chapters.count == 1 ? "" : "s") \(list)): quote more words\(chapters.count > 1 ? " or give --chapter N" : "")"
        case .noSuchChapter(let issue, let chapter, let chapters):
            return "'\(issue)' has no chapter \(chapter): its text is in \(chapters) chapter\(chapters == 1 ? "" : "s") (1-\(chapters))"
        case .emptyQuote: return "the quote is empty: give the words to highlight"
        }
    }
}
