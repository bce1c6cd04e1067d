import Foundation
import Markup

/// Atom 1.0 (and 0.3) in its three uses: a Newsstand feed, an OPDS 1.x catalog, and a plain
/// Atom feed whose entries carry archive enclosures. Entries are read one at a time as the
/// parser hands them over (`consume`); the feed's own elements at the end (`finish`).
struct AtomReader {
    let url: URL
    private var root: XMLElement?
    /// The Atom namespaces this feed uses (the known ones plus whatever its root declares).
    private var atom = NS.atomVariants
    private var base: LinkBase
    private var collector = EntryCollector()
    private var navigation: [NavigationLink] = []
    private var sawNewsstand = false
    private var sawOPDS = false

    init(url: URL, sink: EntrySink? = nil) {
        self.url = url
        base = LinkBase(url)
        collector.sink = sink
    }

    private mutating func begin(_ root: XMLElement) {
        guard self.root !== root else { return }
        self.root = root
        if let own = root.namespaceURI { atom.insert(own) }
        base = root.base(inside: LinkBase(url))
        sawNewsstand = root.declares(NS.newsstand)
        sawOPDS = root.declares(NS.opdsCatalog)
    }

    /// Reads one `<entry>` of the feed whose root is `root`.
    mutating func consume(_ entry: some MarkupElement, root: XMLElement) {
        begin(root)
        read(entry, base: base)
    }

