import Foundation
import Markup

/// EPUB 2 and 3: container → package document → metadata, manifest, spine, navigation.
enum EPUBBook {
    private struct Item {
        var id: String
        var path: String
        var mediaType: String
        var properties: [String]
        var fallback: String?
    }

    static func isEPUB(_ tree: ContentTree) -> Bool {
        if containerPath(tree) != nil { return true }
        guard let data = tree.data("mimetype", limit: 256) else { return false }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "application/epub+zip"
    }

    static func open(_ tree: ContentTree) throws -> IssueContent {
        let packagePath = try packageDocument(tree)
        guard let data = tree.data(packagePath), let package = XMLReading.root(of: data), package.localName == "package" else {
            throw ArchiveError(.invalidContent, "EPUB package document '\(packagePath)' is not readable XML")
        }
        var items: [String: Item] = [:]
        var manifestOrder: [Item] = []
        for element in package.first("manifest")?.all("item") ?? [] {
            guard let id = element.attribute("id"), let href = element.attribute("href"),
                  let resolved = BookPath.resolve(href, from: packagePath) else { continue }
            let path = BookPath.withoutFragment(resolved)
            let item = Item(id: id, path: tree.existing(path) ?? path,
                            mediaType: element.attribute("media-type")?.lowercased() ?? MediaType.of(path),
                            properties: (element.attribute("properties") ?? "").split(separator: " ").map(String.init),
                            fallback: element.attribute("fallback"))
            if items[id] == nil {
                items[id] = item
                manifestOrder.append(item)
            }
        }

        var content = IssueContent(format: .epub)
        if let metadata = package.first("metadata") {
            content.metadata = self.metadata(metadata)
        }
        let spine = package.first("spine")
        content.rightToLeft = spine?.attribute("page-progression-direction") == "rtl"
        content.readingOrder = readingOrder(spine, items: items, manifestOrder: manifestOrder, tree: tree)
        guard !content.readingOrder.isEmpty else {
            throw ArchiveError(.invalidContent, "EPUB has nothing to read: its spine names no document in the book")
        }
        try refuseDRM(tree, readingOrder: content.readingOrder, packagePath: packagePath)
        content.coverImage = cover(package, packagePath: packagePath, items: items, manifestOrder: manifestOrder, tree: tree)
        content.tableOfContents = onDisk(navigation(package, spine: spine, items: items, manifestOrder: manifestOrder, tree: tree),
                                         tree: tree)
        if content.tableOfContents.isEmpty {
            content.tableOfContents = content.readingOrder.map {
                TOCEntry(title: PlainIssue.documentTitle($0.path, tree: tree), path: $0.path)
            }
        }
        return content
    }

    /// Font obfuscation (IDPF, Adobe) is harmless and common; any other encryption of an
    /// article means DRM, and the text would be unreadable bytes.
    private static func refuseDRM(_ tree: ContentTree, readingOrder: [Resource], packagePath: String) throws {
        let bookRoot = String(packagePath.prefix(upTo: packagePath.firstIndex(of: "/") ?? packagePath.startIndex))
        let candidates = [tree.existing("META-INF/encryption.xml"),
                          bookRoot.isEmpty ? nil : tree.existing(bookRoot + "/META-INF/encryption.xml")]
        guard let path = candidates.compactMap({ $0 }).first, let data = tree.data(path),
              let root = XMLReading.root(of: data) else { return }
        let fontObfuscation: Set<String> = ["http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"]
        let articles = Set(readingOrder.map { $0.path.lowercased() })
        let containerRoot = String(path.dropLast("META-INF/encryption.xml".count))
        for encrypted in root.descendants("EncryptedData") {
            let algorithm = encrypted.descendants("EncryptionMethod").first?.attribute("Algorithm") ?? ""
            guard !fontObfuscation.contains(algorithm),
                  let uri = encrypted.descendants("CipherReference").first?.attribute("URI"),
                  let target = BookPath.resolve(uri, from: containerRoot + "x") else { continue }
            if articles.contains(BookPath.withoutFragment(target).lowercased()) {
                throw ArchiveError(.encrypted, "this EPUB is locked with DRM: its articles are encrypted and cannot be read")
            }
        }
    }

