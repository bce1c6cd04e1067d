import Foundation
import Markup

/// Atom 1.0 (and 0.3) in its three uses: a Newsstand feed, an OPDS 1.x catalog, and a plain
/// Atom feed whose entries carry archive enclosures.
struct AtomReader {
    let root: XMLElement
    let url: URL
    let format: FeedFormat
    /// The Atom namespaces this feed uses (the known ones plus whatever its root declares).
    let atom: Set<String>

    init(root: XMLElement, url: URL) {
        self.root = root
        self.url = url
        var atom = NS.atomVariants
        if let own = root.namespaceURI { atom.insert(own) }
        self.atom = atom
        format = AtomReader.detect(root, atom: atom)
    }

    private static func detect(_ root: XMLElement, atom: Set<String>) -> FeedFormat {
        let entries = root.children.filter { $0.localName == "entry" }
        if root.declares(NS.newsstand) || entries.contains(where: { $0.children.contains { $0.namespaceURI == NS.newsstand } }) {
            return .newsstandAtom
        }
        let links = root.children.filter { $0.localName == "link" } + entries.flatMap { $0.children.filter { $0.localName == "link" } }
        if root.declares(NS.opdsCatalog) || links.contains(where: { link in
            (link.attribute("rel") ?? "").hasPrefix("http://opds-spec.org/")
                || (link.attribute("type") ?? "").contains("profile=opds-catalog")
        }) {
            return .opds1
        }
        return .atom
    }

    func read() -> FeedDocument {
        let base = root.base(inside: LinkBase(url))
        var collector = EntryCollector(keepsEntriesWithoutContent: format == .newsstandAtom)
        var publication = PublicationInfo(
            title: text(atomChild(root, "title")) ?? url.deletingPathExtension().lastPathComponent,
            subtitle: text(atomChild(root, "subtitle")) ?? text(atomChild(root, "tagline")),
            id: FeedText.line(atomChild(root, "id")?.text),
            coverURL: FeedLinks.resolve(atomChild(root, "logo")?.text, against: base)
                ?? FeedLinks.resolve(root.first("cover", in: [NS.nst], prefix: "nst")?.attribute("href"), against: base)
                ?? FeedLinks.resolve(atomChild(root, "icon")?.text, against: base))
        var problems: [String] = []
        NewsstandExtension.apply(to: &publication, from: root, base: base, problems: &problems)

        for link in root.children where link.localName == "link" && atom.contains(link.namespaceURI ?? NS.atom) {
            let rel = FeedText.line(link.attribute("rel")) ?? "alternate"
            let href = FeedLinks.resolve(link.attribute("href"), against: link.base(inside: base))
            if rel == "next", publication.nextPage == nil { publication.nextPage = href }
            if NewsstandExtension.isPushLink(rel: rel, type: link.attribute("type")), publication.pushURL == nil {
                publication.pushURL = href
            }
        }

        for entry in root.children where entry.localName == "entry" {
            read(entry, base: base, into: &collector, navigation: &publication.links)
        }
        let feedDate = FeedDates.parse(atomChild(root, "updated")?.text)
            ?? FeedDates.parse(atomChild(root, "modified")?.text)
        let finished = collector.finish(feedDate: feedDate, itemWord: "entries")
        return FeedDocument(format: format, publication: publication, entries: finished.entries,
                            problems: problems + finished.problems)
    }

