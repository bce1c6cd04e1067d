import ArgumentParser
import Foundation
import NewsstandKit

struct Issues: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "issues", abstract: "List the library under a header: publication, id, title, date, status in words (not downloaded, downloading N %, ready, reading N %, read), NEW, and the short name every command accepts.")

    @Flag(help: "Machine-readable output.")
    var json = false

    struct Row: Encodable {
        var publication: String
        /// The stable id: what a script keeps.
        var name: String
        /// What a person types (`tidewater/4`); every command taking an issue accepts it.
        var shortName: String?
        /// The feed's title, or the content's own where the feed gave none.
        var title: String
        /// The author(s) the content names.
        var authors: [String]
        /// The cover picture on disk (the feed's, fetched, or the one inside the content).
        var cover: String?
        var date: Date
        var status: String
        /// The status in a reader's words (text output only).
        var words: String
        var unread: Bool
        var progress: Double?
        /// How far a download under way is, 0…100 (nil when not downloading or the size is unknown).
        var percent: Int?
        var bytesWritten: Int64?
        var bytesExpected: Int64?
        var lastError: String?
        /// Why a push did not download this issue by itself, and when the next may.
        var throttled: String?
        /// Why the download waits (the disk is full), and for how much room.
        var paused: String?

        /// What --json gives: every field but the text's words (scripts read `status`).
        private enum CodingKeys: String, CodingKey {
            case publication, name, shortName, title, authors, cover, date, status, unread, progress, percent,
                 bytesWritten, bytesExpected, lastError, throttled, paused
        }
    }

    func run() throws {
        let library = try Context.libraryNoticingResources()
        let publications = try library.store.publicationTitles()
        let states = try library.store.pushStates()
        let now = Date()
        let downloads = try library.store.latestDownloads()
        let issues = try library.store.issues()
        let shortNames = try library.shortNames(of: issues)
        let covers = library.covers.covers(of: issues)
        let rows = zip(issues, covers).map { issue, cover -> Row in
            let download = issue.id.flatMap { downloads[$0] }
            return Row(publication: issue.publicationId.flatMap { publications[$0] } ?? "",
                       name: issue.name, shortName: issue.id.flatMap { shortNames[$0] }, title: issue.shownTitle, authors: issue.authors,
                       cover: cover?.description, date: issue.date, status: issue.status.rawValue,
                       words: IssueStatusWords.phrase(issue, downloadPercent: issue.status == .downloading ? download?.fraction.map { Int($0 * 100) } : nil),
                       unread: issue.unread,
                       progress: issue.status == .available ? 1 : download?.fraction,
                       percent: issue.status == .downloading ? download?.fraction.map { Int($0 * 100) } : nil,
                       bytesWritten: download?.bytesWritten, bytesExpected: download?.bytesExpected,
                       lastError: issue.lastError ?? (download?.state == .failed ? download?.lastError : nil),
                       throttled: PushStatus.throttle(for: issue, states: states, now: now).map {
                           "\($0.reason); next automatic download after \(ISO8601DateFormatter().string(from: $0.nextAllowed))"
                       },
                       paused: download?.waitingForSpace.map { needed in
                           "waiting for \(ByteSize.format(needed)) of free space" + (download?.lastError.map { ": \($0)" } ?? "")
                       })
        }
        if json {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
            return
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        print(["PUBLICATION", "ID", "TITLE", "DATE", "STATUS", "NAME"].joined(separator: "\t"))
        for row in rows {
            let state = row.words + (row.unread ? " NEW" : "") + (row.lastError.map { " (failed: \($0))" } ?? "")
                + (row.throttled.map { " (throttled: \($0))" } ?? "") + (row.paused.map { " (paused: \($0))" } ?? "")
            print([row.publication, row.name, row.title, formatter.string(from: row.date), state, row.shortName ?? ""].joined(separator: "\t"))
        }
    }
}
