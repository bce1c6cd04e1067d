import Foundation
import Markup

/// RSS 2.0 (and 0.9x) and RSS 1.0 (RDF) feeds whose items carry a zip, EPUB, CBZ or PDF enclosure.
/// Items are read one at a time as the parser hands them over (`consume`); the channel at
/// the end (`finish`).
struct RSSReader {
    let url: URL
    private var collector = EntryCollector()
    /// The base of the last parent an item came from (the channel, or the root in RSS 1.0).
    private var parentBase: (parent: XMLElement, base: LinkBase)?

    init(url: URL, sink: EntrySink? = nil) {
        self.url = url
        collector.sink = sink
    }

    private mutating func base(of parent: XMLElement, root: XMLElement) -> LinkBase {
        if let cached = parentBase, cached.parent === parent { return cached.base }
        let rootBase = root.base(inside: LinkBase(url))
        let base = parent === root ? rootBase : parent.base(inside: rootBase)
        parentBase = (parent, base)
        return base
    }

    /// Reads one `<item>`, whose parent is the channel (RSS 2.0) or the root (RSS 1.0).
    mutating func consume(_ item: some MarkupElement, parent: XMLElement, root: XMLElement) {
        let base = base(of: parent, root: root)
        collector.add(draft(item, base: item.base(inside: base)))
    }

    mutating func finish(_ root: XMLElement) -> FeedDocument {
        let format: FeedFormat = root.localName == "RDF" ? .rss1 : .rss2
        let channel = root.plain("channel") ?? root.first("channel", in: [NS.rss1]) ?? root
        let base = base(of: channel, root: root)
        // Items not handed over while reading (RSS 1.0 and 0.90 put them beside the channel).
        for parent in channel === root ? [root] : [channel, root] {
            let parentBase = self.base(of: parent, root: root)
            for item in parent.children where item.localName == "item" {
                collector.add(draft(item, base: item.base(inside: parentBase)))
            }
        }
        var problems: [String] = []
        let image = root.plain("image") ?? channel.plain("image")
        var publication = PublicationInfo(
            title: FeedText.fromHTML(channel.plain("title")?.allText)
                ?? FeedText.fromHTML(channel.first("title", in: [NS.dc], prefix: "dc")?.allText)
                ?? url.deletingPathExtension().lastPathComponent,
            subtitle: FeedText.fromHTML(channel.plain("description")?.allText),
            id: FeedText.line(channel.attribute("about")) ?? FeedText.line(channel.plain("link")?.text),
            coverURL: FeedLinks.resolve(image?.plain("url")?.text ?? image?.attribute("resource"), against: base)
                ?? FeedLinks.resolve(channel.first("image", in: [NS.itunes], prefix: "itunes")?.attribute("href"), against: base),
            siteURL: FeedLinks.resolve(channel.plain("link")?.text, against: base))
        NewsstandExtension.apply(to: &publication, from: channel, base: base, problems: &problems)
        for link in channel.children where link.localName == "link" && NS.atomVariants.contains(link.namespaceURI ?? "") {
            let rel = FeedText.line(link.attribute("rel")) ?? "alternate"
            let href = FeedLinks.resolve(link.attribute("href"), against: base)
            if rel == "next", publication.nextPage == nil { publication.nextPage = href }
            if NewsstandExtension.isPushLink(rel: rel, type: link.attribute("type")), publication.pushURL == nil {
                publication.pushURL = href
            }
        }
        let feedDate = [channel.plain("lastBuildDate"), channel.plain("pubDate"), channel.first("date", in: [NS.dc], prefix: "dc")]
            .lazy.compactMap { FeedDates.parse($0?.text) }.first
        let finished = collector.finish(feedDate: feedDate, keepsEntriesWithoutContent: false)
        let language = [channel.plain("language")?.text, channel.first("language", in: [NS.dc], prefix: "dc")?.text,
                        channel.attribute("xml:lang"), root.attribute("xml:lang")].lazy.compactMap(FeedLanguage.tag).first
        return FeedDocument(format: format, publication: publication, entries: finished.entries,
                            articles: finished.articles.inLanguage(language),
                            problems: problems + finished.problems)
    }

