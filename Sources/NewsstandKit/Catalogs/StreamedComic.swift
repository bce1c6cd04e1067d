import Feeds
import Foundation
import Synchronization

/// A comic read from its server page by page (OPDS-PSE 1.2), nothing kept as an issue:
/// each page is fetched through the library's HTTP access (the server's credentials go
/// with it) into a folder of the cache when the reader asks for it, the next pages are
/// fetched ahead one at a time, and a page that cannot be had says why in a line. The
/// folder is held to a budget while reading and removed by `close()`.
///
/// The server learns what was read from the pages asked for (Komga moves `pse:lastRead`
/// so, and Codex when its template asks with `bookmark=1`); OPDS-PSE has no other way to
/// tell it, so on leaving, the page read is asked for once more, after the pages fetched
/// ahead (`tellPlace`, Catalogs/StreamedComicPlace.swift).
public final class StreamedComic: Sendable {
    /// One page as the reader sees it.
    public enum PageState: Sendable, Equatable {
        /// Not here yet: asked for, or not asked for yet.
        case waiting
        /// In this file, a picture.
        case fetched(URL)
        /// Why the page cannot be shown, in a line.
        case failed(String)
    }

    public let stream: PageStream
    public let title: String
    /// What `{maxWidth}` is filled with, in pixels.
    public let maxWidth: Int
    /// Where the pages are kept while reading.
    public let folder: URL
    /// Pages fetched after the one asked for.
    public let readAhead: Int
    /// A page larger than this is refused (a scan is rarely over a few MiB).
    public let maximumPageSize: Int64
    /// The pages kept in `folder` at most; the ones farthest from the page read go first.
    public let budget: Int64
    let access: HTTPAccess
    /// Told when a page arrives or fails, on the fetching thread (the app wakes its loop).
    let onChange: @Sendable () -> Void

    static let defaultMaximumPageSize: Int64 = 32 << 20
    static let defaultBudget: Int64 = 64 << 20
    /// A page is a few hundred KiB: 20 s for the whole of it, and less than 1 KiB in 10 s is a stall.
    static let timeout: TimeInterval = 20
    static let lowSpeed = Transfer.LowSpeedLimit(minimumBytes: 1024, window: 10)

    private struct Pages {
        var states: [Int: PageState] = [:]
        /// Pages asked for and not yet started, in the order they should come.
        var queue: [Int] = []
        var fetching: Int?
        /// The page the reader shows: pages far from it are not fetched and go first.
        var current = 0
        var closed = false
        /// Bytes of each page kept in the folder.
        var sizes: [Int: Int64] = [:]
    }
    private let pages = Mutex(Pages())
    private let worker = DispatchQueue(label: "newsstand.streamed-comic")

    init(stream: PageStream, title: String, maxWidth: Int, folder: URL, access: HTTPAccess, readAhead: Int = 2,
         maximumPageSize: Int64 = StreamedComic.defaultMaximumPageSize, budget: Int64 = StreamedComic.defaultBudget,
         onChange: @escaping @Sendable () -> Void) {
        self.stream = stream
        self.title = title
        self.maxWidth = max(1, maxWidth)
        self.folder = folder
        self.access = access
        self.readAhead = max(0, readAhead)
        self.maximumPageSize = maximumPageSize
        self.budget = budget
        self.onChange = onChange
    }

    /// Pages in the book.
    public var count: Int { stream.count }

    /// The page the reader shows (from 0), as `read(page:)` was last told.
    public var currentPage: Int { pages.withLock { $0.current } }

    /// Where to start: the page after the last one the server says was read (pages from
    /// 0; `pse:lastRead` counts from 1), or the last page when all were read.
    public var startPage: Int {
        guard let last = stream.lastRead, last > 0, count > 0 else { return 0 }
        return min(last, count) - 1
    }

    /// The URL of page `index` (from 0), `{maxWidth}` filled in.
    public func url(ofPage index: Int) -> URL? { stream.url(page: index, maxWidth: maxWidth) }

    /// How page `index` stands; asks for nothing.
    public func state(ofPage index: Int) -> PageState {
        guard index >= 0, index < count else { return .failed("there is no page \(index + 1) in a book of \(count)") }
        return pages.withLock { $0.states[index] ?? .waiting }
    }

    /// The reader is on page `index`: it is fetched first if it is not here, then the
    /// `readAhead` pages after it; pages asked for earlier that are no longer near are dropped.
    public func read(page index: Int) {
        guard index >= 0, index < count else { return }
        let wanted = (index...min(count - 1, index + readAhead)).map { $0 }
        let start = pages.withLock { pages -> Bool in
            guard !pages.closed else { return false }
            pages.current = index
            pages.queue = wanted.filter { pages.states[$0] == nil && pages.fetching != $0 }
            return !pages.queue.isEmpty
        }
        if start { worker.async { self.fetchQueued() } }
    }

    /// Stops fetching and removes the pages kept.
    public func close() {
        pages.withLock { pages in
            pages.closed = true
            pages.queue = []
        }
        worker.async { try? FileManager.default.removeItem(at: self.folder) }
    }

