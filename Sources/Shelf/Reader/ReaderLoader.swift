import Foundation
import Imaging
import IssueArchive
import NewsstandKit
import TextLayout

/// The reader's reads for one open issue: the issue opened (`source`), its articles, its
/// contents, search beyond the article shown, a PDF's pages' texts, a streamed page. Runs
/// on the reader I/O queue (`App/ReaderEffects.swift`), or inline in tests; never inside
/// the reader's `update` or `view`.
final class ReaderLoader {
    let content: IssueContent
    let root: URL
    let texts: DocumentTexts
    /// A PDF issue's pages as plain text, read ahead from the moment the issue is opened;
    /// nil for issues that are not documents.
    let pageTexts: DocumentPageTexts?
    let stream: StreamedComic?

    /// Reads the issue's content in `root` (throws as `IssueReader.open` does: an encrypted PDF).
    convenience init(root: URL, texts: DocumentTexts = .shared) throws {
        self.init(content: try IssueReader.open(directory: root), root: root, texts: texts)
    }

    init(content: IssueContent, root: URL, texts: DocumentTexts = .shared, stream: StreamedComic? = nil) {
        self.content = content
        self.root = root
        self.texts = texts
        self.stream = stream
        let isDocument = stream == nil && content.readingOrder.contains { PagePath($0.path) != nil }
        pageTexts = isDocument ? DocumentPageTexts(readingOrder: content.readingOrder, root: root, texts: texts) : nil
    }

    /// A streamed comic: nothing installed, its pages fetched as the reader asks for them.
    convenience init(streaming comic: StreamedComic) {
        self.init(content: StreamedPages.content(of: comic), root: comic.folder, stream: comic)
    }

