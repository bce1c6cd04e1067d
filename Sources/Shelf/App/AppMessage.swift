import Feeds
import Foundation
import NewsstandKit
import Terminal

extension ShelfApp {
    /// What happened: input, the library as read, and the results of effects.
    enum Message {
        case key(Key)
        case mouse(MouseButton, x: Int, y: Int)
        case resize(width: Int, height: Int)
        /// `newsstand read ISSUE`: open it in the reader, its store behind it.
        case startReading(Issue)
        /// The library changed (this process wrote, or the change token moved): read it again.
        case libraryChanged
        /// What the run loop read for the screens.
        case libraryRead(LibraryRead)
        /// A cover finished rendering: only the picture changes.
        case coverReady
        /// `done` of the `of` feeds of a refresh of several have ended.
        case refreshing(done: Int, of: Int)
        case refreshed(added: Int, failures: [String])
        case effectFailed(String)
        /// The user's `x` … `y` stopped this issue's download.
        case downloadCancelled(Issue)
        /// The user's `x` … `y` removed this issue's content.
        case contentRemoved(Issue)
        /// A push alert no shelf has shown yet.
        case alert(String)
        /// Marked opened and its content still there: the reader may open it.
        case issueOpened(Issue)
        /// Removed (to save space) between the tap and the open.
        case issueGone(Issue)
        case readerOpened(ReaderAdapter)
        /// What the reader I/O queue read for the open reader (`ReaderEffects`).
        case reader(ReaderResult)
        /// The issue is an encrypted PDF: ask for its password (again, when `wrong`).
        case readerNeedsPassword(Issue, wrong: Bool)
        /// The program is about to end: the reader keeps its place.
        case quitting
        /// The kept catalogs, as read.
        case catalogsRead([Catalog])
        /// A catalog page arrived (in place of the one shown when `replacing`: another page of it).
        case catalogPageLoaded(CatalogPage, replacing: Bool)
        case catalogFailed(String)
        /// Subscribed to a catalog's acquisition feed: what to say.
        case catalogSubscribed(String)
        /// A book from a catalog is now this issue: download it.
        case bookTaken(Issue)
        /// The server wants a user name and password (again, when `wrong`) for `retry`.
        case catalogNeedsSignIn(host: String, server: String, wrong: Bool, retry: Effect)
        /// The credentials typed are kept: do `retry` again with them.
        case signedIn(retry: Effect)
        /// What a search of every issue found (`Effect.searchLibrary`).
        case searchFound(SearchScreen.Found)
        /// Every highlight on the shelf, as the highlights screen's filter asked (`Effect.listHighlights`).
        case highlightsListed(HighlightsScreen.Listed)
        /// `$EDITOR` ended with this note for a highlight of reader `session`'s issue.
        case noteEdited(Highlight, String?, issueID: Int64, session: Int)
    }

    /// What the run loop read from the library (outside `update`): the shelf, the open
    /// store's issues, and how the downloads it watched ended.
    struct LibraryRead {
        var summaries: [PublicationSummary]?
        /// The store's issues and whose they are.
        var store: (publicationID: Int64, tiles: [IssueTile])?
        /// Issues with a download queued or running now.
        var pendingDownloads: Set<Int64>?
        /// The watched issues whose download is no longer pending, as they are now.
        var finishedDownloads: [Issue] = []
        var error: String?
    }

