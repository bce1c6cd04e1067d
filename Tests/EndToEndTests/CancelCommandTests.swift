import Foundation
import Testing
@testable import newsstand
@testable import NewsstandKit

/// `cancel ISSUE` stops a download under way, as the shelf's `x` does (issue #21, item 4),
/// and `download --wait` says while a download is being tried again (item 13).
@Suite(.serialized) struct CancelCommandTests {
    @Test func cancelStopsTheAgentsTransferAndThrowsAwayWhatArrived() throws {
        let sandbox = try Sandbox.downloadingSlowly("slow-issue", title: "The Slow Issue")
        let cache = sandbox.home.appendingPathComponent("cache")
        let underWay = Tmux.poll(timeout: 30) { !Self.partFiles(in: cache).isEmpty }
        #expect(underWay, "the download never got under way")

        var result = try sandbox.run("cancel", "slow-issue")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Cancelled the download of slow-issue"), "\(result.output)")
        // A cancel that did not work would end in "available", never "none": the wait can be generous.
        let stopped = Tmux.poll(timeout: 60) {
            Self.partFiles(in: cache).isEmpty && ((try? sandbox.sql("SELECT status FROM issue WHERE name = 'slow-issue'")) == "none")
        }
        let issues = try sandbox.run("issues").output
        #expect(stopped, "still downloading: \(Self.partFiles(in: cache)), \(issues)")
        #expect(try sandbox.sql("SELECT lastError IS NULL FROM issue WHERE name = 'slow-issue'") == "1")

        result = try sandbox.run("cancel", "slow-issue")
        #expect(result.status == 1)
        #expect(result.output == "newsstand: slow-issue is not downloading: nothing to cancel\n", "\(result.output)")
    }

    @Test func aRetryingDownloadSaysSoInTheProgressLine() {
        var download = AssetDownload(id: 1, identifier: "a", issueId: 1, url: "http://127.0.0.1:9/x.zip", headers: "{}",
                                     userInfo: "{}", kind: .archive, state: .active, bytesWritten: 0, bytesExpected: nil,
                                     bytesPerSecond: nil, etag: nil, lastModified: nil, attempts: 2,
                                     lastError: "connection refused", createdAt: Date(), finishedAt: nil)
        download.retryAttempt = 2
        download.retryAttempts = 6
        download.retryReason = "connection refused"
        #expect(ProgressDisplay.line(name: "x", download: download) == "x retrying (2 of 6) — connection refused  0 B")
    }

    static func partFiles(in directory: URL) -> [String] {
        let walker = FileManager.default.enumerator(atPath: directory.path)
        return (walker?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".part") }
    }
}
