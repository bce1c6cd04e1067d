import Foundation
import GRDB

/// The download queue, shared by every process through the library.
extension Library {
    /// Where an asset's bytes collect until they are complete.
    public func partialFile(for asset: AssetDownload) -> URL {
        paths.partialDirectory.appendingPathComponent("\(asset.identifier).part")
    }

    public func downloads(issueID: Int64) throws -> [AssetDownload] {
        try store.downloads(issueID: issueID)
    }

    /// Each issue's latest download (one query, not one per issue), of one publication or all.
    public func latestDownloads(publicationID: Int64? = nil) throws -> [Int64: AssetDownload] {
        try store.latestDownloads(publicationID: publicationID)
    }

    public func download(identifier: String) throws -> AssetDownload? {
        try store.download(identifier: identifier)
    }

    /// Assets still to fetch (queued or interrupted while active), oldest first.
    public func pendingDownloads() throws -> [AssetDownload] {
        try store.pendingDownloads()
    }

    /// NKIssue's addAssetWithRequest: one more URL to fetch for an issue.
    @discardableResult
    public func addAsset(to issue: Issue, url: URL, headers: [String: String] = [:], kind: AssetDownload.Kind,
                         userInfo: [String: Any] = [:], identifier: String? = nil) throws -> AssetDownload {
        guard let issueID = issue.id else { throw LibraryError.noSuchIssue(issue.name) }
        let info = try Library.encodeUserInfo(userInfo)
        let headerData = try JSONSerialization.data(withJSONObject: headers, options: [.sortedKeys])
        let asset = AssetDownload(
            id: nil, identifier: identifier ?? UUID().uuidString.lowercased(), issueId: issueID, url: url.absoluteString,
            headers: String(decoding: headerData, as: UTF8.self), userInfo: info, kind: kind, state: .queued,
            bytesWritten: 0, bytesExpected: nil, bytesPerSecond: nil, etag: nil, lastModified: nil, attempts: 0,
            lastError: nil, createdAt: clock.now(), finishedAt: nil)
        return try store.insert(asset)
    }

    /// Queues an issue's content for download. Returns nil when it is already downloaded
    /// or already queued.
    @discardableResult
    public func enqueue(_ issue: Issue) throws -> AssetDownload? {
        guard let issueID = issue.id, let current = try self.issue(id: issueID) else { throw LibraryError.noSuchIssue(issue.name) }
        if current.status == .available { return nil }
        if try downloads(issueID: issueID).contains(where: { $0.state == .queued || $0.state == .active }) { return nil }
        guard let text = current.contentURL, let url = URL(string: text) else {
            throw DownloadError(message: "issue '\(current.name)' has no content link in its feed")
        }
        // Old failed or cancelled attempts make room for the new one.
        try store.removeEndedDownloads(issueID: issueID)
        var info: [String: Any] = ["contentType": current.contentType ?? ""]
        if try readsInPlace(current) { info["inPlace"] = true }
        return try addAsset(to: current, url: url, kind: .archive, userInfo: info)
    }

    public static func encodeUserInfo(_ userInfo: [String: Any]) throws -> String {
        for (key, value) in userInfo where !JSONSerialization.isValidJSONObject(["v": value]) {
            throw LibraryError.userInfoNotStorable(key: key)
        }
        guard JSONSerialization.isValidJSONObject(userInfo),
              let data = try? JSONSerialization.data(withJSONObject: userInfo, options: [.sortedKeys]) else {
            throw LibraryError.userInfoNotStorable(key: userInfo.keys.sorted().first ?? "")
        }
        return String(decoding: data, as: UTF8.self)
    }

    public func userInfo(of asset: AssetDownload) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(asset.userInfo.utf8)) as? [String: Any]) ?? [:]
    }

    public func setUserInfo(_ userInfo: [String: Any], for asset: AssetDownload) throws {
        guard let id = asset.id else { return }
        let text = try Library.encodeUserInfo(userInfo)
        try store.setUserInfo(text, downloadID: id)
    }

    /// Stops an issue's download, from any process (the shelf's `x`, `newsstand cancel`):
    /// its queued and running assets become `cancelled` (never retried or resumed) and the
    /// issue goes back to not downloaded, with no error. Their `.part` files are deleted
    /// here; a running agent notices within a moment (it polls the library), stops the
    /// transfer and removes anything it wrote meanwhile. Returns false when nothing of the
    /// issue was downloading (a downloaded issue stays as it is).
    @discardableResult
    public func cancelDownload(_ issue: Issue) throws -> Bool {
        guard let issueID = issue.id else { throw LibraryError.noSuchIssue(issue.name) }
        let cancelled = try store.cancelDownloads(issueID: issueID)
        // An agent still writing keeps its open file (unlinked) until it notices and stops.
        for asset in cancelled { try? FileManager.default.removeItem(at: partialFile(for: asset)) }
        return !cancelled.isEmpty
    }

    // MARK: The agent's side

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
        if let completed { onIssueCompleted?(completed) }
        return completed
    }

    /// Cancels assets whose issue is gone (the foreign key already removed their rows)
    /// and deletes partial files no asset owns. Returns how many files went.
    @discardableResult
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
}

public struct DownloadError: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
