import Foundation
import IssueArchive

/// Brings full text into an edition's articles: an article whose feed gives only a summary,
/// or may (`ArticleCompleteness`), has its page fetched (a few at once, each within
/// `ArticlePageLimits`) and its main text extracted; a page that fails, is too slow, or is
/// not the same article longer leaves the feed's text as it was.
struct EditionFullText {
    let pages: ArticlePages
    /// Whether articles may link to local pages (only those of a local feed may).
    var allowsFiles = false
    /// Where fetched pages are kept for a build started again (none for a one-off).
    var workArea: EditionWorkArea?
    /// Asked before each page: true stops the build (`EditionBuildStopped`).
    var shouldStop: @Sendable () -> Bool = { false }
    /// Called with how many of the articles are ready, of how many.
    var progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }

    static let fetchesAtOnce = 6

    func complete(_ articles: [StoredArticle]) throws -> [StoredArticle] {
        let wanted = articles.indices.filter { index in
            guard let link = articles[index].link, allowsFiles || !link.isFileURL else { return false }
            return ArticleCompleteness.verdict(html: articles[index].html, hasContent: articles[index].hasContent) != .whole
        }
        // Articles that need no page are ready at once.
        let ready = articles.count - wanted.count
        progress(ready, articles.count)
        guard !wanted.isEmpty else { return articles }
        let deadline = Date().addingTimeInterval(pages.limits.totalTime)
        let lock = NSLock()
        var completed = articles
        var done = ready
        var stopped = false
        FetchPool.run(wanted.count, width: Self.fetchesAtOnce) { index in
            let go = lock.withLock { () -> Bool in
                if !stopped, shouldStop() { stopped = true }
                return !stopped
            }
            let article = go && Date() < deadline ? fullText(of: articles[wanted[index]]) : nil
            let count: Int = lock.withLock {
                if let article { completed[wanted[index]] = article }
                done += 1
                return done
            }
            if go { progress(count, articles.count) }
        }
        if stopped { throw EditionBuildStopped() }
        return completed
    }

    /// The page, from the work area when an earlier build kept it.
    private func page(_ link: URL) -> ArticlePages.Page? {
        if !link.isFileURL, let kept = workArea?.kept(link, .page) { return ArticlePages.Page(html: String(decoding: kept, as: UTF8.self), url: link) }
        guard let page = try? pages.fetch(link) else { return nil }
        if !link.isFileURL { workArea?.keep(Data(page.html.utf8), for: link, .page) }
        return page
    }

    /// The article with its page's main text, or nil when the page gives nothing better.
    private func fullText(of article: StoredArticle) -> StoredArticle? {
        guard let link = article.link, let page = page(link),
              let extracted = try? ArticleExtraction.extract(html: page.html, url: page.url),
              ArticleCompleteness.pageIsBetter(feed: article.html, page: extracted.text,
                                               verdict: ArticleCompleteness.verdict(html: article.html, hasContent: article.hasContent))
        else { return nil }
        var full = article
        full.html = extracted.html
        full.baseURL = page.url
        full.author = article.author ?? extracted.byline
        if let lead = extracted.leadPicture, !full.pictures.contains(lead),
           !extracted.blocks.contains(where: { if case .picture(lead, _) = $0 { return true }; return false }) {
            full.pictures.insert(lead, at: 0)
        }
        return full
    }
}
