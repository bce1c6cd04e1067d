import Foundation

/// Loosely typed access to decoded JSON (and property lists), tolerant of the polymorphic
/// fields real catalogs use: a value may be a string, a number, an object or an array.
struct Loose {
    let value: Any?

    init(_ value: Any?) { self.value = value }

    subscript(_ key: String) -> Loose { Loose((value as? [String: Any])?[key]) }

    /// The first of several keys that is present (`Title` or `title`).
    func any(_ keys: String...) -> Loose {
        for key in keys { let found = self[key]; if found.value != nil { return found } }
        return Loose(nil)
    }

    var string: String? {
        switch value {
        case let s as String: return s
        case let n as NSNumber: return n.stringValue
        default: return nil
        }
    }

    /// A string, or the best entry of a language map (`{"en": "...", "fr": "..."}`), or the
    /// `name` of an object, or the first of an array.
    var text: String? {
        if let s = string { return s }
        if let map = value as? [String: Any] {
            if let name = Loose(map["name"]).text { return name }
            for key in ["en", "en-US", "en-GB", "und"] { if let s = map[key] as? String { return s } }
            return map.keys.sorted().lazy.compactMap { map[$0] as? String }.first
        }
        if let array = value as? [Any] { return array.lazy.compactMap { Loose($0).text }.first }
        return nil
    }

    var array: [Loose] {
        if let array = value as? [Any] { return array.map(Loose.init) }
        return value == nil || value is NSNull ? [] : [self]
    }

    /// A relation that may be one string or an array of them.
    var strings: [String] { array.compactMap(\.string) }

    var date: Date? {
        if let date = value as? Date { return date }
        return FeedDates.parse(string)
    }
}

enum JSONReaders {
    /// The top-level object, with invalid UTF-8 repaired first (JSONSerialization refuses it).
    static func object(_ data: Data) -> [String: Any]? {
        var bytes = data
        if String(validating: data, as: UTF8.self) == nil {
            bytes = Data(String(decoding: data, as: UTF8.self).utf8)
        }
        return (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any]
    }

    static func isJSONFeed(_ root: [String: Any]) -> Bool {
        (root["version"] as? String)?.contains("jsonfeed.org") == true
    }

    static func isOPDS2(_ root: [String: Any]) -> Bool {
        root["metadata"] is [String: Any]
            && (root["publications"] != nil || root["navigation"] != nil || root["groups"] != nil || root["links"] != nil)
    }

    // MARK: JSON Feed 1.0 / 1.1

    static func jsonFeed(_ root: [String: Any], url: URL) -> FeedDocument {
        let feed = Loose(root)
        let base = LinkBase(url)
        var publication = PublicationInfo(
            title: FeedText.fromHTML(feed["title"].text) ?? url.deletingPathExtension().lastPathComponent,
            subtitle: FeedText.fromHTML(feed["description"].text),
            id: FeedText.line(feed["feed_url"].string ?? feed["home_page_url"].string),
            coverURL: FeedLinks.resolve(feed["icon"].string, against: base),
            nextPage: FeedLinks.resolve(feed["next_url"].string, against: base),
            siteURL: FeedLinks.resolve(feed["home_page_url"].string, against: base))
        var problems: [String] = []
        applyExtension(feed["_newsstand"], to: &publication, base: base, problems: &problems)

        var collector = EntryCollector()
        for item in feed["items"].array {
            var draft = EntryDraft()
            draft.id = FeedText.line(item["id"].string)
            draft.title = FeedText.fromHTML(item["title"].text)
            draft.date = item["date_published"].date ?? item["date_modified"].date
            draft.summary = EntryCollector.summary(FeedText.fromHTML(item["summary"].text ?? item["content_text"].text ?? item["content_html"].text))
            draft.coverURL = FeedLinks.resolve(item["image"].string ?? item["banner_image"].string, against: base)
            let attachments = item["attachments"].array.compactMap { attachment -> ContentLink? in
                guard let href = FeedLinks.resolve(attachment["url"].string, against: base) else { return nil }
                return ContentLink(url: href, type: attachment["mime_type"].string, length: attachment["size_in_bytes"].string,
                                   sha256: attachment.any("_sha256", "sha256").string)
            }
            draft.content = ContentLink.best(attachments)
            if draft.content == nil { draft.article = article(item, base: base, attachments: attachments) }
            collector.add(draft)
        }
        let finished = collector.finish(feedDate: nil, keepsEntriesWithoutContent: false)
        // JSON Feed 1.1 names a language for the whole feed (an item's own `language` is taken too).
        return FeedDocument(format: .jsonFeed, publication: publication, entries: finished.entries,
                            articles: finished.articles.inLanguage(FeedLanguage.tag(feed["language"].string)),
                            problems: problems + finished.problems)
    }

    /// A JSON Feed item as an article: its HTML (else its text, escaped), author, tags and pictures.
    private static func article(_ item: Loose, base: LinkBase, attachments: [ContentLink]) -> ArticleDraft {
        var article = ArticleDraft(baseURL: base.url)
        article.link = FeedLinks.resolve(item["url"].string ?? item["external_url"].string, against: base)
        article.author = FeedText.fromHTML(item["authors"].array.first?["name"].string ?? item["author"]["name"].string)
        item["tags"].strings.forEach { article.addCategory($0) }
        article.html = item["content_html"].string ?? item["content_text"].string.map(ArticleDraft.paragraphs)
        article.hasContent = article.html != nil
        article.html = article.html ?? item["summary"].string.map(ArticleDraft.paragraphs)
        article.addPicture(FeedLinks.resolve(item["image"].string ?? item["banner_image"].string, against: base))
        article.language = FeedLanguage.tag(item["language"].string)
        for attachment in attachments where (attachment.type ?? "").hasPrefix("image/") { article.addPicture(attachment.url) }
        return article
    }

