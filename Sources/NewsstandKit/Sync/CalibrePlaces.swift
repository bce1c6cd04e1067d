import Foundation
import IssueArchive
import Synchronization

/// calibre's content server as a place server. A book is known by the acquisition link it
/// was taken from (`CalibreBook`), or, for a file of other origin (the user's own EPUB or
/// PDF), by an identifier it shares with a book of the server (`CalibreBookFinder`). calibre
/// keeps one place per reader (`device`) and user, an EPUB CFI and the share read, dated by
/// the server: the newest is the server's place.
/// Ours goes as calibre's viewer writes its own: `epubcfi(/N)` names the spine item
/// (N = 2 × (index + 1)), and the share through the whole book is `pos_frac`. A PDF or a
/// comic has no spine: its page takes the spine step's place, and the share is the page's.
struct CalibrePlaces: PlaceServer {
    var server: CalibreContentServer
    var target: SyncTarget
    var contentDirectory: @Sendable (Issue) -> URL
    /// Highlights merged with calibre's as their books' places are read ahead.
    var highlights: CalibreHighlights
    var readAhead = CalibreReadAhead()
    /// Books found for files of other origin in this sync (`findBooks`).
    var found = CalibreFoundBooks()
    /// Books asked for in one request when read ahead (about 1 KB of path).
    static let booksPerRequest = 100

    /// What calibre is told this reader is: the device name and the start of its id, so two
    /// libraries on one computer are two readers.
    var device: String { Self.device(of: target) }

    static func device(of target: SyncTarget) -> String { "\(target.device) \(target.deviceID.prefix(8))" }

    func document(of issue: Issue) -> String? {
        (taken(issue) ?? issue.id.flatMap(found.book(of:)))?.document
    }

    /// The book the issue was taken from, when it came from this server's catalog.
    private func taken(_ issue: Issue) -> CalibreBook? {
        issue.contentURL.flatMap(URL.init(string:)).flatMap { CalibreBook(acquisition: $0, on: target.url) }
    }

    /// Asks the server which of its books the issues of other origin not yet named are, by
    /// the identifiers their content gives (an EPUB's package, a PDF's XMP, read as installed
    /// the first time and kept: a PDF's are the worker's to read).
    func findBooks(_ issues: [(Issue, SyncPlaceRow)]) throws {
        let unnamed = issues.filter { issue, row in
            row.document == nil && issue.id != nil && issue.status == .available && Self.format(of: issue) != nil && taken(issue) == nil
        }.map(\.0)
        let kept = try store.contentIdentifiers(of: unnamed.compactMap(\.id))
        let read = Mutex<[Int64: [BookIdentifier]]>([:])
        let wanted = Mutex<[Int64: CalibreBookFinder.Wanted]>([:])
        DispatchQueue.concurrentPerform(iterations: unnamed.count) { index in
            guard let id = unnamed[index].id else { return }
            let given: [BookIdentifier]
            if let known = kept[id] {
                given = known
            } else {
                guard let found = IssueFormats.shared.identifiers(directory: contentDirectory(unnamed[index])) else { return }
                given = found
                read.withLock { $0[id] = given }
            }
            let identifiers = CalibreIdentifiers(given)
            if !identifiers.isEmpty, let format = Self.format(of: unnamed[index]) {
                wanted.withLock { $0[id] = CalibreBookFinder.Wanted(format: format, identifiers: identifiers) }
            }
        }
        try store.recordContentIdentifiers(read.withLock { $0 })
        do {
            found.keep(try CalibreBookFinder(server: server).books(for: wanted.withLock { $0 }))
        } catch SyncError.server {
            // The server answered but would not look (an old calibre): the files stay unnamed,
            // and the books taken from its catalog still sync.
        }
    }

    /// The library (the one its highlights merge into).
    private var store: LibraryStore { highlights.store }

    /// calibre's name of the issue's format, by the type it was offered as or its file's name,
    /// when it is one that says which book it is: "EPUB" or "PDF". (A comic's folder is not
    /// listed to find out.)
    static func format(of issue: Issue) -> String? {
        let type = issue.contentType?.lowercased() ?? ""
        let fileExtension = issue.contentURL.flatMap(URL.init(string:))?.pathExtension.lowercased()
        if type.hasPrefix("application/epub") || fileExtension == "epub" { return "EPUB" }
        if type.hasPrefix("application/pdf") || fileExtension == "pdf" { return "PDF" }
        return nil
    }