    private func read(_ entry: XMLElement, base parentBase: LinkBase, into collector: inout EntryCollector,
                      navigation: inout [NavigationLink]) {
        let base = entry.base(inside: parentBase)
        var draft = EntryDraft()
        draft.id = FeedText.line(atomChild(entry, "id")?.text)
        draft.title = text(atomChild(entry, "title"))
        let published = atomChild(entry, "published") ?? atomChild(entry, "issued")
            ?? entry.first("date", in: [NS.dc, NS.dcTerms], prefix: "dc") ?? entry.first("issued", in: [NS.dcTerms])
        let updated = atomChild(entry, "updated") ?? atomChild(entry, "modified")
        draft.date = FeedDates.parse(published?.text) ?? FeedDates.parse(updated?.text)
        draft.summary = EntryCollector.summary(text(atomChild(entry, "summary")) ?? text(atomChild(entry, "content")))
        draft.endDate = FeedDates.parse(entry.first("end_date", in: [NS.newsstand], prefix: "news")?.text)

        draft.coverURL = entry.newsstandCover(base: base)

        var acquisitions: [ContentLink] = []
        var enclosures: [ContentLink] = []
        var catalogLink: (url: URL, rel: String, type: String?)?
        for link in entry.children where link.localName == "link" && atom.contains(link.namespaceURI ?? NS.atom) {
            let rel = FeedText.line(link.attribute("rel")) ?? "alternate"
            let type = FeedText.line(link.attribute("type"))
            guard let href = FeedLinks.resolve(link.attribute("href"), against: link.base(inside: base)) else { continue }
            switch rel {
            case _ where rel.hasPrefix("http://opds-spec.org/acquisition"):
                acquisitions.append(ContentLink(url: href, type: type, length: link.attribute("length"), sha256: link.attribute("sha256")))
            case "enclosure":
                enclosures.append(ContentLink(url: href, type: type, length: link.attribute("length"), sha256: link.attribute("sha256")))
            case "http://opds-spec.org/image", "http://opds-spec.org/cover", "x-stanza-cover-image":
                if draft.coverURL == nil { draft.coverURL = href }
            case "http://opds-spec.org/image/thumbnail", "http://opds-spec.org/thumbnail", "x-stanza-cover-image-thumbnail":
                if draft.thumbnailURL == nil { draft.thumbnailURL = href }
            default:
                let isCatalog = (type ?? "").contains("profile=opds-catalog") || (type ?? "").hasPrefix("application/atom+xml")
                    || rel == "subsection" || rel.hasPrefix("http://opds-spec.org/sort/") || rel == "http://opds-spec.org/featured"
                    || rel == "http://opds-spec.org/recommended" || rel == "http://opds-spec.org/crawlable"
                if isCatalog, catalogLink == nil { catalogLink = (href, rel, type) }
            }
        }
        if let content = atomChild(entry, "content"), let src = content.attribute("src"),
           let href = FeedLinks.resolve(src, against: content.base(inside: base)) {
            enclosures.append(ContentLink(url: href, type: content.attribute("type")))
        }
        draft.content = ContentLink.best(acquisitions) ?? ContentLink.best(enclosures)

        if draft.content == nil, acquisitions.isEmpty, let catalog = catalogLink, format == .opds1 {
            navigation.append(NavigationLink(title: draft.title ?? catalog.url.absoluteString, url: catalog.url,
                                             rel: catalog.rel, type: catalog.type, summary: draft.summary))
            return
        }
        if draft.content == nil, !acquisitions.isEmpty {
            let types = Set(acquisitions.compactMap(\.type)).sorted().joined(separator: ", ")
            collector.note("entry \"\(draft.title ?? draft.id ?? "?")\" offers only \(types.isEmpty ? "unknown types" : types), not zip, EPUB or CBZ; skipped")
            return
        }
        collector.add(draft)
    }

    /// A child in the Atom namespace, or unqualified in a feed that declares no namespace.
    private func atomChild(_ element: XMLElement, _ name: String) -> XMLElement? {
        element.children.first { child in
            child.localName == name && (child.namespaceURI.map(atom.contains) ?? (child.name == name))
        }
    }

    /// A text construct. `html` has its markup removed and `xhtml` is the div's text; plain
    /// `text` is treated the same way, because real feeds put markup (escaped or in CDATA)
    /// into titles that claim to be plain text.
    private func text(_ element: XMLElement?) -> String? {
        guard let element else { return nil }
        return FeedText.fromHTML(element.allText)
    }
}

/// Our extension elements and push discovery, shared by the XML readers.
enum NewsstandExtension {
    static func apply(to publication: inout PublicationInfo, from container: XMLElement, base: LinkBase, problems: inout [String]) {
        if let binding = container.first("binding", in: [NS.nst], prefix: "nst") {
            Self.binding(type: binding.attribute("type"), edge: binding.attribute("edge"), into: &publication, problems: &problems)
        }
        if let push = container.first("push", in: [NS.nst], prefix: "nst") {
            publication.pushURL = FeedLinks.resolve(push.attribute("href"), against: base)
        }
    }

    static func binding(type: String?, edge: String?, into publication: inout PublicationInfo, problems: inout [String]) {
        if let type = FeedText.line(type)?.lowercased() {
            if ["magazine", "newspaper"].contains(type) { publication.bindingType = type } else {
                problems.append("binding type \"\(type)\" is not magazine or newspaper; ignored")
            }
        }
        if let edge = FeedText.line(edge)?.lowercased() {
            if ["left", "right", "bottom"].contains(edge) { publication.bindingEdge = edge } else {
                problems.append("binding edge \"\(edge)\" is not left, right or bottom; ignored")
            }
        }
    }

    /// A link announcing a server-sent-events channel. A WebSub `hub` is only taken when its
    /// type says it is an event stream: a plain WebSub hub speaks another protocol.
    static func isPushLink(rel: String, type: String?) -> Bool {
        let rels = rel.split(separator: " ").map(String.init)
        if rels.contains("urn:x-newsstand:push") { return true }
        return (rels.contains("hub") || rels.contains("push")) && (type ?? "").lowercased().hasPrefix("text/event-stream")
    }
}
