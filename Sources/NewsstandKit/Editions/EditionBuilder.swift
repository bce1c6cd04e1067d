import Foundation
import IssueArchive

/// Builds an edition's content, the agent's "download" of it: the articles' HTML cleaned,
/// their pictures fetched into the book, sections from their first category, a contents
/// page and a generated cover, written as an EPUB 3 that the agent then installs like any
/// downloaded issue (so the reader, search, contents and places need nothing new).
/// A service: it reads the store and fetches through the HTTP access, nothing more.
struct EditionBuilder {
    let store: LibraryStore
    let access: HTTPAccess
    /// Where a build without a work area of its own keeps what it fetches meanwhile.
    let partialDirectory: URL
    let clock: WallClock
    var limits = EditionPictureLimits()
    /// For publications set to full text: the articles' own pages.
    var pageLimits = ArticlePageLimits()
    var calendar = Calendar.current
    /// Where what the build fetches is kept, so a build started again fetches none of it
    /// twice (the agent's, beside the download's `.part`); nil: a folder of its own, removed
    /// when the build ends.
    var workArea: EditionWorkArea?
    /// Asked before each fetch: true stops the build (`EditionBuildStopped`), its work area kept.
    var shouldStop: @Sendable () -> Bool = { false }
    /// How far the build is, as it goes (from the fetching threads too).
    var progress: @Sendable (EditionBuildProgress) -> Void = { _ in }

    /// The section of articles without a category.
    static let generalSection = "News"

