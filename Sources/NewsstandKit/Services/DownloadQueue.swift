import Foundation
import IssueArchive
import Synchronization

/// The download queue over the store: each step of an asset from queued to finished (or
/// failed, cancelled, paused for space), the files a download keeps (its `.part`, an
/// edition's work area) and what an install records. `Library` and the `Agent` both go
/// through it; neither the agent nor this holds the `Library`.
public struct DownloadQueue: Sendable {
    let store: LibraryStore
    let paths: Paths
    let access: HTTPAccess
    let clock: WallClock
    /// Told, in this process, of each issue whose last asset was installed (`Library.onIssueCompleted`).
    let completions: IssueCompletions

    /// Where an asset's bytes collect until they are complete.
    public func partialFile(for asset: AssetDownload) -> URL {
        paths.partialDirectory.appendingPathComponent("\(asset.identifier).part")
    }

    /// The issue's content directory (inside the cache; it may not exist yet).
    public func contentDirectory(for issue: Issue) -> URL { paths.contentDirectory(for: issue) }

    func issue(id: Int64) throws -> Issue? { try store.issue(id: id) }

    /// Assets still to fetch (queued or interrupted while active), oldest first.
    public func pendingDownloads() throws -> [AssetDownload] { try store.pendingDownloads() }

    public func download(identifier: String) throws -> AssetDownload? { try store.download(identifier: identifier) }

    public static func userInfo(of asset: AssetDownload) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(asset.userInfo.utf8)) as? [String: Any]) ?? [:]
    }

    /// Whether the asset was cancelled (or its issue removed) since the agent took it up.
    func wasCancelled(_ asset: AssetDownload) -> Bool {
        guard let state = try? store.downloadState(id: asset.id) else { return (try? issue(id: asset.issueId)) == nil }
        return state == AssetDownload.State.cancelled.rawValue
    }

    /// Of the assets `identifiers` names, those cancelled or gone: their transfers must stop.
    func cancelledDownloads(among identifiers: [String]) throws -> Set<String> {
        guard !identifiers.isEmpty else { return [] }
        let wanted = try store.uncancelledDownloads(among: identifiers)
        return Set(identifiers).subtracting(wanted)
    }

    /// The agent takes the asset up; a cancelled one (cancelled before it started) is refused.
    func markActive(_ asset: AssetDownload) throws {
        let taken = try store.markActive(downloadID: asset.id)
        if !taken { throw TransferError.cancelled }
    }

    /// The transfer waits to try again: the tile and `download --wait` say so (see `AssetDownload.retry`).
    func recordRetry(_ asset: AssetDownload, _ retry: TransferRetry) throws {
        try store.recordRetry(downloadID: asset.id, retry)
    }

    /// The disk is full: the download waits, keeping its `.part` file and any installed
    /// content, until `needed` bytes are free. Its tile and `issues` show `reason`.
    func waitForSpace(_ asset: AssetDownload, needed: Int64, reason: String) throws {
        try store.waitForSpace(downloadID: asset.id, needed: needed, reason: reason)
    }

    func recordProgress(_ asset: AssetDownload, written: Int64, expected: Int64?, bytesPerSecond: Double?) throws {
        try store.recordProgress(downloadID: asset.id, written: written, expected: expected, bytesPerSecond: bytesPerSecond)
    }

    func recordBuildProgress(_ asset: AssetDownload, _ progress: EditionBuildProgress) throws {
        try store.recordBuildProgress(downloadID: asset.id, progress)
    }

    func recordValidator(_ asset: AssetDownload, etag: String?, lastModified: String?) throws {
        try store.recordValidator(downloadID: asset.id, etag: etag, lastModified: lastModified)
    }

    /// A download that will not succeed: the issue goes back to not downloaded, with why
    /// (unless it was cancelled meanwhile: a cancel is not a failure).
    func fail(_ asset: AssetDownload, reason: String) throws {
        try store.fail(asset, reason: reason)
        try? FileManager.default.removeItem(at: partialFile(for: asset))
    }

    /// Marks an asset finished; when it was the issue's last, the issue becomes available
    /// in the same transaction, and unread unless it was opened before (an issue downloaded
    /// again after eviction keeps its NEW state). Returns the issue when it completed.
    /// Throws `TransferError.cancelled` when the download was cancelled meanwhile.
    func finish(_ asset: AssetDownload) throws -> Issue? {
        let completed = try store.finish(asset, at: clock.now())
        if let completed { completions.handler?(completed) }
        return completed
    }

    /// Cancels assets whose issue is gone (the foreign key already removed their rows)
    /// and deletes partial files no asset owns. Returns how many files went.
    public func removeOrphanedPartials() throws -> Int {
        let known = try store.unfinishedDownloadIdentifiers()
        let files = (try? FileManager.default.contentsOfDirectory(at: paths.partialDirectory, includingPropertiesForKeys: nil)) ?? []
        var removed = 0
        // A `.part`, or an edition build's `.work` area.
        for file in files where ["part", "work"].contains(file.pathExtension) && !known.contains(file.deletingPathExtension().lastPathComponent) {
            try? FileManager.default.removeItem(at: file)
            removed += 1
        }
        return removed
    }

    /// Records the title, author(s) and cover `content` names (its cover path is relative to
    /// the issue's content directory). Nil values clear what an earlier install recorded.
    /// An issue of the user's own files also takes the day its content gives and the series
    /// and number its folder is ordered by, whoever installs it (here at once, or the agent).
    public func recordDetails(of content: IssueContent, for issue: Issue) throws -> Issue? {
        // A placeholder ("Microsoft Word - Document1", calibre's "Unknown") says less than the file's name.
        let metadata = content.metadata.withoutPlaceholders
        let title = metadata.title.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        let authors = metadata.creators.map { $0.replacingOccurrences(of: "\n", with: " ") }.filter { !$0.isEmpty }
        let recorded = try store.recordContentDetails(title: title, authors: authors.isEmpty ? nil : authors.joined(separator: "\n"),
                                                      cover: content.coverImage, issueID: issue.id)
        guard let publicationID = issue.publicationId, let publication = try store.publication(id: publicationID),
              Library.isLocal(publication) else { return recorded }
        try store.recordFileDetails(day: metadata.day, series: metadata.series, number: metadata.number, issueID: issue.id)
        return try store.issue(id: issue.id ?? -1)
    }

    /// Measures an installed issue's content and stores the size. Returns it.
    public func recordContentSize(of issue: Issue) throws -> Int64 {
        let size = ContentCache.measureContent(at: contentDirectory(for: issue))
        try store.recordContentSize(size, issueID: issue.id)
        return size
    }

    /// The edition builder over this queue's store and HTTP access.
    var editionBuilder: EditionBuilder {
        EditionBuilder(store: store, access: access, partialDirectory: paths.partialDirectory, clock: clock)
    }
}

/// The handler told of completed issues, set on the `Library` and called by its download
/// queue, possibly while another thread sets it.
final class IssueCompletions: Sendable {
    private let current = Mutex<(@Sendable (Issue) -> Void)?>(nil)

    var handler: (@Sendable (Issue) -> Void)? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
