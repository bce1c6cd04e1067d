import Foundation

/// An entry that carries no issue archive: an article, which a newsstand gathers with
/// others into editions. Its HTML is kept as the feed gave it (escaped HTML already
/// unescaped once by the XML reader); cleaning it is the edition builder's work.
public struct FeedArticle: Codable, Sendable, Equatable {
    /// Stable within the feed: the entry's id, else its link.
    public var name: String
    public var title: String
    /// The article's page on the web.
    public var link: URL?
    /// As the feed dates it; nil when it gives no readable date (an edition then goes by
    /// when the article was first seen, never by the feed's own date).
    public var date: Date?
    public var author: String?
    public var categories: [String]
    /// The full content when the feed has it, else the summary, as HTML.
    public var html: String?
    /// What relative links in `html` resolve against (the feed URL with any `xml:base`).
    public var baseURL: URL
    /// Pictures the feed attaches (image enclosures, media:content, thumbnails), absolute.
    public var pictures: [URL]
    /// The article's language as a BCP 47 tag (`en`, `de-AT`): its own (`dc:language`,
    /// `xml:lang`), else its feed's (`<language>`, `xml:lang`, JSON Feed `language`); nil when
    /// neither says.
    public var language: String?
    /// Whether `html` is the entry's content element (RSS `content:encoded`, Atom `content`,
    /// JSON Feed `content_html`/`content_text`) rather than its summary or description.
    public var hasContent: Bool

    public init(name: String, title: String, link: URL? = nil, date: Date? = nil, author: String? = nil,
                categories: [String] = [], html: String? = nil, baseURL: URL, pictures: [URL] = [], language: String? = nil,
                hasContent: Bool = false) {
        self.name = name
        self.title = title
        self.link = link
        self.date = date
        self.author = author
        self.categories = categories
        self.html = html
        self.baseURL = baseURL
        self.pictures = pictures
        self.language = language
        self.hasContent = hasContent
    }
}

/// Language tags as feeds write them (`en-us`, `de_DE`, ` EN `), made BCP 47 shaped; a
/// value that is no language tag at all (`English`, `x`) is nil rather than mislabelling.
public enum FeedLanguage {
    public static func tag(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "_", with: "-"),
              !text.isEmpty, text.utf8.count <= 35 else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = parts.first, (2...3).contains(primary.count) || primary.lowercased() == "i",
              primary.allSatisfy({ $0.isASCII && $0.isLetter }),
              parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { return nil }
        // Conventional case: language lower, region upper, script title (`zh-Hant-TW`).
        return parts.enumerated().map { index, part -> String in
            if index == 0 { return part.lowercased() }
            if part.count == 2, part.allSatisfy(\.isLetter) { return part.uppercased() }
            if part.count == 4, part.allSatisfy(\.isLetter) { return part.prefix(1).uppercased() + part.dropFirst().lowercased() }
            return part.lowercased()
        }.joined(separator: "-")
    }
}

extension Array where Element == FeedArticle {
    /// The articles, those that do not name their language taking the feed's.
    func inLanguage(_ feedLanguage: String?) -> [FeedArticle] {
        guard let feedLanguage else { return self }
        return map { article in
            var article = article
            if article.language == nil { article.language = feedLanguage }
            return article
        }
    }
}

/// What a reader gathers for an article while it reads an entry, before knowing whether
/// the entry is an issue (it then has a content link) or an article.
struct ArticleDraft {
    var link: URL?
    var author: String?
    var categories: [String] = []
    var html: String?
    var baseURL: URL
    var pictures: [URL] = []
    var language: String?
    var hasContent = false

    init(baseURL: URL) { self.baseURL = baseURL }

    mutating func addPicture(_ url: URL?) {
        if let url, !pictures.contains(url) { pictures.append(url) }
    }

    /// Plain text as HTML paragraphs (JSON Feed's `content_text`).
    static func paragraphs(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        return escaped.components(separatedBy: "\n\n").map { "<p>\($0)</p>" }.joined(separator: "\n")
    }

    mutating func addCategory(_ text: String?) {
        if let text = FeedText.line(text), !categories.contains(text) { categories.append(text) }
    }

    /// The article, named by the entry's id, else its link, else by what it says (RSS lets an
    /// item have only a title or only a description, and newsboat shows those); nil when it
    /// has none of these.
    func article(id: String?, title: String?, date: Date?) -> FeedArticle? {
        let text = html.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        guard let name = id ?? link?.absoluteString ?? Self.name(title: title, html: text) else { return nil }
        let heading = title ?? link?.absoluteString ?? text.flatMap(Self.opening) ?? name
        return FeedArticle(name: name, title: heading, link: link, date: date,
                           author: author, categories: categories, html: text,
                           baseURL: baseURL, pictures: pictures, language: language,
                           hasContent: hasContent)
    }

    /// A name that stays the same while the item says the same: FNV-1a (64 bits) of its
    /// title and text, which a refresh computes again to know the item.
    static func name(title: String?, html: String?) -> String? {
        guard title != nil || html != nil else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (title ?? "").utf8 + [0] + (html ?? "").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "untitled:" + String(hash, radix: 16)
    }

    /// An article without a title is called by the first words of its text.
    static func opening(_ html: String) -> String? {
        guard let text = FeedText.fromHTML(html) else { return nil }
        guard text.count > 80 else { return text }
        let cut = text.prefix(80)
        return String(cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut) + "…"
    }
}