    /// What must be done, as values: `update` returns them, the app performs them (the
    /// library's writes and refreshes on the effect runner, reads for the screen in the run loop).
    indirect enum Effect: Equatable, Sendable {
        case enqueue(issueID: Int64)
        case startAgent
        case setPinned(issueID: Int64, Bool)
        /// Marks the issue opened (unless the library is read-only) and checks its content is there.
        case markOpened(Issue)
        case evictContent(issueID: Int64)
        /// Stops a queued or running download: its bytes go, the issue is not downloaded again.
        case cancelDownload(issueID: Int64)
        /// Refreshes these publications' feeds (one, or all of them).
        case refresh([Publication])
        case saveReadingPlace(issueID: Int64, Locator)
        /// Keeps the reader's text width (a preference, not a place).
        case saveTextWidth(Int)
        /// Keeps whether a publication's store shows a list or tiles (a preference).
        case saveStoreView(publicationID: Int64, asList: Bool)
        /// Keeps that the advice pictures need (tmux's passthrough) was given: it is said once.
        case keepPictureAdviceGiven
        /// Keeps a PDF issue's view (pages or text) for the next time it is opened.
        case saveReaderView(issueID: Int64, ReaderView)
        /// Keeps whether an issue's pages are fitted to the width, for the next time it is opened.
        case saveReaderFitWidth(issueID: Int64, Bool)
        /// Takes the newest push alert not shown yet.
        case takeAlert
        /// Reads the shelf and the open store for the screens (in the run loop).
        case readLibrary
        /// Reads the open store's issues only (opening a store changes nothing on the shelf).
        case readStore
        /// Searches every issue for the search screen, on the reads queue; `again`: the
        /// same search after the library changed.
        case searchLibrary(SearchQuery, serial: Int, again: Bool = false)
        /// Lists every highlight on the shelf for the highlights screen, on the reads queue.
        case listHighlights(publication: String?, containing: String?, serial: Int)
        /// Deletes a highlight from the highlights screen (a tombstone stays, for sync).
        case deleteHighlight(id: String)
        /// Opens the issue's content in the reader (in the run loop), with the password the
        /// user typed for its PDF, if asked.
        case openReader(Issue, password: DocumentPassword? = nil)
        /// Reads for the open reader, on the reader I/O queue (`ReaderEffects`).
        case reader(ReaderRequest)
        /// Opens a link out of the issue in the browser (`ExternalLinks.open`), at once.
        case openLink(String)
        /// Puts text on the terminal's clipboard (OSC 52), written after the next frame.
        case copyToClipboard(String)
        /// Ctrl-Z: hands the terminal back to the shell.
        case suspend
        /// Makes or changes a highlight of the issue open in reader `session`, which is sent
        /// the issue's highlights afterwards.
        case changeHighlight(HighlightEdit, issueID: Int64, session: Int)
        /// Looks a word up for reader `session` (`sdcv`, else `dict`), off the run loop.
        case define(String, session: Int)
        /// Hands the terminal to `$EDITOR` on the highlight's note (in the run loop, between frames).
        case editNote(Highlight, issueID: Int64, session: Int)
        /// Syncs the place of the issue open in reader `session` with the servers, after
        /// the writes asked before it and never on the writes queue itself (`ReaderPlaceSync`);
        /// the reader is sent what came of it unless `leaving`.
        case syncPlace(issueID: Int64, session: Int, leaving: Bool)
        /// Takes (Enter) or declines (Esc) the place another reader offered for the issue.
        case answerPlaceOffer(issueID: Int64, take: Bool)
        /// The catalog screen's work (`EffectRunner+Catalogs`): read the kept catalogs, fetch
        /// a page or a search, keep or forget a catalog, subscribe to a page, take a book,
        /// fetch the covers of a page's books.
        case readCatalogs
        case loadCatalogPage(URL, replacing: Bool)
        case searchCatalog(CatalogPage, terms: String)
        case addCatalog(URL)
        case removeCatalog(Catalog)
        case subscribeCatalogFeed(URL, title: String)
        case takeBook(CatalogBook)
        /// Opens a book's OPDS-PSE stream in the reader (in the run loop), nothing taken;
        /// leaving it closes the stream, whose pages go from the cache.
        case readStreamed(CatalogBook)
        case closeStreamedComic(StreamedComic)
        case fetchCatalogCovers([URL])
        /// Keeps the user's credentials for `host` (never in the library), then does `retry`.
        case signIn(host: String, user: String, password: String, retry: Effect)
    }
}
