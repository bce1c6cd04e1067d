import ArgumentParser
import Foundation
import NewsstandKit

struct Subscribe: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "subscribe", abstract: "Add a publication by its feed URL (file:// and paths too), or your own files: a folder of EPUBs, comics, PDFs and zips, or one such file (it joins \"My files\").")

    @Argument(help: "The feed's URL, a local feed file, a folder of your own files, or one EPUB, CBZ, PDF or zip.")
    var url: String

    @Flag(help: "Copy your own files into the library rather than read them where they are.")
    var copy = false

    @Option(help: "A server-sent-events URL that announces new issues (overrides the feed's own).")
    var push: String?

    @Flag(help: "Download new issues by themselves when a push or a poll announces them (at most one a day).")
    var autoDownload = false

    @Option(help: ArgumentHelp(EditionsOption.help))
    var editions: String?

    @Flag(inversion: .prefixedNo, help: "Read each article from its web page when the feed gives only a summary (kept for this publication).")
    var fullText: Bool?

    func run() throws {
        let library = try Context.writableLibrary(noticingResources: true)
        let feedURL = try FeedLocation.url(from: url)
        if feedURL.isFileURL, let path = OwnFiles.path(feedURL) {
            try subscribeOwnFiles(path, library: library)
            return
        }
        if copy { throw CommandFailure("--copy is for your own files (a folder, or an EPUB, CBZ, PDF or zip), not a feed") }
        var pushURL: URL?
        if let push {
            guard let parsed = URL(string: push), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "") else {
                throw CommandFailure("--push must be an http or https URL, not \(push)")
            }
            pushURL = parsed
        }
        let schedule = try EditionsOption.schedule(editions)
        let existing = try library.store.publications().first { $0.feedURL == Library.bareURL(feedURL).url.absoluteString }
        if let existing, pushURL == nil, !autoDownload, schedule == nil, fullText == nil {
            print("Already subscribed to \(existing.title) (`newsstand refresh` fetches its feed again).")
            return
        }
        do {
            let (publication, result) = try library.subscriptions.subscribe(feedURL: feedURL, pushURL: pushURL, autoDownload: autoDownload ? true : nil,
                                                              editions: schedule)
            if let fullText { try library.store.setFullText(fullText, for: publication) }
            let line = SubscribeReport.line(publication, result, library: library, alreadySubscribed: existing != nil)
            StatusLine.print(line)
        } catch {
            throw CommandFailure("cannot subscribe to \(Library.bareURL(feedURL).url.absoluteString): \(error)")
        }
    }
}

extension Subscribe {
    private func subscribeOwnFiles(_ path: URL, library: Library) throws {
        guard push == nil, !autoDownload, fullText == nil else {
            throw CommandFailure("--push, --auto-download and --full-text are for feeds, not your own files")
        }
        var budget: BudgetKept?
        do {
            let (publication, result) = try library.subscriptions.subscribe(localPath: path, copy: copy)
            let removed = result.removed.isEmpty ? "" : "; \(result.removed.count) file(s) removed"
            print("Added to \(publication.title): \(result.added.count) new issue(s)\(removed).")
            if !result.skipped.isEmpty { print("Skipped (not an EPUB, CBZ, PDF or zip): \(result.skipped.joined(separator: ", ")).") }
            for problem in result.unreadable { print("Cannot read \(problem)") }
            budget = result.budget
        } catch {
            throw CommandFailure("cannot add \(path.path): \(error)")
        }
        if let line = budget?.line { print(line) }
        if let problem = budget?.problem { throw CommandFailure(problem) }
    }
}

/// What `subscribe` says in one line: new issues and editions, or that the feed has
/// neither issue archives nor articles.
enum SubscribeReport {
    static func line(_ publication: Publication, _ result: Library.SyncResult, library: Library, alreadySubscribed: Bool) -> String {
        let start = alreadySubscribed ? "Already subscribed to \(publication.title): settings updated" : "Subscribed to \(publication.title)"
        let id = publication.id ?? -1
        let issues = (try? library.store.issues(publicationID: id)) ?? []
        if issues.isEmpty, ((try? library.store.articleCount(publicationID: id)) ?? 0) == 0 {
            return start + ", but its feed lists neither issue archives nor articles: nothing to read until it does."
        }
        if !alreadySubscribed, result.added.isEmpty { return "Subscribed to \(publication.title) again: its \(issues.count) issue(s) are back." }
        // A set: looking each added name up in the list was O(n²), 3.4 s for a 20,000-entry feed.
        let editionNames = Set(issues.lazy.filter(Library.isEdition).map(\.name))
        let editions = result.added.filter(editionNames.contains).count
        let others = result.added.count - editions
        let news = editions == 0 ? "\(others) new issue(s)"
            : others == 0 ? "\(editions) new edition(s) of its articles"
            : "\(others) new issue(s) and \(editions) new edition(s) of its articles"
        return start + ": " + news + "."
    }
}

/// Which local paths are the user's own files rather than a feed: a folder, or a file an
/// issue format reads (by its extension; a feed is XML, JSON or a property list).
enum OwnFiles {
    static func path(_ url: URL) -> URL? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue || Library.localIssueExtensions.contains(url.pathExtension.lowercased()) ? url : nil
    }
}

enum FeedLocation {
    /// A URL as given, or a local path made absolute. A URL of another scheme (`ftp://…`)
    /// is refused for its scheme, not looked for as a file.
    /// Text that begins `scheme://` is a URL even when it does not parse as one (`htp://bad
    /// url`): its scheme is judged, never looked for as a file.
    static func url(from text: String) throws -> URL {
        if let end = text.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression) {
            let scheme = text[end].dropLast(3).lowercased()
            guard ["http", "https", "file"].contains(scheme) else {
                throw CommandFailure("\(text): \(scheme):// is not supported; a feed is an http, https or file URL, or a local path")
            }
            guard let url = URL(string: text) else { throw CommandFailure("\(text) is not a valid URL") }
            return url
        }
        if let url = URL(string: text), let scheme = url.scheme, ["http", "https", "file"].contains(scheme.lowercased()) { return url }
        return URL(fileURLWithPath: text).standardizedFileURL
    }
}
