import Foundation

/// A passage a reader marked in an issue, with a colour and maybe a note. It is anchored
/// three ways, so it finds its words again whatever changed: the reader's `Locator` (the
/// resource, how far through it), the words themselves (`quote`, a W3C `TextQuoteSelector`,
/// which decides) and, in an EPUB, an EPUB CFI (what calibre and other readers name a place
/// by). A deleted highlight stays as a tombstone (`deleted`) for sync and is never listed.
public struct Highlight: Codable, Sendable, Equatable, Identifiable {
    /// A UUID, the same in every copy of the library it is synced to.
    public var id: String
    /// The issue (`Issue.id`).
    public var issueID: Int64
    /// Where the reader was: the resource (its `resource`) and how far through it.
    public var locator: Locator
    /// The resource's index in the issue's reading order, and the quote's UTF-8 offset in
    /// the resource's text: the order highlights are listed in, nothing more.
    public var position: Int
    public var textOffset: Int
    /// The words, with some before and after.
    public var quote: TextQuoteSelector
    /// An EPUB's highlight in EPUB CFI, a range (`epubcfi(/6/4[ch1]!/4/2,/1:10,/1:24)`); nil
    /// for other content.
    public var cfi: String?
    public var color: Color
    /// The reader's note, several lines allowed; nil when there is none.
    public var note: String?
    /// The chapter or article the passage is in, as its title (for exports).
    public var chapter: String?
    public var created: Date
    public var modified: Date
    /// A tombstone: deleted, kept so another copy of the library learns of it.
    public var deleted: Bool

    /// A highlight's look. `underline` is for terminals of 8 colours or none.
    public enum Color: String, Codable, Sendable, CaseIterable {
        case yellow, green, blue, pink, underline
    }

    public init(id: String = UUID().uuidString, issueID: Int64, locator: Locator, position: Int, textOffset: Int,
                quote: TextQuoteSelector, cfi: String? = nil, color: Color = .yellow, note: String? = nil,
                chapter: String? = nil, created: Date, modified: Date? = nil, deleted: Bool = false) {
        self.id = id
        self.issueID = issueID
        self.locator = locator
        self.position = position
        self.textOffset = textOffset
        self.quote = quote
        self.cfi = cfi
        self.color = color
        self.note = note
        self.chapter = chapter
        self.created = created
        self.modified = modified ?? created
        self.deleted = deleted
    }

    /// The resource the passage is in.
    public var resource: String { locator.resource }
}

/// What a new highlight is made from: the selection in a resource's text (see
/// `TextQuoteSelector` for which text) and where it is.
public struct HighlightDraft: Sendable {
    public var issueID: Int64
    public var locator: Locator
    /// The resource's index in the issue's reading order.
    public var position: Int
    public var quote: TextQuoteSelector
    public var textOffset: Int
    public var cfi: String?
    public var color: Highlight.Color
    public var note: String?
    public var chapter: String?

    /// The selection `range` of `text` (the resource's text) made into a draft; nil when
    /// the range is empty.
    public init?(issueID: Int64, locator: Locator, position: Int, range: Range<String.Index>, in text: String,
                 cfi: String? = nil, color: Highlight.Color = .yellow, note: String? = nil, chapter: String? = nil) {
        guard let quote = TextQuoteSelector(range, in: text) else { return nil }
        self.issueID = issueID
        self.locator = locator
        self.position = position
        self.quote = quote
        textOffset = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
        self.cfi = cfi
        self.color = color
        self.note = note
        self.chapter = chapter
    }
}

/// A highlight as the list of every highlight shows it: with its issue and publication.
public struct ListedHighlight: Sendable, Equatable {
    public var highlight: Highlight
    /// The issue it is in, read with it: Enter opens it.
    public var issue: Issue
    public var publicationTitle: String?

    public init(highlight: Highlight, issue: Issue, publicationTitle: String?) {
        (self.highlight, self.issue, self.publicationTitle) = (highlight, issue, publicationTitle)
    }

    public var issueName: String { issue.name }
    /// The issue's title as the shelf shows it (`Issue.shownTitle`).
    public var issueTitle: String { issue.shownTitle }
    public var issueDate: Date { issue.date }
    public var publicationID: Int64? { issue.publicationId }
}
