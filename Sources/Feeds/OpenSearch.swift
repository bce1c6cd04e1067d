import Foundation
import Markup

/// Catalog search: OpenSearch 1.1 description documents and the URL templates OPDS uses
/// (OpenSearch's `{searchTerms}`, OPDS 2's RFC 6570 `{?query}`). Pure: no I/O.
public enum OpenSearch {
    static let namespace = "http://a9.com/-/spec/opensearch/1.1/"

    /// The template of a description document's `Url` that gives an OPDS (Atom) feed: the
    /// one typed `application/atom+xml` (an OPDS acquisition profile preferred), else one
    /// typed OPDS 2 JSON; relative templates resolved against `url`.
    public static func template(fromDescription data: Data, url: URL) throws -> String {
        let xml = MarkupParser.parse(data)
        guard let root = xml.root, root.localName == "OpenSearchDescription" else {
            throw FeedError("\(url.absoluteString) is not an OpenSearch description document")
        }
        let base = root.base(inside: LinkBase(url))
        var best: (rank: Int, template: String)?
        for element in root.children where element.localName == "Url" {
            let type = (element.attribute("type") ?? "").lowercased()
            guard let template = FeedLinks.resolveTemplate(element.attribute("template"), against: base),
                  template.contains("{searchTerms") else { continue }
            let rank: Int
            if type.hasPrefix("application/atom+xml") {
                rank = type.contains("acquisition") ? 0 : 1
            } else if type.hasPrefix("application/opds+json") {
                rank = 2
            } else {
                continue  // HTML, RSS, suggestions: not a catalog page
            }
            if best == nil || rank < best!.rank { best = (rank, template) }
        }
        guard let best else {
            throw FeedError("the OpenSearch description at \(url.absoluteString) has no Atom or OPDS search URL")
        }
        return best.template
    }

    /// A search template with `terms` written in: OpenSearch parameters (`{searchTerms}`, the
    /// optional `{startPage?}` and friends left out, the required ones given their defaults)
    /// and RFC 6570 expressions (`{query}`, `{?query,title}`, `{&query}`), `query` and
    /// `searchTerms` meaning the terms, the other variables undefined. Nil when the result is
    /// not an http(s) (or, for a local catalog, file) URL.
    public static func url(template: String, terms: String) -> URL? {
        let encoded = terms.trimmingCharacters(in: .whitespacesAndNewlines).percentEncodedUnreserved
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                rest = rest[open...]
                break
            }
            out += expand(rest[rest.index(after: open)..<close], terms: encoded)
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        guard let url = URL(string: out), let scheme = url.scheme?.lowercased() else { return nil }
        switch scheme {
        case "http", "https": return url.host?.isEmpty == false ? url : nil
        case "file": return url
        default: return nil
        }
    }


    /// One `{…}` expression.
    private static func expand(_ expression: Substring, terms: String) -> String {
        var body = expression.trimmingCharacters(in: .whitespaces)
        let operators: Set<Character> = ["?", "&", "+", "#", "/", ";", "."]
        var op: Character?
        if let first = body.first, operators.contains(first) {
            op = first
            body.removeFirst()
        }
        let names = body.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        func value(_ name: String) -> String? {
            // OpenSearch: a prefixed parameter (`opensearch:searchTerms`) or optional (`startPage?`).
            var bare = name
            let optional = bare.hasSuffix("?")
            if optional { bare.removeLast() }
            if let colon = bare.lastIndex(of: ":") { bare = String(bare[bare.index(after: colon)...]) }
            bare = String(bare.prefix { $0 != "*" })
            switch bare {
            case "searchTerms", "query": return terms
            case "startPage", "startIndex": return optional ? nil : "1"
            case "count": return optional ? nil : "20"
            case "language", "inputEncoding", "outputEncoding":
                return optional ? nil : bare == "language" ? "*" : "UTF-8"
            default: return nil
            }
        }
        switch op {
        case "?", "&":
            let pairs = names.compactMap { name in value(name).map { "\(name.prefix { $0 != "*" && $0 != ":" })=\($0)" } }
            guard !pairs.isEmpty else { return "" }
            return String(op!) + pairs.joined(separator: "&")
        case "/":
            return names.compactMap(value).map { "/" + $0 }.joined()
        default:
            return names.compactMap(value).joined(separator: ",")
        }
    }
}

extension StringProtocol {
    /// The text as a URL's query value or path segment: every byte but RFC 3986's unreserved
    /// ones (ASCII letters and digits, `-._~`) percent-encoded.
    public var percentEncodedUnreserved: String {
        String(self).addingPercentEncoding(withAllowedCharacters: unreservedCharacters) ?? ""
    }
}

private let unreservedCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
