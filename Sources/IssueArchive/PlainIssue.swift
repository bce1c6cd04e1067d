import Foundation

/// A plain zip of HTML, XHTML, Markdown, text and images. The order comes from a Readium
/// `manifest.json`, else from the links of an `index.html`, else from the file names.
enum PlainIssue {
    static let indexNames = ["index.html", "index.xhtml", "index.htm"]

    static func open(_ tree: ContentTree) throws -> IssueContent {
        let documents = tree.files.filter { MediaType.isDocument(MediaType.of($0)) }
        let images = tree.files.filter { MediaType.isImage($0) }
        guard !documents.isEmpty || !images.isEmpty else {
            throw ArchiveError(.invalidContent, "archive has no articles or pictures (HTML, XHTML, Markdown, text or images)")
        }
        var content = IssueContent(format: .zip)
        content.coverImage = images.first { ($0 as NSString).lastPathComponent.lowercased().hasPrefix("cover.") }

        if let manifest = try manifest(tree) {
            content.metadata = manifest.metadata
            content.readingOrder = manifest.readingOrder
            content.tableOfContents = manifest.toc
            content.coverImage = manifest.cover ?? content.coverImage
        } else if let index = index(in: documents) {
            let html = String(decoding: tree.data(index) ?? Data(), as: UTF8.self)
            content.metadata.title = HTMLScan.title(in: html)
            var linked: [String] = []
            for link in HTMLScan.links(in: html) {
                guard let target = BookPath.resolve(link.href, from: index),
                      let file = tree.existing(BookPath.withoutFragment(target)),
                      MediaType.isDocument(MediaType.of(file)), file != index else { continue }
                if !linked.contains(file) { linked.append(file) }
                let fragment = target.firstIndex(of: "#").map { String(target[$0...]) } ?? ""
                content.tableOfContents.append(TOCEntry(title: link.text.isEmpty ? file : link.text, path: file + fragment))
            }
            let order = linked.isEmpty ? [index] + documents.filter { $0 != index } : linked + documents.filter { !linked.contains($0) && $0 != index }
            content.readingOrder = order.map { Resource(path: $0, mediaType: MediaType.of($0)) }
        } else {
            content.readingOrder = documents.map { Resource(path: $0, mediaType: MediaType.of($0)) }
        }
        if content.readingOrder.isEmpty {
            content.readingOrder = images.map { Resource(path: $0, mediaType: MediaType.of($0)) }
        }
        if content.tableOfContents.isEmpty {
            content.tableOfContents = content.readingOrder.filter { MediaType.isDocument($0.mediaType) }.map {
                TOCEntry(title: documentTitle($0.path, tree: tree), path: $0.path)
            }
        }
        return content
    }

    /// `index.html` at the root, or inside the single top folder many zip tools add.
    private static func index(in documents: [String]) -> String? {
        for name in indexNames {
            if let found = documents.first(where: { $0.lowercased() == name }) { return found }
        }
        for name in indexNames {
            let nested = documents.filter { $0.lowercased().hasSuffix("/" + name) && $0.split(separator: "/").count == 2 }
            if nested.count == 1 { return nested[0] }
        }
        return nil
    }

    static func documentTitle(_ path: String, tree: ContentTree) -> String {
        documentTitle(path, head: tree.data(path, limit: 16 << 10))
    }

    /// The title of a document from its first bytes (`head`): `<title>` or the first `<h1>`,
    /// a Markdown heading, else the file's name.
    static func documentTitle(_ path: String, head: Data?) -> String {
        let type = MediaType.of(path)
        if type == "text/html" || type == "application/xhtml+xml", let data = head,
           let title = HTMLScan.title(in: String(decoding: data, as: UTF8.self)) {
            return title
        }
        if type == "text/markdown", let data = head {
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix("#") {
                let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                if !title.isEmpty { return title }
            }
        }
        return ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    private struct Manifest {
        var metadata: IssueMetadata
        var readingOrder: [Resource]
        var toc: [TOCEntry]
        var cover: String?
    }

    /// Readium Web Publication Manifest: `metadata`, `readingOrder`, `toc`, `resources`.
    private static func manifest(_ tree: ContentTree) throws -> Manifest? {
        guard let path = tree.existing("manifest.json"), let data = tree.data(path) else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let order = object["readingOrder"] as? [[String: Any]] else { return nil }
        func link(_ item: [String: Any]) -> (path: String, title: String?, type: String?)? {
            guard let href = item["href"] as? String, let resolved = BookPath.resolve(href, from: path) else { return nil }
            return (resolved, item["title"] as? String, item["type"] as? String)
        }
        var readingOrder: [Resource] = []
        for item in order {
            guard let entry = link(item), let file = tree.existing(BookPath.withoutFragment(entry.path)) else { continue }
            readingOrder.append(Resource(path: file, mediaType: entry.type ?? MediaType.of(file)))
        }
        guard !readingOrder.isEmpty else { return nil }
        func toc(_ items: [[String: Any]], depth: Int) -> [TOCEntry] {
            guard depth < 16 else { return [] }
            return items.compactMap { item in
                guard let entry = link(item) else { return nil }
                let children = (item["children"] as? [[String: Any]]).map { toc($0, depth: depth + 1) } ?? []
                return TOCEntry(title: entry.title ?? entry.path, path: entry.path, children: children)
            }
        }
        var metadata = IssueMetadata()
        let meta = object["metadata"] as? [String: Any] ?? [:]
        metadata.title = localized(meta["title"])
        metadata.language = (meta["language"] as? String) ?? (meta["language"] as? [String])?.first
        metadata.date = meta["published"] as? String
        metadata.summary = meta["description"] as? String
        metadata.creators = contributors(meta["author"])
        metadata.publisher = contributors(meta["publisher"]).first
        var cover: String?
        for item in (object["resources"] as? [[String: Any]] ?? []) + (object["links"] as? [[String: Any]] ?? []) {
            let rel = item["rel"] as? String ?? (item["rel"] as? [String])?.first
            if rel == "cover", let entry = link(item), let file = tree.existing(entry.path) { cover = file }
        }
        return Manifest(metadata: metadata, readingOrder: readingOrder,
                        toc: toc(object["toc"] as? [[String: Any]] ?? [], depth: 0), cover: cover)
    }

    private static func localized(_ value: Any?) -> String? {
        if let string = value as? String { return string }
        if let map = value as? [String: String] { return map["en"] ?? map.values.sorted().first }
        return nil
    }

    private static func contributors(_ value: Any?) -> [String] {
        if let name = value as? String { return [name] }
        if let object = value as? [String: Any] { return localized(object["name"]).map { [$0] } ?? [] }
        if let array = value as? [Any] { return array.flatMap { contributors($0) } }
        return []
    }
}
