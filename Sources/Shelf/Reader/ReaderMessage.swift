import Foundation
import NewsstandKit
import Terminal

/// What the reader is told: everything that changes it arrives as one of these, in `update`.
enum ReaderMessage {
    case key(Key)
    /// The mouse wheel: lines of text, or pages.
    case scroll(Int)
    /// A left click at a cell of the window: in a text view, the selection's cursor goes
    /// to the word there.
    case click(x: Int, y: Int)
    /// The pointer dragged to a cell with the left button held (where the terminal reports
    /// it): the selection the press began grows to the word there.
    case drag(x: Int, y: Int)
    case resize(width: Int, height: Int)
    /// Work done elsewhere finished (a cover rendered): the pager settles again. What it
    /// waits for itself (articles, pictures, streamed pages) arrives as `.loaded`.
    case backgroundReady
    /// The user leaves the reader (or the program quits): the place is saved once more.
    case leave
    /// Go to a highlight's words (one opened from the shelf's list of every highlight).
    case showHighlight(Highlight)
    /// What a `ReaderEffect.load` read.
    case loaded(ReaderLoaded)
}

/// What the reader asks its owner to do; the reader itself never touches the library.
enum ReaderEffect: Equatable {
    /// Keep this place for the issue (the store's progress bar shows its total progression).
    case save(Locator)
    /// Keep a PDF issue's view (pages or text) for the next time it is opened.
    case keepView(ReaderView)
    /// Keep whether pages are fitted to the width (`w`) for the next time the issue is opened.
    case keepFitWidth(Bool)
    /// Keep the text width the user chose (a preference for every issue, not a place).
    case keepTextWidth(Int)
    /// Read this for the reader, off the main thread; the result comes back as `.loaded`.
    case load(ReaderLoad)
    /// Close the reader.
    case leave
    /// Open this link, which leads out of the issue (http, https or mailto), in the browser.
    case openLink(String)
    /// Put this link on the terminal's clipboard.
    case copyLink(String)
    /// Make or change one of the highlights; the highlights come back as
    /// `.loaded(.highlights)`.
    case highlight(HighlightEdit)
    /// Look the word up in the dictionary installed (`sdcv`, `dict`); the answer comes back
    /// as `.loaded(.definition)`.
    case define(String)
    /// Edit a highlight's note in `$EDITOR` (the terminal is handed over); the note comes
    /// back as a change to the highlight.
    case editNote(Highlight)
    /// Sync the place with the servers added (`newsstand sync add`), off the key
    /// path; what came of it comes back as `.loaded(.placeSynced)`. `leaving`: the reader
    /// closed, the place is only sent (or left waiting for a server that is down).
    case syncPlace(leaving: Bool)
    /// The offered place was taken (Enter) or declined (Esc) in the library.
    case answerOffer(take: Bool)
}

/// A line for the status bar (a search result, "no match"…), until the next key.
struct ReaderNote: Equatable {
    var text: String
    var isError = false
}