    /// Links spelled with another case than the file (common in books made on macOS or
    /// Windows) point at the file as it is on disk; links to nothing are dropped.
    private static func onDisk(_ entries: [TOCEntry], tree: ContentTree) -> [TOCEntry] {
        entries.compactMap { entry in
            var entry = entry
            entry.children = onDisk(entry.children, tree: tree)
            let file = BookPath.withoutFragment(entry.path)
            if let existing = tree.existing(file) {
                entry.path = existing + entry.path.dropFirst(file.count)
            } else if let first = entry.children.first {
                entry.path = first.path
            } else {
                return nil
            }
            return entry
        }
    }

    /// META-INF/container.xml at the root, or inside the one folder that some zip tools wrap
    /// a book in (paths then stay relative to the extracted root).
    private static func containerPath(_ tree: ContentTree) -> String? {
        if let root = tree.existing("META-INF/container.xml") { return root }
        let nested = tree.files.filter {
            $0.lowercased().hasSuffix("/meta-inf/container.xml") && $0.split(separator: "/").count == 3
        }
        return nested.count == 1 ? nested[0] : nil
    }

    /// The first rootfile of META-INF/container.xml (preferring the OPF media type), else the
    /// only .opf file in the book.
    static func packageDocument(_ tree: ContentTree) throws -> String {
        if let containerPath = containerPath(tree), let data = tree.data(containerPath),
           let container = XMLReading.root(of: data) {
            let bookRoot = String(containerPath.dropLast("META-INF/container.xml".count))
            let rootfiles = container.descendants("rootfile")
            let chosen = rootfiles.first { $0.attribute("media-type") == "application/oebps-package+xml" } ?? rootfiles.first
            if let fullPath = chosen?.attribute("full-path"),
               let path = BookPath.normalize((bookRoot + fullPath).split(separator: "/").map(String.init)),
               let existing = tree.existing(path.removingPercentEncoding ?? path) ?? tree.existing(path) {
                return existing
            }
        }
        let packages = tree.files.filter { $0.lowercased().hasSuffix(".opf") }
        if let only = packages.first, packages.count == 1 { return only }
        throw ArchiveError(.invalidContent, "EPUB has no package document: META-INF/container.xml names no .opf file in the book")
    }

