import Foundation
import Markup

/// Namespaces the readers look for.
enum NS {
    static let atom = "http://www.w3.org/2005/Atom"
    /// Atom namespaces seen in real feeds: the real one, written with https, and Atom 0.3.
    static let atomVariants: Set<String> = [atom, "https://www.w3.org/2005/Atom", "http://purl.org/atom/ns#"]
    static let newsstand = "http://itunes.apple.com/2011/Newsstand"
    /// Our own extension: `<nst:binding type= edge=>`, `<nst:push href=>`, `sha256` on links.
    static let nst = "urn:x-newsstand:1"
    static let opdsCatalog = "http://opds-spec.org/2010/catalog"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let dcTerms = "http://purl.org/dc/terms/"
    static let media = "http://search.yahoo.com/mrss/"
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let rss1 = "http://purl.org/rss/1.0/"
    static let contentModule = "http://purl.org/rss/1.0/modules/content/"
}

extension MarkupElement {
    /// First child with this local name in one of the namespaces, or written with this
    /// prefix when the prefix was never declared (`dc:date` without `xmlns:dc`).
    func first(_ localName: String, in namespaces: Set<String>, prefix: String? = nil) -> Self? {
        children.first { child in
            guard child.localName == localName else { return false }
            if let uri = child.namespaceURI { return namespaces.contains(uri) }
            return prefix != nil && child.name == "\(prefix!):\(localName)"
        }
    }

    /// First child with this name and no prefix (RSS elements, whatever the default namespace).
    func plain(_ name: String) -> Self? {
        children.first { $0.name == name }
    }

    /// The base URL for links inside this element: its `xml:base` resolved against the parent's.
    func base(inside parent: LinkBase) -> LinkBase {
        guard let value = attribute("xml:base") else { return parent }
        return FeedLinks.resolve(value, against: parent).map(LinkBase.init) ?? parent
    }

    /// The cover in this element's `<news:cover_art_icons>`, if it has one.
    func newsstandCover(base: LinkBase) -> URL? {
        first("cover_art_icons", in: [NS.newsstand], prefix: "news").flatMap { AtomReader.newsstandCover($0, base: base) }
    }
}
