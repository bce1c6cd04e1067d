import Foundation
import IssueArchive
import NewsstandKit
import Terminal
import TextLayout

/// Makes the pager an issue's content calls for, in the view asked for: a comic's pages, a
/// PDF's pages or its pages' words, an issue's articles. The reader makes a new one when a
/// PDF's view changes.
struct ReaderPagers {
    let content: IssueContent
    let root: URL
    let painter: CoverPainter
    let theme: Theme
    let preferences: ReaderPreferences
    /// Where a PDF page's words come from.
    let texts: DocumentTexts
    /// A PDF issue's pages as plain text, read when a search first needs them; nil for
    /// issues that are not documents.
    let pageTexts: DocumentPageTexts?
    /// A comic read from its server page by page; nil for an installed issue.
    var stream: StreamedComic? = nil

    /// The pagers of `content`; a PDF's pages' texts are read for search through `texts`.
    static func of(_ content: IssueContent, root: URL, painter: CoverPainter, theme: Theme, preferences: ReaderPreferences,
                   texts: DocumentTexts) -> ReaderPagers {
        let isDocument = content.readingOrder.contains { PagePath($0.path) != nil }
        return ReaderPagers(content: content, root: root, painter: painter, theme: theme, preferences: preferences, texts: texts,
                            pageTexts: isDocument ? DocumentPageTexts(readingOrder: content.readingOrder, root: root, texts: texts) : nil)
    }

    /// The views the content has: pages or text for a PDF; nil when it has one.
    func view(preferring kept: ReaderView?) -> ReaderView? { pageTexts == nil ? nil : kept ?? .pages }

    /// Comics and a PDF's pages view turn pages; everything else reads as text.
    func make(_ view: ReaderView?, frame: ReaderFrame, at start: Locator?) -> any ReaderPager {
        var made: any ReaderPager
        if let stream {
            made = PagePager(pages: StreamedPages.pages(of: stream), rightToLeft: false, root: stream.folder, painter: painter, theme: theme,
                             at: start, stream: stream)
        } else if content.format == .cbz || view == .pages {
            let pages = content.format == .cbz ? ReaderPage.pictures(of: content, in: root) : ReaderPage.documentPages(of: content, in: root)
            made = PagePager(pages: pages, rightToLeft: content.rightToLeft, root: root, painter: painter, theme: theme, at: start,
                             pageTexts: pageTexts)
        } else {
            made = TextPager(content: content, root: root, painter: painter, theme: theme, preferences: preferences, at: start,
                             texts: texts, pageTexts: pageTexts)
        }
        made.resize(to: frame)
        made.settle()
        return made
    }
}
