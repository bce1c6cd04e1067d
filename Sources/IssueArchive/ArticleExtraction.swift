import Foundation

/// What the extractor found on an article's page.
public struct ExtractedArticle: Codable, Sendable, Equatable {
    public var title: String?
    public var byline: String?
    /// As the page gives it (usually ISO 8601).
    public var date: String?
    /// The lead picture, absolute when the page's URL is known.
    public var leadPicture: URL?
    public var siteName: String?
    /// The main text: paragraphs, headings, list items, quotes, pictures.
    public var blocks: [ArticleBlock]

    /// The main text, one block a paragraph, blocks apart by a blank line.
    public var text: String { blocks.compactMap(\.text).joined(separator: "\n\n") }

    /// The main text as HTML for `ArticleHTML.clean` (links already absolute); list items
    /// in a row make one list.
    public var html: String {
        var out: [String] = []
        var inList = false
        for block in blocks {
            let isItem: Bool = { if case .listItem = block { return true }; return false }()
            if isItem != inList { out.append(isItem ? "<ul>" : "</ul>") }
            inList = isItem
            out.append(block.html)
        }
        if inList { out.append("</ul>") }
        return out.joined(separator: "\n")
    }
}

/// One block of an article's main text.
public enum ArticleBlock: Codable, Sendable, Equatable {
    case paragraph(String)
    /// Level 2 to 6 (the article's title is not part of its text).
    case heading(String, level: Int)
    case listItem(String)
    case quote(String)
    case preformatted(String)
    case picture(URL, alt: String)

    public var text: String? {
        switch self {
        case .paragraph(let text), .heading(let text, _), .listItem(let text), .quote(let text), .preformatted(let text): return text
        case .picture: return nil
        }
    }

    /// The block as HTML (a list item without its list).
    public var html: String {
        let e = ArticleHTML.escape
        switch self {
        case .paragraph(let text): return "<p>\(e(text))</p>"
        case .heading(let text, let level): return "<h\(level)>\(e(text))</h\(level)>"
        case .listItem(let text): return "<li>\(e(text))</li>"
        case .quote(let text): return "<blockquote><p>\(e(text))</p></blockquote>"
        case .preformatted(let text): return "<pre>\(e(text))</pre>"
        case .picture(let url, let alt): return "<p><img src=\"\(e(url.absoluteString))\" alt=\"\(e(alt))\"/></p>"
        }
    }
}

/// The page had nothing that reads as an article.
public struct NoArticleFound: Error, CustomStringConvertible, Equatable {
    public let page: String
    public var description: String {
        "\(page) has no article text (only navigation, links or short snippets); its feed's summary is all there is"
    }
}

/// Finds the article in a web page: a readability-style scorer over the page's tree.
/// Paragraph-like blocks score by their length and commas; the score flows to their
/// parent and, halved, to their grandparent; class and id names that say comment,
/// sidebar, share, related, footer… count against, article, content, story… for; the
/// container with the best score less its links' share of text is the article, with
/// those siblings that score near it. Inside it, lists, tables and boxes made mostly of
/// links, forms or pictures are dropped. Title, byline, date and picture come from
/// JSON-LD and meta tags first (`ArticleMetadata`). Pure: no network.
public enum ArticleExtraction {
    /// Less text than this (in characters) is not an article.
    static let minimumText = 200

    /// The article in `html`, the page at `url` (which relative links resolve against).
    public static func extract(html: String, url: URL?) throws -> ExtractedArticle {
        let page = ArticlePage(html: html)
        let metadata = ArticleMetadata(page)
        var scorer = ArticleScorer(page: page, base: url)
        var blocks = scorer.mainBlocks()
        let title = metadata.title ?? scorer.firstHeading ?? page.title.map(Self.withoutSiteName)
        // The title repeated at the top of the text is the title, not text.
        if let first = blocks.first?.text, let title, first.lowercased() == title.lowercased() { blocks.removeFirst() }
        var length = blocks.reduce(0) { $0 + ($1.text?.count ?? 0) }
        // A page whose markup hides its text (scripts build it) may still give it as JSON-LD.
        if let body = metadata.body, body.count > 2 * length {
            blocks = body.components(separatedBy: "\n").map(collapsedWhitespace).filter { !$0.isEmpty }.map(ArticleBlock.paragraph)
            length = body.count
        }
        guard length >= minimumText else { throw NoArticleFound(page: url?.absoluteString ?? "the page") }
        let picture = metadata.picture.flatMap { resolve($0, against: url) }
            ?? blocks.lazy.compactMap { if case .picture(let url, _) = $0 { return url }; return nil }.first
        return ExtractedArticle(title: title, byline: metadata.byline, date: metadata.date,
                                leadPicture: picture, siteName: metadata.siteName, blocks: blocks)
    }

    /// A page's bytes as text: UTF-8 (the web's usual), else the charset its head declares,
    /// else Windows-1252 (what browsers assume of undeclared Latin text).
    public static func text(of data: Data) -> String {
        if let text = String(data: data, encoding: .utf8) { return text }
        let head = String(decoding: data.prefix(2048), as: UTF8.self).lowercased()
        if let range = head.range(of: "charset=") {
            let name = head[range.upperBound...].drop { $0 == "\"" || $0 == "'" }.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            if let encoding = Self.encodings[String(name)], let text = String(data: data, encoding: encoding) { return text }
        }
        return String(data: data, encoding: .windowsCP1252) ?? String(decoding: data, as: UTF8.self)
    }

    static let encodings: [String: String.Encoding] = [
        "iso-8859-1": .isoLatin1, "latin1": .isoLatin1, "iso-8859-2": .isoLatin2, "windows-1250": .windowsCP1250,
        "windows-1251": .windowsCP1251, "windows-1252": .windowsCP1252, "shift_jis": .shiftJIS, "euc-jp": .japaneseEUC,
        "utf-16": .utf16, "iso-2022-jp": .iso2022JP,
    ]

    /// "Headline | Site" and "Headline - Site" without the site.
    static func withoutSiteName(_ title: String) -> String {
        for separator in [" | ", " – ", " — ", " - ", " :: "] {
            if let range = title.range(of: separator, options: .backwards), title[..<range.lowerBound].count >= 15 {
                return String(title[..<range.lowerBound])
            }
        }
        return title
    }

    static func resolve(_ link: String, against base: URL?) -> URL? {
        let trimmed = link.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.lowercased().hasPrefix("data:"), !trimmed.lowercased().hasPrefix("javascript:") else { return nil }
        guard let url = URL(string: trimmed, relativeTo: base) ?? URL(string: trimmed.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? "", relativeTo: base)
        else { return nil }
        return url.absoluteURL
    }
}
