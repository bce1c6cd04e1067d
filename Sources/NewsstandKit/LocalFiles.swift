import Foundation
import Feeds
import GRDB
import IssueArchive

/// The user's own files as publications: a folder is one whose issues are its files (seen
/// again on every refresh), a single file joins "My files". The library records each
/// file's path as the issue's content link and the agent installs straight from it — no
/// `.part` copy; a zip-packaged book is unpacked (readers read its tree) and a single-file
/// issue is hard-linked where the file system allows — unless the publication copies files,
/// when its files are fetched like any download.
extension Library {
    /// The feed URL of the publication single files join.
    public static let myFilesFeedURL = "newsstand:my-files"
    /// File extensions a folder's issues have (the formats decide what the bytes are).
    public static let localIssueExtensions: Set<String> = ["epub", "cbz", "pdf", "zip"]

    /// Whether a publication is the user's own files rather than a feed.
    public static func isLocal(_ publication: Publication) -> Bool {
        publication.feedURL == myFilesFeedURL || folder(of: publication) != nil
    }

    /// A folder's issues in the order of their series and number, then title, each in
    /// natural order ("2" before "10"); a file of no series goes by its title. Other
    /// publications' issues stay as they are (newest first).
    static func inFolderOrder(_ issues: [Issue], _ db: Database, publicationID: Int64) throws -> [Issue] {
        guard let publication = try LibraryStore.publication(db, id: publicationID), folder(of: publication) != nil else { return issues }
        let series = try LibraryStore.seriesAndNumbers(db, publicationID: publicationID)
        func key(_ issue: Issue) -> [String] {
            let named = series[issue.id ?? -1]
            return [named?.series ?? issue.shownTitle, named?.number ?? "", issue.shownTitle]
        }
        return issues.map { ($0, key($0)) }.sorted { a, b in
            for (x, y) in zip(a.1, b.1) where x != y {
                return NaturalOrder.areInIncreasingOrder(x, y)
            }
            return (a.0.id ?? 0) < (b.0.id ?? 0)
        }.map(\.0)
    }

    /// The folder a publication reads, when it is one.
    static func folder(of publication: Publication) -> URL? {
        guard let url = URL(string: publication.feedURL), url.isFileURL, url.hasDirectoryPath else { return nil }
        return url
    }

    /// An issue of one file: named by its path, titled by its name (until its content says
    /// better), dated by when it was last changed.
    static func entry(for file: URL) throws -> FeedEntry {
        let values = try? file.resourceValues(forKeys: [.contentModificationDateKey, .fileSizeKey])
        let types = ["epub": "application/epub+zip", "cbz": "application/vnd.comicbook+zip", "pdf": "application/pdf", "zip": "application/zip"]
        return FeedEntry(name: file.absoluteString, title: file.deletingPathExtension().lastPathComponent,
                         date: values?.contentModificationDate ?? Date(timeIntervalSince1970: 0), contentURL: file,
                         contentType: types[file.pathExtension.lowercased()], contentLength: values?.fileSize.map(Int64.init))
    }
}

