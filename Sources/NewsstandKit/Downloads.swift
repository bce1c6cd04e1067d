import Foundation
import GRDB

/// The download queue's operations for people and commands: queueing an issue (or one more
/// asset of it), cancelling, removing an issue with its files. Shared by every process
/// through the store.
extension DownloadQueue {
    /// NKIssue's addAssetWithRequest: one more URL to fetch for an issue.
    @discardableResult
    public func addAsset(to issue: Issue, url: URL, headers: [String: String] = [:], kind: AssetDownload.Kind,
                         userInfo: [String: Any] = [:], identifier: String? = nil) throws -> AssetDownload {
        guard let issueID = issue.id else { throw LibraryError.noSuchIssue(issue.name) }
        let info = try Self.encodeUserInfo(userInfo)
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
        guard let issueID = issue.id, let current = try store.issue(id: issueID) else { throw LibraryError.noSuchIssue(issue.name) }
        if current.status == .available { return nil }
        if try store.downloads(issueID: issueID).contains(where: { $0.state == .queued || $0.state == .active }) { return nil }
        guard let text = current.contentURL, let url = URL(string: text) else {
            throw DownloadError(message: "issue '\(current.name)' has no content link in its feed")
        }
        // Old failed or cancelled attempts make room for the new one.
        try store.removeEndedDownloads(issueID: issueID)
        var info: [String: Any] = ["contentType": current.contentType ?? ""]
        if try readsInPlace(current) { info["inPlace"] = true }
        return try addAsset(to: current, url: url, kind: .archive, userInfo: info)
    }

    /// Whether the agent installs an issue straight from its file where it is.
    func readsInPlace(_ issue: Issue) throws -> Bool {
        guard let url = issue.contentURL.flatMap(URL.init(string:)), url.isFileURL,
              let publicationID = issue.publicationId, let publication = try store.publication(id: publicationID) else { return false }
        return Library.isLocal(publication) && publication.copiesFiles != true
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

    public func setUserInfo(_ userInfo: [String: Any], for asset: AssetDownload) throws {
        guard let id = asset.id else { return }
        try store.setUserInfo(try Self.encodeUserInfo(userInfo), downloadID: id)
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

    /// Removes an issue: its downloads are cancelled, its content and partial files deleted.
    public func removeIssue(_ issue: Issue) throws {
        guard let id = issue.id else { return }
        let assets = try store.downloads(issueID: id)
        try store.removeIssue(id: id, name: issue.name)
        for asset in assets { try? FileManager.default.removeItem(at: partialFile(for: asset)) }
        try? FileManager.default.removeItem(at: contentDirectory(for: issue))
    }
}

public struct DownloadError: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
