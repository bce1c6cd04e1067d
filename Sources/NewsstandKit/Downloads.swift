import Foundation
import GRDB

/// The download queue, shared by every process through the library.
extension Library {
    /// Where an asset's bytes collect until they are complete.
    public func partialFile(for asset: AssetDownload) -> URL {
        downloadQueue.partialFile(for: asset)
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
        DownloadQueue.userInfo(of: asset)
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

    // MARK: Installing here (own files) and tests: the queue's steps

    func markActive(_ asset: AssetDownload) throws { try downloadQueue.markActive(asset) }

    func waitForSpace(_ asset: AssetDownload, needed: Int64, reason: String) throws {
        try downloadQueue.waitForSpace(asset, needed: needed, reason: reason)
    }

    func recordProgress(_ asset: AssetDownload, written: Int64, expected: Int64?, bytesPerSecond: Double?) throws {
        try downloadQueue.recordProgress(asset, written: written, expected: expected, bytesPerSecond: bytesPerSecond)
    }

    func fail(_ asset: AssetDownload, reason: String) throws { try downloadQueue.fail(asset, reason: reason) }

    /// See `DownloadQueue.finish`: the issue when its last asset finished (`onIssueCompleted` is told).
    func finish(_ asset: AssetDownload) throws -> Issue? { try downloadQueue.finish(asset) }

    /// Cancels assets whose issue is gone (the foreign key already removed their rows)
    /// and deletes partial files no asset owns. Returns how many files went.
    @discardableResult
    public func removeOrphanedPartials() throws -> Int { try downloadQueue.removeOrphanedPartials() }
}

public struct DownloadError: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
