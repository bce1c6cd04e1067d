import Foundation

/// The reader's highlights as the library offers them: made, changed, deleted (a tombstone
/// kept for sync), listed for an issue in reading order or all of them newest first, and
/// found again in a resource's text (`resolve`). The reader, the shelf's list and the
/// `highlight`/`highlights` commands all go through it.
public struct Highlights: Sendable {
    let store: LibraryStore
    let clock: WallClock

    /// A new highlight from `draft`, stored.
    @discardableResult
    public func add(_ draft: HighlightDraft) throws -> Highlight {
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

    public var description: String {
        switch self {
        case .noSuchHighlight(let id): return "no highlight \(id) in the library (see `newsstand highlights --format json`)"
        }
    }
}