extension Subscriptions {
    /// Adds a folder (a publication of its own) or a file (to "My files"). `copy` makes the
    /// publication's files downloaded into the library instead of read where they are;
    /// files read where they are are installed at once (`formats` open them), ready to read.
    @discardableResult
    public func subscribe(localPath path: URL, copy: Bool = false, formats: IssueFormats = .shared) throws -> (Publication, Library.SyncResult) {
        let path = path.standardizedFileURL.resolvingSymlinksInPath()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) else {
            throw DownloadError(message: "\(path.path) does not exist")
        }
        if isDirectory.boolValue {
            let feedURL = URL(fileURLWithPath: path.path, isDirectory: true).absoluteString
            var publication = try store.publication(feedURL: feedURL)
                ?? Publication(feedURL: feedURL, title: path.lastPathComponent, addedAt: clock.now())
            publication.copiesFiles = copy
            publication.unsubscribedAt = nil
            publication = try store.save(publication)
            return (publication, try refreshLocal(publication, formats: formats))
        }
        guard Library.localIssueExtensions.contains(path.pathExtension.lowercased()) else {
            throw DownloadError(message: "\(path.lastPathComponent) is not an EPUB, CBZ, PDF or zip file")
        }
        var publication = try store.publication(feedURL: Library.myFilesFeedURL)
            ?? Publication(feedURL: Library.myFilesFeedURL, title: "My files", addedAt: clock.now())
        publication.copiesFiles = copy
        publication.unsubscribedAt = nil
        publication = try store.save(publication)
        var result = try store.sync(publication, entries: try entries(for: [path], of: publication))
        result.removed = try markRemoved(in: publication)
        result.unreadable = try installInPlace(publication, formats: formats)
        result.budget = cache.holdToBudget()
        try store.markRefreshed(publicationID: publication.id, at: clock.now())
        return (publication, result)
    }

    /// A local publication seen again: a folder's new files become issues, installed where
    /// they are (ready at once), and issues whose file is gone are named in `removed` (their
    /// row and any installed content stay).
    func refreshLocal(_ publication: Publication, formats: IssueFormats = .shared) throws -> Library.SyncResult {
        var result = Library.SyncResult(added: [], updated: 0)
        if let folder = Library.folder(of: publication) {
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
                throw DownloadError(message: "cannot read the folder \(folder.path): \(error.localizedDescription)")
            }
            let files = NaturalOrder.sorted(names.filter { !$0.hasPrefix(".") }).map { folder.appendingPathComponent($0) }
                .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            let (readable, skipped) = files.reduce(into: ([URL](), [String]())) { split, file in
                if Library.localIssueExtensions.contains(file.pathExtension.lowercased()) { split.0.append(file) } else { split.1.append(file.lastPathComponent) }
            }
            result = try store.sync(publication, entries: try entries(for: readable, of: publication))
            result.skipped = skipped
        }
        result.removed = try markRemoved(in: publication)
        result.unreadable = try installInPlace(publication, formats: formats)
        result.budget = cache.holdToBudget()
        try store.markRefreshed(publicationID: publication.id, at: clock.now())
        return result
    }

    /// The issue of one EPUB, CBZ, PDF or zip, to open it in the reader like any other: the
    /// issue of that file if the library has one (a subscribed folder's), else one that
    /// joins "My files" quietly, installed where it is. Its place is kept as any issue's.
    public func issue(readingFile path: URL, formats: IssueFormats = .shared) throws -> Issue {
        let file = path.standardizedFileURL.resolvingSymlinksInPath()
        var known = try store.issue(named: file.absoluteString)
        if known == nil {
            _ = try subscribe(localPath: file, formats: formats)
            known = try store.issue(named: file.absoluteString)
        }
        guard let known else { throw LibraryError.noSuchIssue(file.path) }
        if known.status == .available { return known }
        if let problem = try installInPlace([known], formats: formats).first { throw DownloadError(message: problem.reason) }
        return try store.issue(id: known.id ?? -1) ?? known
    }

    /// The publication's files that are read where they are and not installed yet (never
    /// one evicted to save space), installed now (`installInPlace(_:formats:)`).
    private func installInPlace(_ publication: Publication, formats: IssueFormats) throws -> [String] {
        guard let id = publication.id, publication.copiesFiles != true else { return [] }
        return try installInPlace(try store.issues(publicationID: id).filter { $0.status == .none && !$0.evicted }, formats: formats)
            .map { "\($0.file): \($0.reason)" }
    }

    /// Installs files as the agent would, but now: a PDF is linked, a book or comic
    /// unpacked, its title, authors and cover recorded. Returns the files that could not be
    /// read, each with why (their issue keeps the reason too).
    private func installInPlace(_ issues: [Issue], formats: IssueFormats) throws -> [(file: String, reason: String)] {
        var unreadable: [(file: String, reason: String)] = []
        for issue in issues {
            guard let source = issue.contentURL.flatMap(URL.init(string:)), source.isFileURL,
                  FileManager.default.fileExists(atPath: source.path), let asset = try downloads.enqueue(issue) else { continue }
            do {
                try downloads.markActive(asset)
            } catch { continue }  // an agent took it first: it installs it
            do {
                let content = try IssueInstaller.install(download: source, into: downloads.contentDirectory(for: issue), formats: formats,
                                                         keepingOtherFiles: true)
                _ = try? downloads.recordDetails(of: content, for: issue)
                if let installed = try downloads.finish(asset) { _ = try? downloads.recordContentSize(of: installed) }
            } catch {
                try? downloads.fail(asset, reason: "\(error)")
                unreadable.append((source.lastPathComponent, "\(error)"))
            }
        }
        return unreadable
    }

    /// The entries of files; one the publication knows keeps the day it was given (its own,
    /// read at install), not its modification time.
    private func entries(for files: [URL], of publication: Publication) throws -> [FeedEntry] {
        let days = Dictionary(try publication.id.map { try store.issues(publicationID: $0) }?.map { ($0.name, $0.date) } ?? [],
                              uniquingKeysWith: { first, _ in first })
        return try files.map { file in
            var entry = try Library.entry(for: file)
            entry.date = days[entry.name] ?? entry.date
            return entry
        }
    }

    /// Names the issues of `publication` whose file is gone, and says so in their error.
    private func markRemoved(in publication: Publication) throws -> [String] {
        guard let id = publication.id else { return [] }
        let gone = try store.issues(publicationID: id).filter { issue in
            guard let url = issue.contentURL.flatMap(URL.init(string:)), url.isFileURL else { return false }
            return !FileManager.default.fileExists(atPath: url.path)
        }
        try store.recordErrors(gone.map { issue in
            (issue.id, "its file was removed: \(URL(string: issue.contentURL ?? "")?.path ?? issue.name)")
        })
        return gone.map(\.name)
    }
}
