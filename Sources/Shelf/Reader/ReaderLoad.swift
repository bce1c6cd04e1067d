import Foundation
import Imaging
import IssueArchive
import NewsstandKit
import TextLayout

/// What the reader asks to have read for it: its `update` never reads a file, calls the
/// PDF worker or fetches; it returns one of these as an effect (`ReaderEffect.load`), the
/// app performs it on the reader I/O queue (`ReaderLoader`), and the answer comes back as a
/// `ReaderLoaded` in `ReaderMessage.loaded`.
enum ReaderLoad: Equatable, Sendable {
    /// Article `index` of the reading order (a PDF page's words); a long article comes
    /// twice, its first part, then the whole.
    case article(Int)
    /// The table of contents, with the titles of the articles it leaves out.
    case contents
    /// The nearest article after (or before) `from`, round the issue and leaving `from`
    /// out, whose text holds `query`, laid out at `width`.
    case findArticle(query: String, from: Int, forward: Bool, width: Int)
    /// The nearest page from `from` + `firstStep` steps, round the issue, whose text holds `query`.
    case findPage(query: String, from: Int, forward: Bool, firstStep: Int)
    /// Where `page`'s text holds `query` on the page, to mark it over the page's picture.
    case matchBoxes(query: String, page: Int)
    /// Where `page`'s text holds each of `quotes` (its highlights' words), to mark them over
    /// the page's picture.
    case highlightBoxes(page: Int, quotes: [TextQuoteSelector])
    /// A PDF page looked at in the pages view: its words read ahead, for `v`.
    case textAhead(Int)
    /// A streamed comic's page is shown: it (and the next ones) are fetched.
    case streamedPage(Int)
}

/// An article as read: its blocks and where its pictures are drawn from.
struct LoadedArticle {
    var document: TextDocument
    /// The article's pictures that can be drawn, by source as written, resolved inside the
    /// issue once here so that drawing never looks at the disk.
    var pictures: [String: ImageSource]
    /// False while only the first part of a long article is here: the whole follows.
    var isWhole = true
    /// The first part's share of the whole article's bytes.
    var share = 1.0
    /// Each top-level block's visible characters, for the progress figure
    /// (`ArticleText.share`): counted here, where the article is read, not on the run loop.
    var blockWeights: [Int]
    /// The article's text as highlights quote it, made here rather than on the run loop.
    var quoteText: QuoteText

    init(document: TextDocument, pictures: [String: ImageSource], isWhole: Bool = true, share: Double = 1.0) {
        self.document = document
        self.pictures = pictures
        self.isWhole = isWhole
        self.share = share
        blockWeights = ArticleText.blockWeights(of: document)
        quoteText = QuoteText(document)
    }
}

/// An article found holding a query, laid out at the width asked for.
struct FoundArticle {
    var article: Int
    var loaded: LoadedArticle
    var laidOut: ArticleText
    var matches: [SearchMatch]
}

/// What a `ReaderLoad` brought.
enum ReaderLoaded {
    case article(Int, Result<LoadedArticle, ReaderLoadError>)
    case contents([ContentsEntry])
    /// The article found for `query` (nil: none but, perhaps, the one shown).
    case articleFound(query: String, forward: Bool, FoundArticle?)
    /// The page found for `query` looking `forward` or back (nil: none), how often it holds
    /// it, and where (`matchBoxes`), so that `n` steps through its matches.
    case pageFound(query: String, forward: Bool, page: Int?, count: Int, matches: [[PageBox]])
    /// Where `page` holds `query`: each match as a box per line it spans, in fractions of the
    /// page (none: it does not, or its reader cannot say where).
    case matchBoxes(query: String, page: Int, [[PageBox]])
    /// Where `page` holds each of `quotes`: a box per line of its words, one list per quote
    /// (empty: not found on the page, or found more than once with nothing to choose).
    case highlightBoxes(page: Int, quotes: [TextQuoteSelector], [[PageBox]])
    /// A streamed comic's pages as they stand (those not here are on their way): told when
    /// the reader asks for a page and each time one arrives or fails.
    case streamedPages([Int: StreamedComic.PageState])
    /// The pictures the last frame wanted, as the painter prepared them after it.
    case pictures(PreparedPictures)
    /// The issue's highlights as the library keeps them, after one was made or changed.
    case highlights([Highlight])
    /// What the dictionary says of a word (nil: no dictionary installed, or no entry).
    case definition(word: String, Definition)
    /// What a sync of the issue's place said (`ReaderEffect.syncPlace`).
    case placeSynced(OpenIssueSync)
}

/// Why an article could not be read, in a line.
struct ReaderLoadError: Error, Equatable, CustomStringConvertible {
    var description: String
}

/// An issue as the reader opens it, read on the reader I/O queue: everything the model
/// needs from the disk before the first frame, as values.
struct ReaderSource {
    var issue: Issue
    var content: IssueContent
    /// The issue's folder, resolved: pictures inside it that are far from the page shown are let go.
    var folder: String
    /// Each article's share of the issue for the progress figure: its size in bytes (a
    /// document's pages count the same).
    var weights: [Double]
    /// The reading order points into a PDF: pages or text, searched through its text.
    var isDocument: Bool
    /// A comic's or a PDF's pages, their pictures resolved.
    var pages: [ReaderPage]
    /// Articles read already: the one the reader opens at.
    var articles: [Int: LoadedArticle] = [:]
    /// A comic read from its server page by page; nil for an installed issue.
    var stream: StreamedComic?
}

/// A `ReaderLoad` as the app's effect (`Effect.reader`): which open reader asked for it.
struct ReaderRequest: Equatable, Sendable {
    /// The reader that asked: a result for a reader closed since is dropped.
    var session: Int
    var load: ReaderLoad
}

/// What came of a `ReaderRequest`, as the app's message (`Message.reader`).
struct ReaderResult {
    var session: Int
    var loaded: ReaderLoaded
}