    private static func metadata(_ element: Markup.XMLElement) -> IssueMetadata {
        func texts(_ name: String) -> [String] {
            element.all(name).map { $0.allText.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        }
        var metadata = IssueMetadata()
        metadata.title = texts("title").first
        metadata.creators = texts("creator")
        metadata.date = texts("date").first
        metadata.language = texts("language").first
        metadata.publisher = texts("publisher").first
        metadata.summary = texts("description").first.map { HTMLScan.text(of: $0) }
        for meta in element.all("meta") {
            let name = meta.attribute("name"), property = meta.attribute("property")
            let value = (meta.attribute("content") ?? meta.allText).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !value.isEmpty else { continue }
            if name == "calibre:series" || property == "belongs-to-collection" {
                metadata.series = metadata.series ?? value
            } else if name == "calibre:series_index" || property == "group-position" {
                metadata.number = metadata.number ?? value
            }
        }
        return metadata
    }

    /// Spine items that are documents, following manifest fallbacks for those that are not;
    /// without a usable spine, every document in manifest order.
    private static func readingOrder(_ spine: Markup.XMLElement?, items: [String: Item], manifestOrder: [Item],
                                     tree: ContentTree) -> [Resource] {
        // An (X)HTML document on the item's fallback chain reads best; an SVG page is taken
        // when the chain offers nothing else.
        func readable(_ item: Item) -> Item? {
            var current: Item? = item
            var seen: Set<String> = []
            var svgPage: Item?
            while let candidate = current, seen.insert(candidate.id).inserted {
                if isDocument(candidate.mediaType) && tree.contains(candidate.path) {
                    if candidate.mediaType != "image/svg+xml" { return candidate }
                    svgPage = svgPage ?? candidate
                }
                current = candidate.fallback.flatMap { items[$0] }
            }
            return svgPage
        }
        var order: [Resource] = []
        for itemref in spine?.all("itemref") ?? [] {
            guard let id = itemref.attribute("idref"), let item = items[id], let document = readable(item) else { continue }
            order.append(Resource(path: document.path, mediaType: document.mediaType))
        }
        if order.isEmpty {
            order = manifestOrder.filter { isDocument($0.mediaType) && tree.contains($0.path) && !$0.properties.contains("nav") }
                .map { Resource(path: $0.path, mediaType: $0.mediaType) }
        }
        return order
    }

    /// Content documents the spine may name. EPUB 3 allows SVG pages (fixed-layout books
    /// and comics wrap each page's picture in one); TextLayout draws their images.
    private static func isDocument(_ type: String) -> Bool {
        type == "application/xhtml+xml" || type == "text/html" || type == "application/x-dtbook+xml"
            || type == "image/svg+xml"
    }

    /// `properties="cover-image"` (EPUB 3), else `<meta name="cover" content="id">` (EPUB 2), else
    /// the guide's cover reference if it is an image, else an image whose id or name says cover.
    private static func cover(_ package: Markup.XMLElement, packagePath: String, items: [String: Item], manifestOrder: [Item],
                              tree: ContentTree) -> String? {
        func image(_ item: Item?) -> String? {
            guard let item, item.mediaType.hasPrefix("image/"), tree.contains(item.path) else { return nil }
            return item.path
        }
        if let found = image(manifestOrder.first { $0.properties.contains("cover-image") }) { return found }
        for meta in package.first("metadata")?.all("meta") ?? [] where meta.attribute("name") == "cover" {
            guard let value = meta.attribute("content") else { continue }
            if let found = image(items[value]) { return found }
            let path = BookPath.resolve(value, from: packagePath).map(BookPath.withoutFragment)
            if let found = image(manifestOrder.first { $0.path == path }) { return found }
        }
        for reference in package.first("guide")?.all("reference") ?? [] where reference.attribute("type") == "cover" {
            if let href = reference.attribute("href"), let path = BookPath.resolve(href, from: packagePath),
               MediaType.isImage(path), let existing = tree.existing(BookPath.withoutFragment(path)) {
                return existing
            }
        }
        return image(manifestOrder.first { $0.mediaType.hasPrefix("image/") && ($0.id.lowercased().contains("cover") || $0.path.lowercased().contains("cover")) })
    }

    private static func navigation(_ package: Markup.XMLElement, spine: Markup.XMLElement?, items: [String: Item],
                                   manifestOrder: [Item], tree: ContentTree) -> [TOCEntry] {
        if let nav = manifestOrder.first(where: { $0.properties.contains("nav") }),
           let data = tree.data(nav.path), let root = XMLReading.root(of: data) {
            let navs = root.descendants("nav")
            let toc = navs.first { ($0.attribute("type") ?? "").split(separator: " ").contains("toc") } ?? navs.first
            if let list = toc?.first("ol") {
                let entries = navList(list, document: nav.path, depth: 0)
                if !entries.isEmpty { return entries }
            }
        }
        let ncxItem = spine?.attribute("toc").flatMap { items[$0] }
            ?? manifestOrder.first { $0.mediaType == "application/x-dtbncx+xml" }
        if let ncx = ncxItem, let data = tree.data(ncx.path), let root = XMLReading.root(of: data),
           let map = root.first("navMap") {
            return navPoints(map, document: ncx.path, depth: 0)
        }
        return []
    }

    private static func navList(_ list: Markup.XMLElement, document: String, depth: Int) -> [TOCEntry] {
        guard depth < 32 else { return [] }
        var entries: [TOCEntry] = []
        for item in list.all("li") {
            let label = item.first("a") ?? item.first("span")
            let children = item.first("ol").map { navList($0, document: document, depth: depth + 1) } ?? []
            let title = label.map { $0.allText.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ") } ?? ""
            let path = label?.attribute("href").flatMap { BookPath.resolve($0, from: document) }
            if let path {
                entries.append(TOCEntry(title: title.isEmpty ? path : title, path: path, children: children))
            } else if let first = children.first {
                // A heading without a link of its own opens its first child.
                entries.append(TOCEntry(title: title, path: first.path, children: children))
            }
        }
        return entries
    }

    private static func navPoints(_ parent: Markup.XMLElement, document: String, depth: Int) -> [TOCEntry] {
        guard depth < 32 else { return [] }
        return parent.all("navPoint").compactMap { point in
            let title = point.first("navLabel")?.first("text")?.allText.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            let children = navPoints(point, document: document, depth: depth + 1)
            guard let path = point.first("content")?.attribute("src").flatMap({ BookPath.resolve($0, from: document) })
                    ?? children.first?.path else { return nil }
            return TOCEntry(title: title.isEmpty ? path : title, path: path, children: children)
        }
    }
}