    private func draft(_ item: some MarkupElement, base: LinkBase) -> EntryDraft {
        var draft = EntryDraft()
        draft.id = FeedText.line(item.plain("guid")?.text) ?? FeedText.line(item.attribute("about"))
            ?? FeedText.line(item.first("id", in: NS.atomVariants)?.text)
        draft.title = FeedText.fromHTML(item.plain("title")?.allText)
            ?? FeedText.fromHTML(item.first("title", in: [NS.dc], prefix: "dc")?.allText)
        draft.date = [item.plain("pubDate"), item.first("date", in: [NS.dc], prefix: "dc"),
                      item.first("published", in: NS.atomVariants), item.first("updated", in: NS.atomVariants)]
            .lazy.compactMap { FeedDates.parse($0?.text) }.first
        let description = item.plain("description") ?? item.first("encoded", in: [NS.contentModule], prefix: "content")
        draft.summary = EntryCollector.summary(FeedText.fromHTML(description?.allText))
        draft.endDate = FeedDates.parse(item.first("end_date", in: [NS.newsstand], prefix: "news")?.text)
        // Its pictures and categories are gathered on the way; the rest only if it is an article.
        var article = ArticleDraft(baseURL: base.url)

        var candidates: [ContentLink] = []
        for child in item.children {
            switch child.localName {
            case "enclosure":
                // RSS 2.0 `url=`, RSS 1.0 mod_enclosure `rdf:resource=`.
                guard let href = FeedLinks.resolve(child.attribute("url") ?? child.attribute("resource"), against: base) else { continue }
                let link = ContentLink(url: href, type: child.attribute("type"), length: child.attribute("length"), sha256: child.attribute("sha256"))
                if (link.type ?? "").hasPrefix("image/") {
                    article.addPicture(href)
                    if draft.coverURL == nil { draft.coverURL = href }
                } else {
                    candidates.append(link)
                }
            case "content" where child.namespaceURI == NS.media || child.name == "media:content":
                guard let href = FeedLinks.resolve(child.attribute("url"), against: base) else { continue }
                let type = child.attribute("type")
                if child.attribute("medium") == "image" || (type ?? "").hasPrefix("image/") {
                    article.addPicture(href)
                    if draft.coverURL == nil { draft.coverURL = href }
                } else {
                    candidates.append(ContentLink(url: href, type: type, length: child.attribute("fileSize")))
                }
            case "thumbnail" where child.namespaceURI == NS.media || child.name == "media:thumbnail":
                if draft.thumbnailURL == nil { draft.thumbnailURL = FeedLinks.resolve(child.attribute("url"), against: base) }
            case "category" where child.namespaceURI == nil || child.name == "category":
                article.addCategory(FeedText.fromHTML(child.allText))
            case "image" where child.namespaceURI == NS.itunes || child.name == "itunes:image":
                if draft.coverURL == nil { draft.coverURL = FeedLinks.resolve(child.attribute("href"), against: base) }
            case "link" where child.namespaceURI.map(NS.atomVariants.contains) == true:
                let rel = child.attribute("rel") ?? "alternate"
                guard rel == "enclosure" || rel.hasPrefix("http://opds-spec.org/acquisition"),
                      let href = FeedLinks.resolve(child.attribute("href"), against: base) else { continue }
                candidates.append(ContentLink(url: href, type: child.attribute("type"), length: child.attribute("length"), sha256: child.attribute("sha256")))
            default:
                continue
            }
        }
        draft.coverURL = item.newsstandCover(base: base) ?? draft.coverURL
        draft.content = ContentLink.best(candidates)
        if draft.content == nil {
            article.link = FeedLinks.resolve(item.plain("link")?.text, against: base)
                ?? (item.plain("guid")?.attribute("isPermaLink") != "false" ? FeedLinks.resolve(item.plain("guid")?.text, against: base) : nil)
            article.author = FeedText.fromHTML(item.first("creator", in: [NS.dc], prefix: "dc")?.allText)
                ?? FeedText.fromHTML(item.plain("author")?.allText)
            let encoded = item.first("encoded", in: [NS.contentModule], prefix: "content")
            article.html = (encoded ?? description)?.allText
            article.hasContent = encoded != nil
            article.language = FeedLanguage.tag(item.first("language", in: [NS.dc], prefix: "dc")?.text)
                ?? FeedLanguage.tag(item.attribute("xml:lang"))
            draft.article = article
        }
        return draft
    }

}
