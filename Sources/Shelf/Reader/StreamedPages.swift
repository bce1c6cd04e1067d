import Feeds
import Foundation
import Imaging
import IssueArchive
import NewsstandKit

/// The reader's side of a comic streamed from its server (`StreamedComic`): the book as
/// content the reader opens (pages named `page-1`…, nothing installed), a page's picture
/// once it is fetched, and the one line shown while it is not.
enum StreamedPages {
    /// The book as paged content: a comic of `count` pages, no files behind them.
    static func content(of comic: StreamedComic) -> IssueContent {
        IssueContent(format: .cbz, metadata: IssueMetadata(title: comic.title),
                     readingOrder: (0..<comic.count).map { Resource(path: resource(ofPage: $0), mediaType: comic.stream.type ?? "image/jpeg") })
    }

    /// The pages, each without a picture until it arrives.
    static func pages(of comic: StreamedComic) -> [ReaderPage] {
        (0..<comic.count).map { ReaderPage(resource: resource(ofPage: $0), picture: nil, text: nil) }
    }

    static func resource(ofPage index: Int) -> String { "page-\(index + 1)" }

    /// Where the reader opens the book: the page after the last one the server says was read.
    static func start(of comic: StreamedComic, at now: Date) -> Locator {
        let page = comic.startPage
        return Locator(resource: resource(ofPage: page), progression: 0, totalProgression: 0, page: page, updated: now)
    }

    /// How the pages stand now, those on their way left out: what the reader is told.
    static func states(of comic: StreamedComic) -> [Int: StreamedComic.PageState] {
        var states: [Int: StreamedComic.PageState] = [:]
        for index in 0..<comic.count {
            let state = comic.state(ofPage: index)
            if state != .waiting { states[index] = state }
        }
        return states
    }

    /// The page's picture, once fetched (`states` as the reader was told them).
    static func picture(_ states: [Int: StreamedComic.PageState], page index: Int) -> ImageSource? {
        if case .fetched(let file)? = states[index] { return .file(file) }
        return nil
    }

    /// What stands in for a page not fetched: the wait, or why it failed (the reader turns
    /// past it as usual); nil once it is here.
    static func waitingLine(_ states: [Int: StreamedComic.PageState], page index: Int, of count: Int) -> (text: String, isError: Bool)? {
        switch states[index] ?? .waiting {
        case .fetched: return nil
        case .waiting: return ("Fetching page \(index + 1) of \(count) from the server…", false)
        case .failed(let reason): return ("Page \(index + 1) could not be fetched: \(reason)", true)
        }
    }
}