    /// What the model needs to open `issue` at `start`: the issue's facts, and the article
    /// it opens at already read (its first part, when long).
    func source(of issue: Issue, at start: Locator?) -> ReaderSource {
        let isDocument = pageTexts != nil
        let folder = root.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        let weights = isDocument ? content.readingOrder.map { _ in 1.0 } : content.readingOrder.map { resource -> Double in
            let file = try? IssueReader.resolve(resource.path, in: root)
            let size = file.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber }
            return max(1, size?.doubleValue ?? 1)
        }
        let pages: [ReaderPage]
        if let stream {
            pages = StreamedPages.pages(of: stream)
        } else if content.format == .cbz {
            pages = ReaderPage.pictures(of: content, in: root)
        } else if isDocument {
            pages = ReaderPage.documentPages(of: content, in: root)
        } else {
            pages = []
        }
        var source = ReaderSource(issue: issue, content: content, folder: folder, weights: weights, isDocument: isDocument,
                                  pages: pages, stream: stream)
        // The first article (for text: the place's) is read here, so the first frame shows it.
        if content.format != .cbz, stream == nil, !content.readingOrder.isEmpty {
            let index = start?.index(in: content.readingOrder) ?? 0
            if case .success(let first) = firstPart(of: index) { source.articles[index] = first }
        }
        return source
    }

    /// Does `load`; `deliver` is called with what it brought (twice for a long article:
    /// its first part, then the whole).
    func perform(_ load: ReaderLoad, deliver: (ReaderLoaded) -> Void) {
        switch load {
        case .article(let index):
            let first = firstPart(of: index)
            deliver(.article(index, first))
            if case .success(let part) = first, !part.isWhole { deliver(.article(index, article(index))) }
        case .contents:
            deliver(.contents(ContentsEntry.entries(for: content, root: root)))
        case .findArticle(let query, let from, let forward, let width):
            deliver(.articleFound(query: query, forward: forward, findArticle(query, from: from, forward: forward, width: width)))
        case .findPage(let query, let from, let forward, let firstStep):
            let found = findPage(query, from: from, forward: forward, firstStep: firstStep)
            let matches = found.flatMap { pageTexts?.matches(of: query, at: $0.page) } ?? []
            // The matches `n` steps through are counted where they can be shown.
            deliver(.pageFound(query: query, forward: forward, page: found?.page,
                               count: matches.isEmpty ? found?.count ?? 0 : matches.count, matches: matches))
        case .matchBoxes(let query, let page):
            deliver(.matchBoxes(query: query, page: page, pageTexts?.matches(of: query, at: page) ?? []))
        case .highlightBoxes(let page, let quotes):
            deliver(.highlightBoxes(page: page, quotes: quotes, quotes.map { pageTexts?.boxes(of: $0, at: page) ?? [] }))
        case .textAhead(let index):
            pageTexts?.prepareText(at: index)
        case .streamedPage(let index):
            guard let stream else { return }
            stream.read(page: index)
            deliver(.streamedPages(StreamedPages.states(of: stream)))
        }
    }

    /// Article `index` whole.
    func article(_ index: Int) -> Result<LoadedArticle, ReaderLoadError> {
        read(index) { data, kind in (ArticleDocument.parse(data, kind), true, 1) }
    }

    /// Article `index`, or the first part of a long one (the whole is read next).
    func firstPart(of index: Int) -> Result<LoadedArticle, ReaderLoadError> {
        read(index) { data, kind in
            guard let first = ArticleDocument.firstPart(of: data, kind) else { return (ArticleDocument.parse(data, kind), true, 1) }
            return (ArticleDocument.parse(first, kind), false, Double(first.count) / Double(max(1, data.count)))
        }
    }

    private func read(_ index: Int, parse: (Data, ArticleDocument.Kind) -> (TextDocument, Bool, Double))
        -> Result<LoadedArticle, ReaderLoadError> {
        guard content.readingOrder.indices.contains(index) else { return .failure(ReaderLoadError(description: "This issue has no articles.")) }
        let resource = content.readingOrder[index]
        do {
            let (data, kind) = try ArticleDocument.read(resource, in: root, texts: texts)
            let (document, isWhole, share) = parse(data, kind)
            return .success(LoadedArticle(document: document, pictures: pictures(of: document, in: resource),
                                          isWhole: isWhole, share: share))
        } catch {
            return .failure(ReaderLoadError(description: "cannot read \(resource.path): \(error)"))
        }
    }

    /// Where each picture of an article is drawn from: a figure of a PDF page is that
    /// region of the page; anything else an image file of the issue that exists.
    private func pictures(of document: TextDocument, in resource: Resource) -> [String: ImageSource] {
        var found: [String: ImageSource] = [:]
        for source in Set(document.blocks.flatMap(Self.pictureSources)) {
            if let figure = PageFigure(source: source) {
                guard let page = PagePath(resource.path),
                      let region = PageRegion(x0: figure.x0, y0: figure.y0, x1: figure.x1, y1: figure.y1),
                      let picture = PagePath(file: page.file, index: figure.page).picture(in: root, region: region) else { continue }
                found[source] = picture
            } else if let file = try? IssueReader.resolve(link: source, from: resource.path, in: root),
                      FileManager.default.fileExists(atPath: file.path) {
                found[source] = .file(file)
            }
        }
        return found
    }

    private static func pictureSources(_ block: Block) -> [String] {
        switch block {
        case .image(let source, _): return [source]
        case .quote(let blocks): return blocks.flatMap(pictureSources)
        case .list(_, let items): return items.flatMap { $0.flatMap(pictureSources) }
        case .figure(let image, _): return pictureSources(image)
        default: return []
        }
    }

    /// The search beyond the article shown: each other article, round the issue, laid out
    /// and searched (a PDF's pages only where their text may hold the query).
    private func findArticle(_ query: String, from index: Int, forward: Bool, width: Int) -> FoundArticle? {
        let count = content.readingOrder.count
        guard count > 1 else { return nil }
        for step in 1..<count {
            let candidate = forward ? (index + step) % count : (index - step + count) % count
            let resource = content.readingOrder[candidate]
            guard !resource.isPicture, pageTexts?.mayHold(query, at: candidate) ?? true,
                  case .success(let loaded) = article(candidate), Search.mayContain(loaded.document, query) else { continue }
            let laidOut = ArticleText(document: loaded.document, width: width, blockWeights: loaded.blockWeights)
            let matches = laidOut.matches(of: query)
            if !matches.isEmpty { return FoundArticle(article: candidate, loaded: loaded, laidOut: laidOut, matches: matches) }
        }
        return nil
    }

    /// The next page from `firstStep` steps on whose text holds the query, round the issue.
    private func findPage(_ query: String, from index: Int, forward: Bool, firstStep: Int) -> (page: Int, count: Int)? {
        let count = content.readingOrder.count
        guard let pageTexts, count > 0 else { return nil }
        for step in firstStep...count {
            let candidate = ((forward ? index + step : index - step) % count + count) % count
            if let found = pageTexts.count(of: query, at: candidate), found > 0 { return (candidate, found) }
        }
        return nil
    }
}