    func pull(document: String) throws -> ServerPlace? {
        guard let book = CalibreBook(document: document) else { return nil }
        let positions = try (readAhead.take(document) ?? server.annotations(of: book)).positions
        guard let newest = positions.max(by: { $0.epoch < $1.epoch }) else { return nil }
        return ServerPlace(locator: Self.locator(from: newest, paged: Self.isPaged(book.format)),
                           stamp: Int64((newest.epoch * 1000).rounded()), device: newest.device, fromThisReader: newest.device == device)
    }

    func push(_ locator: Locator, of issue: Issue, document: String) throws -> Int64? {
        guard let book = CalibreBook(document: document) else { throw SyncError.invalid("\(document) is not a book of calibre's content server") }
        let spine = locator.page ?? locator.resourceIndex
            ?? (locator.resource.isEmpty ? nil : EPUBDocumentText(book: contentDirectory(issue), document: locator.resource)?.spineIndex)
        try server.setPosition(of: book, device: device, cfi: Self.cfi(spineIndex: spine ?? 0),
                               fraction: (locator.totalProgression * 10_000).rounded() / 10_000)
        return nil
    }

    /// Finds the books of files of other origin, then reads the places of every issue's book
    /// ahead, a hundred books a request, several requests at once, and merges each book's
    /// highlights with calibre's on the way.
    func prepare(_ issues: [(Issue, SyncPlaceRow)], parallel: Int) throws {
        try findBooks(issues)
        let books = issues.compactMap { pair in ((pair.1.document ?? document(of: pair.0)).flatMap(CalibreBook.init(document:))).map { (pair.0, $0) } }
        let batches = Dictionary(grouping: books, by: \.1.library).values.flatMap { same in
            same.batches(of: Self.booksPerRequest)
        }
        _ = try batches.concurrentFlatMap { batch -> [Void] in
            let found = try server.annotations(of: batch.map(\.1))
            for (issue, book) in batch {
                try highlights.merge(found[book.document]?.highlights ?? [], into: issue, book: book)
            }
            readAhead.keep(found, asked: batch.map(\.1))
            return []
        }
    }

    /// calibre's viewer reads EPUB (and what it converts); these have pages, not a spine.
    static func isPaged(_ format: String) -> Bool { ["PDF", "CBZ", "CBR", "CB7", "CBC"].contains(format.uppercased()) }

    /// `epubcfi(/4)`: the start of the second spine item (or page).
    static func cfi(spineIndex: Int) -> String { "epubcfi(/\(2 * (max(0, spineIndex) + 1)))" }

    /// The spine item (or page) a calibre CFI starts with: `epubcfi(/6/4/2:10)` → 2.
    static func spineIndex(of cfi: String?) -> Int? {
        guard let cfi, cfi.hasPrefix("epubcfi(/") else { return nil }
        let step = cfi.dropFirst("epubcfi(/".count).prefix { $0.isNumber }
        guard let number = Int(step), number >= 2 else { return nil }
        return number / 2 - 1
    }

    /// A place read from calibre, dated by the server: its spine item (or page) as an index
    /// into the reading order, named when the issue is opened, and the share always.
    static func locator(from position: CalibreContentServer.Position, paged: Bool) -> Locator {
        let updated = Date(timeIntervalSince1970: position.epoch)
        let share = position.pos_frac.isFinite ? max(0, min(1, position.pos_frac)) : 0
        guard let index = spineIndex(of: position.cfi) else {
            return Locator(resource: "", progression: 0, totalProgression: share, updated: updated)
        }
        let legacy = paged ? "{\"article\":\(index),\"page\":\(index)}" : "{\"article\":\(index)}"
        return Locator(legacyPosition: legacy, progress: share, updated: updated)
            ?? Locator(resource: "", progression: 0, totalProgression: share, updated: updated)
    }
}

/// The annotations of many books read ahead of the sync's workers (`CalibrePlaces.prepare`),
/// each taken once by its book's `pull`.
final class CalibreReadAhead: Sendable {
    private let books = Mutex<[String: CalibreContentServer.Annotations]>([:])

    func keep(_ found: [String: CalibreContentServer.Annotations], asked: [CalibreBook]) {
        books.withLock { books in
            for book in asked { books[book.document] = found[book.document] ?? CalibreContentServer.Annotations(positions: [], highlights: []) }
        }
    }

    func take(_ document: String) -> CalibreContentServer.Annotations? {
        books.withLock { $0.removeValue(forKey: document) }
    }
}