    /// Reads the feed's own elements (and any entry not handed over yet) and settles the
    /// format: Newsstand when the Newsstand namespace appears, OPDS when OPDS links do.
    mutating func finish(_ root: XMLElement) -> FeedDocument {
        begin(root)
        for entry in root.children where entry.localName == "entry" { read(entry, base: base) }
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
            noteOPDS(rel: rel, type: link.attribute("type"))
            let href = FeedLinks.resolve(link.attribute("href"), against: link.base(inside: base))
            if rel == "next", publication.nextPage == nil { publication.nextPage = href }
            if NewsstandExtension.isPushLink(rel: rel, type: link.attribute("type")), publication.pushURL == nil {
                publication.pushURL = href
            }
            if rel == "alternate", publication.siteURL == nil, Self.isPage(link.attribute("type")) {
                publication.siteURL = PublicationInfo.webPage(href)
            }
        }
        let format: FeedFormat = sawNewsstand ? .newsstandAtom : sawOPDS ? .opds1 : .atom
        if format == .opds1 { publication.links = navigation }
        let feedDate = FeedDates.parse(atomChild(root, "updated")?.text)
            ?? FeedDates.parse(atomChild(root, "modified")?.text)
        let finished = collector.finish(feedDate: feedDate, keepsEntriesWithoutContent: format == .newsstandAtom,
                                        itemWord: "entries")
        return FeedDocument(format: format, publication: publication, entries: finished.entries,
                            articles: finished.articles.inLanguage(FeedLanguage.tag(root.attribute("xml:lang"))),
                            problems: problems + finished.problems)
    }

    /// Whether a feed's `alternate` link is its web site: a page (HTML, or no type said),
    /// not the same feed in another format.
    private static func isPage(_ type: String?) -> Bool {
        guard let type = FeedText.line(type)?.lowercased() else { return true }
        return type.hasPrefix("text/html") || type.hasPrefix("application/xhtml")
    }

    private mutating func noteOPDS(rel: String, type: String?) {
        if !sawOPDS, rel.hasPrefix("http://opds-spec.org/") || (type ?? "").containsASCII("profile=opds-catalog") { sawOPDS = true }
    }

    private mutating func read<Element: MarkupElement>(_ entry: Element, base parentBase: LinkBase) {
        let base = entry.base(inside: parentBase)
        var draft = EntryDraft()
        // One pass over the children: the first of each kind counts.
        var id, title, published, updated, summary, content, endDate, icons, dcDate: Element?
        var acquisitions: [ContentLink] = []
        var enclosures: [ContentLink] = []
        var images: [Element] = [], thumbnails: [Element] = [], catalogs: [Element] = []
        var alternate: Element?, author: Element?
        var authors: [Element] = []
        var article = ArticleDraft(baseURL: base.url)
        for child in entry.children {
            switch (vocabulary(of: child), child.localName) {
            case (.atom, "id"): id = id ?? child
            case (.atom, "title"): title = title ?? child
            case (.atom, "published"), (.atom, "issued"): published = published ?? child
            case (.atom, "updated"), (.atom, "modified"): updated = updated ?? child
            case (.atom, "summary"): summary = summary ?? child
            case (.atom, "content"): content = content ?? child
            case (.atom, "author"):
                author = author ?? child
                authors.append(child)
            case (.atom, "category"): article.addCategory(child.attribute("label") ?? child.attribute("term"))
            case (.dublinCore, "date"), (.dublinCore, "issued"): dcDate = dcDate ?? child
            case (.newsstand, "end_date"):
                endDate = endDate ?? child
                sawNewsstand = true
            case (.newsstand, "cover_art_icons"):
                icons = icons ?? child
                sawNewsstand = true
            case (.newsstand, _):
                sawNewsstand = true
            case (.atom, "link"):
                let rel = FeedText.line(child.attribute("rel")) ?? "alternate"
                noteOPDS(rel: rel, type: child.attribute("type"))
                if rel.hasPrefix("http://opds-spec.org/acquisition") || rel == "enclosure" {
                    guard let href = FeedLinks.resolve(child.attribute("href"), against: child.base(inside: base)) else { continue }
                    let link = ContentLink(url: href, type: child.attribute("type"), length: child.attribute("length"),
                                           sha256: child.attribute("sha256"))
                    if rel == "enclosure" { enclosures.append(link) } else { acquisitions.append(link) }
                } else if AtomReader.imageRels.contains(rel) {
                    images.append(child)
                } else if AtomReader.thumbnailRels.contains(rel) {
                    thumbnails.append(child)
                } else if AtomReader.isCatalog(rel: rel, type: child.attribute("type")) {
                    catalogs.append(child)
                } else if rel == "alternate", alternate == nil {
                    alternate = child
                }
            default: continue
            }
        }
        draft.id = FeedText.line(id?.text)
        draft.title = text(title)
        draft.date = FeedDates.parse(published?.text) ?? FeedDates.parse(dcDate?.text) ?? FeedDates.parse(updated?.text)
        draft.summary = EntryCollector.summary(text(summary) ?? text(content))
        draft.endDate = FeedDates.parse(endDate?.text)
        if let icons { draft.coverURL = AtomReader.newsstandCover(icons, base: base) }
        // Links are resolved only when they are used.
        for image in images where draft.coverURL == nil {
            draft.coverURL = FeedLinks.resolve(image.attribute("href"), against: image.base(inside: base))
        }
        for thumbnail in thumbnails where draft.thumbnailURL == nil {
            draft.thumbnailURL = FeedLinks.resolve(thumbnail.attribute("href"), against: thumbnail.base(inside: base))
        }
        var catalogLink: (url: URL, rel: String, type: String?)?
        if acquisitions.isEmpty {
            for catalog in catalogs where catalogLink == nil {
                if let href = FeedLinks.resolve(catalog.attribute("href"), against: catalog.base(inside: base)) {
                    catalogLink = (href, FeedText.line(catalog.attribute("rel")) ?? "alternate", FeedText.line(catalog.attribute("type")))
                }
            }
        }
        if let content, let src = content.attribute("src"),
           let href = FeedLinks.resolve(src, against: content.base(inside: base)) {
            enclosures.append(ContentLink(url: href, type: content.attribute("type")))
        }
        draft.content = ContentLink.best(acquisitions) ?? ContentLink.best(enclosures)
        if draft.content != nil {
            // An issue's author(s): a catalog's book names them (calibre, calibre-web).
            draft.authors = authors.compactMap { AtomReader.name(of: $0) }
        }
        if draft.content == nil {
            article.link = FeedLinks.resolve(alternate?.attribute("href"), against: alternate.map { $0.base(inside: base) } ?? base)
            article.author = author.flatMap { AtomReader.name(of: $0) }
            // The content's own `xml:base` is what its relative links mean.
            if let body = content ?? summary, body.attribute("src") == nil {
                article.html = body.allText
                article.baseURL = body.base(inside: base).url
                article.hasContent = content != nil
            }
            // `xml:lang` is inherited: the content's, else the entry's (else the feed's, at the end).
            article.language = FeedLanguage.tag((content ?? summary)?.attribute("xml:lang")) ?? FeedLanguage.tag(entry.attribute("xml:lang"))
            for enclosure in enclosures where (enclosure.type ?? "").hasPrefix("image/") { article.addPicture(enclosure.url) }
            for image in images + thumbnails { article.addPicture(FeedLinks.resolve(image.attribute("href"), against: image.base(inside: base))) }
            draft.article = article
        }

        // Kept as navigation if the feed turns out to be an OPDS catalog.
        if draft.content == nil, acquisitions.isEmpty, let catalog = catalogLink {
            navigation.append(NavigationLink(title: draft.title ?? catalog.url.absoluteString, url: catalog.url,
                                             rel: catalog.rel, type: catalog.type, summary: draft.summary))
            return
        }
        if draft.content == nil, !acquisitions.isEmpty {
            let types = Set(acquisitions.compactMap(\.type)).sorted().joined(separator: ", ")
            collector.note("entry \"\(draft.title ?? draft.id ?? "?")\" offers only \(types.isEmpty ? "unknown types" : types), not zip, EPUB, CBZ or PDF; skipped")
            return
        }
        collector.add(draft)
    }

    enum Vocabulary { case atom, newsstand, dublinCore, other }

    /// Which vocabulary an element belongs to: by namespace, or by prefix when the prefix was
    /// never declared; unqualified elements of a feed without a namespace count as Atom.
    private func vocabulary(of element: some MarkupElement) -> Vocabulary {
        if let uri = element.namespaceURI {
            if uri == root?.namespaceURI || atom.contains(uri) { return .atom }
            if uri == NS.newsstand { return .newsstand }
            if uri == NS.dc || uri == NS.dcTerms { return .dublinCore }
            return .other
        }
        if element.name == element.localName { return .atom }
        if element.name.hasPrefix("news:") { return .newsstand }
        if element.name.hasPrefix("dc:") || element.name.hasPrefix("dcterms:") { return .dublinCore }
        return .other
    }

    static let imageRels: Set<String> = ["http://opds-spec.org/image", "http://opds-spec.org/cover", "x-stanza-cover-image"]
    static let thumbnailRels: Set<String> = [
        "http://opds-spec.org/image/thumbnail", "http://opds-spec.org/thumbnail", "x-stanza-cover-image-thumbnail",
    ]

    static func isCatalog(rel: String, type: String?) -> Bool {
        let type = type ?? ""
        return type.containsASCII("profile=opds-catalog") || type.hasPrefix("application/atom+xml")
            || rel == "subsection" || rel.hasPrefix("http://opds-spec.org/sort/") || rel == "http://opds-spec.org/featured"
            || rel == "http://opds-spec.org/recommended" || rel == "http://opds-spec.org/crawlable"
    }

    /// The cover in `<news:cover_art_icons>`: the `SOURCE` size, else the last one listed.
    /// An Atom `author`'s name (its `name` child, else all its text), as one line.
    static func name<Element: MarkupElement>(of author: Element) -> String? {
        FeedText.fromHTML(author.children.first { $0.localName == "name" }?.allText ?? author.allText)
    }

    static func newsstandCover<Element: MarkupElement>(_ icons: Element, base: LinkBase) -> URL? {
        var chosen: Element?
        for icon in icons.children where icon.localName == "cover_art_icon" {
            chosen = icon
            if icon.attribute("size")?.uppercased() == "SOURCE" { break }
        }
        return FeedLinks.resolve(chosen?.attribute("src"), against: icons.base(inside: base))
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
    private func text(_ element: (some MarkupElement)?) -> String? {
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