    /// `"_newsstand": {"binding": {"type": "magazine", "edge": "left"}, "push": "https://..."}`
    private static func applyExtension(_ ext: Loose, to publication: inout PublicationInfo, base: LinkBase, problems: inout [String]) {
        NewsstandExtension.binding(type: ext["binding"]["type"].string, edge: ext["binding"]["edge"].string,
                                   into: &publication, problems: &problems)
        if let push = FeedLinks.resolve(ext["push"].string, against: base) { publication.pushURL = push }
    }

    // MARK: OPDS 2.0

    /// A publication's `metadata.author`: a name, a contributor object, or a list of either.
    static func opds2Authors(_ meta: Loose) -> [String] {
        meta["author"].array.compactMap { FeedText.line($0.text) }
    }

    static func opds2(_ root: [String: Any], url: URL) -> FeedDocument {
        let feed = Loose(root)
        let base = LinkBase(url)
        let metadata = feed["metadata"]
        var publication = PublicationInfo(
            title: FeedText.line(metadata["title"].text) ?? url.deletingPathExtension().lastPathComponent,
            subtitle: FeedText.line(metadata["subtitle"].text),
            id: FeedText.line(metadata["identifier"].string))
        var problems: [String] = []
        applyExtension(feed["_newsstand"], to: &publication, base: base, problems: &problems)
        for link in feed["links"].array {
            let rels = link["rel"].strings
            let href = FeedLinks.resolve(link["href"].string, against: base)
            if rels.contains("next"), publication.nextPage == nil { publication.nextPage = href }
            if rels.contains(where: { NewsstandExtension.isPushLink(rel: $0, type: link["type"].string) }), publication.pushURL == nil {
                publication.pushURL = href
            }
            if rels.contains(where: { ["logo", "cover", "http://opds-spec.org/image"].contains($0) }), publication.coverURL == nil {
                publication.coverURL = href
            }
        }

        var collector = EntryCollector()
        var publications = feed["publications"].array
        var navigation = feed["navigation"].array
        for group in feed["groups"].array {
            publications += group["publications"].array
            navigation += group["navigation"].array
        }
        for item in navigation {
            guard let href = FeedLinks.resolve(item["href"].string, against: base) else { continue }
            publication.links.append(NavigationLink(
                title: FeedText.line(item["title"].text) ?? href.absoluteString, url: href,
                rel: item["rel"].strings.first, type: FeedText.line(item["type"].string)))
        }
        for item in publications {
            let meta = item["metadata"]
            var draft = EntryDraft()
            draft.id = FeedText.line(meta["identifier"].string)
            draft.title = FeedText.line(meta["title"].text)
            draft.date = meta["published"].date ?? meta["modified"].date
            draft.summary = EntryCollector.summary(FeedText.fromHTML(meta["description"].text ?? meta["subtitle"].text))
            var acquisitions: [ContentLink] = []
            for link in item["links"].array {
                let rels = link["rel"].strings
                guard let href = FeedLinks.resolve(link["href"].string, against: base) else { continue }
                if rels.contains(where: { $0.hasPrefix("http://opds-spec.org/acquisition") }) {
                    acquisitions.append(ContentLink(url: href, type: link["type"].string, length: link["length"].string,
                                                    sha256: link["properties"].any("sha256", "_sha256").string))
                } else if rels.contains("http://opds-spec.org/image/thumbnail") {
                    draft.thumbnailURL = draft.thumbnailURL ?? href
                } else if rels.contains(where: { $0 == "http://opds-spec.org/image" || $0 == "cover" }) {
                    draft.coverURL = draft.coverURL ?? href
                }
            }
            // `images`: the first is the cover; a smaller one, if any, the thumbnail.
            let images = item["images"].array.compactMap { image -> (URL, Double)? in
                guard let href = FeedLinks.resolve(image["href"].string, against: base) else { return nil }
                return (href, Double(image["width"].string ?? "") ?? 0)
            }
            if let first = images.first { draft.coverURL = draft.coverURL ?? first.0 }
            if images.count > 1, let smallest = images.min(by: { $0.1 < $1.1 }), smallest.0 != draft.coverURL {
                draft.thumbnailURL = draft.thumbnailURL ?? smallest.0
            }
            draft.content = ContentLink.best(acquisitions)
            draft.authors = opds2Authors(meta)
            if draft.content == nil, !acquisitions.isEmpty {
                let types = Set(acquisitions.compactMap(\.type)).sorted().joined(separator: ", ")
                collector.note("publication \"\(draft.title ?? draft.id ?? "?")\" offers only \(types.isEmpty ? "unknown types" : types), not zip, EPUB, CBZ or PDF; skipped")
                continue
            }
            collector.add(draft)
        }
        let finished = collector.finish(feedDate: metadata["modified"].date, keepsEntriesWithoutContent: false, itemWord: "publications")
        return FeedDocument(format: .opds2, publication: publication, entries: finished.entries,
                            problems: problems + finished.problems)
    }
}