    /// Waits until nothing is being fetched (tests, and `close` before a removal).
    public func finishFetching() { worker.sync {} }

    // MARK: Fetching

    /// Fetches the queued pages one at a time, the nearest first.
    private func fetchQueued() {
        while let index = pages.withLock({ pages -> Int? in
            guard !pages.closed, !pages.queue.isEmpty else { return nil }
            let next = pages.queue.removeFirst()
            pages.fetching = next
            return next
        }) {
            let outcome = fetch(page: index)
            let kept = pages.withLock { pages -> Bool in
                pages.fetching = nil
                guard !pages.closed else { return false }
                switch outcome {
                case .success(let (file, size)):
                    pages.states[index] = .fetched(file)
                    pages.sizes[index] = size
                case .failure(let error):
                    pages.states[index] = .failed(Self.describe(error))
                }
                return true
            }
            if !kept, case .success(let (file, _)) = outcome { try? FileManager.default.removeItem(at: file) }
            keepWithinBudget()
            onChange()
        }
    }

    private func fetch(page index: Int) -> Result<(URL, Int64), Error> {
        guard let url = url(ofPage: index) else {
            return .failure(CatalogError("the page address “\(stream.template)” does not make a URL"))
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return .failure(CatalogError("page \(index + 1) is not at an http or https address"))
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let target = folder.appendingPathComponent("page-\(index + 1)")
            let part = target.appendingPathExtension("part")
            defer { try? FileManager.default.removeItem(at: part) }
            let headers = ["Accept": stream.type.map { "\($0), image/*;q=0.8" } ?? "image/*"]
            let transfer = access.transfer(url, headers: headers, into: part, timeout: Self.timeout,
                                           maximumLength: maximumPageSize, lowSpeedLimit: Self.lowSpeed)
            let result = try TransferRunner.run(transfer, validator: nil, policy: RetryPolicy(maxAttempts: 2, baseDelay: 0.3, maxDelay: 1),
                                                progress: { _ in })
            guard result.bytes <= maximumPageSize else {
                throw CatalogError("page \(index + 1) is larger than \(ByteSize.format(maximumPageSize))")
            }
            guard Self.isPicture(result.file) else {
                throw CatalogError("the server sent page \(index + 1) as something other than a PNG, JPEG or GIF picture")
            }
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.moveItem(at: result.file, to: target)
            return .success((target, result.bytes))
        } catch {
            return .failure(error)
        }
    }

    /// PNG, JPEG or GIF by their first bytes (a login page or an error in HTML is not a page).
    static func isPicture(_ file: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 8)) ?? Data())
        return head.starts(with: [0x89, 0x50, 0x4E, 0x47]) || head.starts(with: [0xFF, 0xD8, 0xFF]) || head.starts(with: Array("GIF8".utf8))
    }

    static func describe(_ error: Error) -> String {
        if let auth = error as? HTTPAuthenticationRequired { return auth.description }
        if let transfer = error as? TransferError { return transfer.inPlainWords }
        return "\(error)"
    }

    /// Over the budget, the pages farthest from the one read are let go (and fetched again
    /// if the reader comes back to them).
    private func keepWithinBudget() {
        let dropped = pages.withLock { pages -> [URL] in
            var total = pages.sizes.values.reduce(0, +)
            guard total > budget else { return [] }
            var files: [URL] = []
            let current = pages.current
            for index in pages.sizes.keys.sorted(by: { abs($0 - current) > abs($1 - current) }) where total > budget {
                guard index != current, case .fetched(let file)? = pages.states[index] else { continue }
                total -= pages.sizes[index] ?? 0
                pages.sizes[index] = nil
                pages.states[index] = nil
                files.append(file)
            }
            return files
        }
        for file in dropped { try? FileManager.default.removeItem(at: file) }
    }
}

extension CatalogBrowser {
    /// The book's pages streamed from its server into a folder of the cache of its own,
    /// `{maxWidth}` filled with `maxWidth` pixels; `onChange` is told when a page arrives.
    /// Folders an earlier run left behind (a crash, a kill) over an hour ago are removed first.
    public func streamedComic(_ stream: PageStream, title: String, maxWidth: Int,
                              onChange: @escaping @Sendable () -> Void) -> StreamedComic {
        let parent = paths.streamedPagesDirectory
        let files = FileManager.default
        for left in (try? files.contentsOfDirectory(at: parent, includingPropertiesForKeys: [.contentModificationDateKey])) ?? [] {
            let changed = (try? left.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? .distantPast
            if clock.now().timeIntervalSince(changed) > 3600 { try? files.removeItem(at: left) }
        }
        return StreamedComic(stream: stream, title: title, maxWidth: maxWidth,
                             folder: parent.appendingPathComponent(UUID().uuidString, isDirectory: true),
                             access: access, onChange: onChange)
    }
}

extension StreamedComic: Equatable {
    /// The same reading session.
    public static func == (a: StreamedComic, b: StreamedComic) -> Bool { a === b }
}

extension Paths {
    /// Pages of comics read from a server (OPDS-PSE), while they are read.
    public var streamedPagesDirectory: URL { cache.appendingPathComponent("streamed-pages", isDirectory: true) }
}
