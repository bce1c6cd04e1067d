import Foundation
import Markup

/// What a page says of its article outside the text: JSON-LD (schema.org `Article` and
/// its kinds) first, then OpenGraph, Twitter and `<meta name=…>` tags, then the markup
/// (`<time datetime>`, `rel=author`, an element whose class says byline).
struct ArticleMetadata {
    var title: String?
    var byline: String?
    var date: String?
    var picture: String?
    var siteName: String?
    /// The publisher's own plain text of the article, when its JSON-LD carries it.
    var body: String?

    init(_ page: ArticlePage) {
        for block in page.structuredData { readStructuredData(block) }
        func meta(_ keys: String...) -> String? {
            for key in keys {
                if let value = page.meta.first(where: { $0.key == key })?.value, !collapsedWhitespace(value).isEmpty {
                    return collapsedWhitespace(value)
                }
            }
            return nil
        }
        title = title ?? meta("og:title", "twitter:title", "dc.title", "headline")
        byline = byline ?? meta("author", "article:author", "byl", "dc.creator", "parsely-author", "sailthru.author")
            .flatMap { $0.hasPrefix("http") ? nil : $0 }
        date = date ?? meta("article:published_time", "datepublished", "date", "dc.date", "dc.date.issued", "pubdate",
                            "publish-date", "sailthru.date", "parsely-pub-date", "og:published_time")
        picture = picture ?? meta("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src", "image")
        siteName = siteName ?? meta("og:site_name", "application-name")
        readMarkup(page)
        if let title, title.isEmpty { self.title = nil }
    }

    /// `<time datetime>` and `itemprop` dates, `rel=author` and byline classes: for pages
    /// whose head says nothing.
    private mutating func readMarkup(_ page: ArticlePage) {
        guard date == nil || byline == nil else { return }
        for node in page.elements(below: 0) {
            let name = page.nodes[node].name
            if date == nil, name == "time" || page.attribute(node, "itemprop") == "datePublished",
               let value = page.attribute(node, "datetime") ?? page.attribute(node, "content") {
                date = value
            }
            if byline == nil, page.attribute(node, "rel") == "author" || page.attribute(node, "itemprop") == "author"
                || (page.attribute(node, "class") ?? "").lowercased().contains("byline") {
                let text = collapsedWhitespace(page.text(of: node))
                if !text.isEmpty, text.count < 100 { byline = Self.withoutBy(text) }
            }
        }
    }

    static func withoutBy(_ text: String) -> String {
        text.lowercased().hasPrefix("by ") ? String(text.dropFirst(3)) : text
    }

    static let articleTypes: Set<String> = [
        "article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle", "opinionnewsarticle",
        "reviewnewsarticle", "backgroundnewsarticle", "scholarlyarticle", "techarticle", "report", "liveblogposting",
        "posting", "socialmediaposting", "webpage",
    ]

    private mutating func readStructuredData(_ text: String) {
        guard let json = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return }
        var pending: [Any] = [json]
        var objects: [[String: Any]] = []
        while let next = pending.popLast(), objects.count < 200 {
            if let array = next as? [Any] { pending.append(contentsOf: array.reversed()) }
            if let object = next as? [String: Any] {
                objects.append(object)
                if let graph = object["@graph"] { pending.append(graph) }
                if let main = object["mainEntity"] { pending.append(main) }
            }
        }
        // An article kind wins over a plain `WebPage`.
        let ranked = objects.filter { Self.types($0).contains { Self.articleTypes.contains($0) } }
            .sorted { Self.types($0).contains("webpage") ? false : Self.types($1).contains("webpage") }
        for object in ranked {
            title = title ?? Self.string(object["headline"]) ?? Self.string(object["name"])
            byline = byline ?? Self.names(object["author"]) ?? Self.names(object["creator"])
            date = date ?? Self.string(object["datePublished"]) ?? Self.string(object["dateCreated"])
            picture = picture ?? Self.url(object["image"]) ?? Self.url(object["thumbnailUrl"])
            siteName = siteName ?? Self.names(object["publisher"])
            body = body ?? Self.string(object["articleBody"]).flatMap { $0.count > 200 ? $0 : nil }
        }
    }

    private static func types(_ object: [String: Any]) -> [String] {
        if let type = object["@type"] as? String { return [type.lowercased()] }
        return (object["@type"] as? [Any] ?? []).compactMap { ($0 as? String)?.lowercased() }
    }

    private static func string(_ value: Any?) -> String? {
        guard let text = value as? String else { return nil }
        let line = collapsedWhitespace(CharacterReferences.decode(text))
        return line.isEmpty ? nil : line
    }

    /// A person, an organisation or several, as one line of names.
    private static func names(_ value: Any?) -> String? {
        if let text = string(value) { return text.hasPrefix("http") ? nil : text }
        if let object = value as? [String: Any] { return string(object["name"]) }
        let all = (value as? [Any] ?? []).compactMap { names($0) }
        return all.isEmpty ? nil : all.joined(separator: ", ")
    }

    private static func url(_ value: Any?) -> String? {
        if let text = string(value) { return text }
        if let object = value as? [String: Any] { return string(object["url"]) ?? string(object["contentUrl"]) }
        return (value as? [Any])?.lazy.compactMap { url($0) }.first
    }
}
