import Foundation
import IssueArchive
import NewsstandKit
import Terminal
import TextLayout

/// Makes the pager an issue's content calls for, in the view asked for: a comic's pages, a
/// PDF's pages or its pages' words, an issue's articles. The reader makes a new one when a
/// PDF's view changes.
struct ReaderPagers {
    let source: ReaderSource
    let theme: Theme
    /// The layouts of this reader's articles, memoised outside the model.
    let layouts = ArticleLayouts()

    /// The views the content has: pages or text for a PDF; nil when it has one.
    func view(preferring kept: ReaderView?) -> ReaderView? { source.isDocument ? kept ?? .pages : nil }

    /// Comics and a PDF's pages view turn pages; everything else reads as text. `articles`:
    /// what the last pager had read, so a switch of view reads nothing again.
    func make(_ view: ReaderView?, frame: ReaderFrame, at start: Locator?, textWidth: Int?,
              articles: [Int: LoadedArticle]) -> any ReaderPager {
        let content = source.content
        var made: any ReaderPager
        if source.stream != nil || content.format == .cbz || view == .pages {
            made = PagePager(pages: source.pages, rightToLeft: source.stream == nil && content.rightToLeft, folder: source.folder,
                             theme: theme, at: start, isDocument: source.isDocument, isStreamed: source.stream != nil)
        } else {
            made = TextPager(content: content, theme: theme, layouts: layouts, textWidth: textWidth,
                             weights: source.weights, isDocument: source.isDocument, articles: articles, at: start)
        }
        made.resize(to: frame)
        return made
    }
}
