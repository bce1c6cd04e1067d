import ArgumentParser
import Foundation
import IssueArchive
import NewsstandKit

/// `newsstand inspect article FILE|URL [--json|--text]`: what the full-text extractor
/// finds on an article's page, without touching the library.
struct InspectArticle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "article",
        abstract: "Show the title, byline, date, lead picture and main text the extractor finds on an article's page.")

    @Argument(help: "A saved web page, a file:// URL or an http(s) URL.")
    var source: String

    @Flag(help: "Print what was found as JSON.")
    var json = false

    @Flag(help: "Print only the main text.")
    var text = false

    func run() throws {
        let url = try FeedLocation.url(from: source)
        let page = try ArticlePages.fetch(url)
        let article: ExtractedArticle
        do { article = try ArticleExtraction.extract(html: page.html, url: page.url) } catch {
            throw CommandFailure("\(error)")
        }
        if json {
            print(try ArticleReport.json(article))
        } else if text {
            print(article.text)
        } else {
            print(ArticleReport.text(article))
        }
    }
}