    /// Writes the edition `issue` as an EPUB at `file` (whole or not at all).
    func build(_ issue: Issue, into file: URL) throws {
        var articles = try store.articles(ofEdition: issue.id)
        guard !articles.isEmpty else {
            throw DownloadError(message: "edition '\(issue.title)' has no articles left to build it from")
        }
        let ownWork = workArea == nil
        let work = workArea ?? EditionWorkArea(directory: partialDirectory
            .appendingPathComponent(".edition-\(issue.id ?? 0)-\(UUID().uuidString)"))
        defer { if ownWork { work.remove() } }
        let tracker = ProgressTracker(EditionBuildProgress(articles: 0, articlesTotal: articles.count), report: progress)
        let publication = try issue.publicationId.flatMap { try store.publication(id: $0) }
        if let publication, try store.fullText(publicationID: publication.id) {
            let local = URL(string: publication.feedURL)?.isFileURL == true
            articles = try EditionFullText(pages: ArticlePages(access: access, limits: pageLimits), allowsFiles: local,
                                           workArea: work, shouldStop: shouldStop,
                                           progress: { done, _ in tracker.update { $0.articles = done } }).complete(articles)
        }
        tracker.update { $0.articles = $0.articlesTotal }
        let masthead = publication?.title ?? issue.title
        let cleaned = articles.map { article -> [ArticleHTML.Piece] in
            var pieces = ArticleHTML.clean(article.html ?? "", base: article.baseURL)
            // The feed's own picture leads when the text has none of it.
            if let lead = article.pictures.first, !pieces.contains(where: { if case .picture(lead, _) = $0 { return true }; return false }) {
                pieces.insert(.picture(lead, alt: ""), at: 0)
            }
            return pieces
        }
        let wanted = cleaned.flatMap { $0.compactMap { piece -> URL? in if case .picture(let url, _) = piece { return url }; return nil } }
        let fetched = try EditionPictures(access: access, limits: limits, workArea: work, shouldStop: shouldStop,
                                          progress: { done, total in tracker.update { $0.pictures = done; $0.picturesTotal = total } })
            .fetch(wanted)

        var book = EPUBWriter(identifier: "urn:newsstand:\(issue.name)", title: "\(masthead) — \(issue.title)",
                              language: Self.language(of: articles),
                              creator: masthead, date: issue.date, modified: clock.now())
        book.styleSheet = Self.style
        var paths: [URL: String] = [:]
        for url in wanted where paths[url] == nil {
            guard let picture = fetched[url] else { continue }
            let path = "images/p\(paths.count + 1).\(picture.fileExtension)"
            paths[url] = path
            book.resources.append(EPUBWriter.Resource(path: path, mediaType: picture.mediaType, data: picture.data))
        }
        // Sections in order of first appearance, articles in edition order within each.
        var sections: [(title: String, articles: [Int])] = []
        for (index, article) in articles.enumerated() {
            let section = article.categories.first ?? Self.generalSection
            if let at = sections.firstIndex(where: { $0.title == section }) { sections[at].articles.append(index) }
            else { sections.append((section, [index])) }
        }
        for section in sections {
            var entries: [EPUBWriter.ContentsEntry] = []
            for index in section.articles {
                let path = "text/a\(index + 1).xhtml"
                let body = articleBody(articles[index], section: section.title, pieces: cleaned[index], pictures: paths)
                book.documents.append(EPUBWriter.Document(path: path, xhtml: EPUBWriter.xhtml(
                    title: articles[index].title, language: articles[index].language ?? book.language, body: body, styleSheet: "../" + EPUBWriter.styleSheetPath)))
                entries.append(EPUBWriter.ContentsEntry(title: articles[index].title, path: path))
            }
            // One section: the contents list its articles; several: each section, its articles under it.
            if sections.count == 1 { book.contents = entries } else {
                book.contents.append(EPUBWriter.ContentsEntry(title: section.title, path: entries[0].path, children: entries))
            }
        }
        let leadPicture = wanted.lazy.compactMap { fetched[$0]?.data }.first
        let text = EditionCoverText(masthead: masthead, dateLine: issue.title, headline: articles[0].title, leadPicture: leadPicture)
        if let png = EditionCovers.paint(text) {
            book.coverImage = EPUBWriter.Resource(path: "images/cover.png", mediaType: "image/png", data: png)
            let page = "<section epub:type=\"cover\" class=\"cover\"><img src=\"../images/cover.png\" alt=\"\(ArticleHTML.escape(book.title))\"/></section>"
            book.front.append(EPUBWriter.Document(path: "text/cover.xhtml", xhtml: EPUBWriter.xhtml(
                title: book.title, language: book.language, body: page, styleSheet: "../" + EPUBWriter.styleSheetPath)))
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try book.write(to: file)
    }

    private func articleBody(_ article: StoredArticle, section: String, pieces: [ArticleHTML.Piece], pictures: [URL: String]) -> String {
        let e = ArticleHTML.escape
        var byline: [String] = []
        if let author = article.author { byline.append("By " + e(author)) }
        if let date = article.date { byline.append(e(formatted(date))) }
        var body = "<article>\n<header>\n<p class=\"section\">\(e(section))</p>\n<h1>\(e(article.title))</h1>\n"
        if !byline.isEmpty { body += "<p class=\"byline\">\(byline.joined(separator: " · "))</p>\n" }
        body += "</header>\n"
        var leading = true
        for piece in pieces {
            switch piece {
            case .markup(let markup):
                body += markup
            case .picture(let url, let alt):
                let image = pictures[url].map { "<img src=\"../\(e($0))\" alt=\"\(e(alt))\"/>" }
                // A picture that could not be fetched leaves its alternative text.
                let shown = image ?? (alt.isEmpty ? "" : "<span class=\"missing-picture\">\(e(alt))</span>")
                // The feed's lead picture stands alone (it is not inside the text's paragraphs).
                body += leading && !shown.isEmpty && isFeedLead(url, article) ? "<p class=\"lead-picture\">\(shown)</p>" : shown
            }
            leading = false
        }
        if let link = article.link {
            body += "\n<p class=\"source\"><a href=\"\(e(link.absoluteString))\">Read it on the web</a></p>"
        }
        return body + "\n</article>"
    }

    /// The edition's language: its articles' most common one (the lead's among equals);
    /// `und` (undetermined, BCP 47) when no feed said, rather than a guess.
    static func language(of articles: [StoredArticle]) -> String {
        var counts: [String: Int] = [:]
        for article in articles { if let language = article.language { counts[language, default: 0] += 1 } }
        let first = articles.compactMap(\.language)
        return first.max { (counts[$0]!, -first.firstIndex(of: $0)!) < (counts[$1]!, -first.firstIndex(of: $1)!) } ?? "und"
    }

    private func isFeedLead(_ url: URL, _ article: StoredArticle) -> Bool { article.pictures.first == url }

    private func formatted(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_GB")
        formatter.dateFormat = "d MMMM yyyy, HH:mm"
        return formatter.string(from: date)
    }

    static let style = """
        body { font-family: serif; margin: 0 5%; }
        .section { text-transform: uppercase; font-size: 0.8em; letter-spacing: 0.1em; }
        .byline, .source { font-style: italic; }
        .cover { text-align: center; }
        .cover img, img { max-width: 100%; }

        """
}

/// The build's progress, updated from several threads and reported as it changes.
// @unchecked: `current` is read and written only under `lock`.
private final class ProgressTracker: @unchecked Sendable {
    private let lock = NSLock()
    private var current: EditionBuildProgress
    private let report: @Sendable (EditionBuildProgress) -> Void

    init(_ start: EditionBuildProgress, report: @escaping @Sendable (EditionBuildProgress) -> Void) {
        current = start
        self.report = report
        report(start)
    }

    func update(_ change: (inout EditionBuildProgress) -> Void) {
        let now: EditionBuildProgress = lock.withLock {
            change(&current)
            return current
        }
        report(now)
    }
}
