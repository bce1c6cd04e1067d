import Foundation

/// Highlights written for other tools (`newsstand highlights --format`): Markdown grouped by
/// issue and chapter with the notes (the shape KOReader and bookokrat export), this
/// library's JSON, W3C Web Annotation JSON-LD (what Thorium reads) and calibre's
/// `calibre_highlights` (its viewer's export and import). Each takes the highlights in
/// the order to write them (`ListedHighlight`s, grouped by issue in the order they come).
public enum HighlightExport {
    public enum Format: String, CaseIterable, Sendable {
        case markdown, json, w3c, calibre
    }

    public static func write(_ highlights: [ListedHighlight], as format: Format) throws -> String {
        switch format {
        case .markdown: return markdown(highlights)
        case .json: return try json(highlights)
        case .w3c: return try w3c(highlights)
        case .calibre: return try calibre(highlights)
        }
    }

    // MARK: Markdown

    /// `# Issue`, `## Chapter`, each quote as a block quote, its note below it, then its
    /// colour and date.
    public static func markdown(_ highlights: [ListedHighlight]) -> String {
        var out = ""
        for issue in grouped(highlights) {
            let first = issue[0]
            out += "# \(line(first.issueTitle))\n\n"
            var about = [first.publicationTitle.map(line), day(first.issueDate)].compactMap { $0 }
            about.append("\(issue.count) highlight\(issue.count == 1 ? "" : "s")")
            out += "*" + about.joined(separator: " · ") + "*\n\n"
            var chapter: String??
            for listed in issue {
                let highlight = listed.highlight
                if chapter != .some(highlight.chapter) {
                    chapter = .some(highlight.chapter)
                    out += "## \(line(highlight.chapter ?? "Untitled chapter"))\n\n"
                }
                out += highlight.quote.exact.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { "> " + escapedMarkdown(String($0)) }.joined(separator: "\n") + "\n\n"
                if let note = highlight.note {
                    out += note.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).joined(separator: "  \n") + "\n\n"
                }
                out += "*\(highlight.color.rawValue) · \(ISOTime.string(highlight.created, fractionalSeconds: false))*\n\n"
            }
        }
        return out.isEmpty ? "*No highlights.*\n" : out
    }

    /// A title on one line.
    private static func line(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A quote's line made safe to start a Markdown line: a leading `#`, `-`, `+`, `*` or a
    /// number and dot would turn it into a heading or a list.
    private static func escapedMarkdown(_ line: String) -> String {
        guard let first = line.first else { return line }
        if "#-+*>".contains(first) { return "\\" + line }
        if first.isNumber, let dot = line.firstIndex(where: { !$0.isNumber }), line[dot] == "." || line[dot] == ")" {
            return line[..<dot] + "\\" + line[dot...]
        }
        return line
    }

    // MARK: JSON

    /// This library's own shape: every field of each highlight, with its issue.
    public static func json(_ highlights: [ListedHighlight]) throws -> String {
        struct Entry: Encodable {
            var id: String
            var issue: IssueInfo
            var resource: String
            var position: Int
            var quote: TextQuoteSelector
            var cfi: String?
            var color: String
            var note: String?
            var chapter: String?
            var created: Date
            var modified: Date
            var locator: Locator
        }
        struct IssueInfo: Encodable { var name: String; var title: String; var date: Date; var publication: String? }
        struct File: Encodable { var version = 1; var highlights: [Entry] }
        let entries = highlights.map { listed in
            let h = listed.highlight
            return Entry(id: h.id, issue: IssueInfo(name: listed.issueName, title: listed.issueTitle, date: listed.issueDate,
                                                    publication: listed.publicationTitle),
                         resource: h.resource, position: h.position, quote: h.quote, cfi: h.cfi, color: h.color.rawValue,
                         note: h.note, chapter: h.chapter, created: h.created, modified: h.modified, locator: h.locator)
        }
        return try encoded(File(highlights: entries))
    }

    // MARK: W3C Web Annotation

    /// An `AnnotationCollection` whose one page holds an `Annotation` per highlight: its
    /// `target` the resource (`source`, its path in the issue) with a `TextQuoteSelector`
    /// and, for an EPUB, a `FragmentSelector` holding the CFI; a note is a `TextualBody`.
    public static func w3c(_ highlights: [ListedHighlight]) throws -> String {
        let context = "http://www.w3.org/ns/anno.jsonld"
        let items: [[String: Any]] = highlights.map { listed in
            let h = listed.highlight
            var selectors: [[String: Any]] = [[
                "type": "TextQuoteSelector", "exact": h.quote.exact, "prefix": h.quote.prefix, "suffix": h.quote.suffix,
            ]]
            if let cfi = h.cfi {
                selectors.append(["type": "FragmentSelector", "conformsTo": "http://www.idpf.org/epub/linking/cfi/epub-cfi.html",
                                  "value": cfi])
            }
            var annotation: [String: Any] = [
                "@context": context,
                "id": "urn:uuid:\(h.id.lowercased())",
                "type": "Annotation",
                "motivation": h.note == nil ? "highlighting" : "commenting",
                "created": ISOTime.string(h.created, fractionalSeconds: false),
                "modified": ISOTime.string(h.modified, fractionalSeconds: false),
                "target": ["source": h.resource, "selector": selectors] as [String: Any],
            ]
            if let note = h.note {
                annotation["body"] = ["type": "TextualBody", "value": note, "format": "text/plain", "purpose": "commenting"]
            }
            return annotation
        }
        let collection: [String: Any] = [
            "@context": context,
            "type": "AnnotationCollection",
            "label": "Newsstand highlights",
            "total": items.count,
            "first": ["type": "AnnotationPage", "startIndex": 0, "items": items] as [String: Any],
        ]
        return try serialized(collection)
    }

    // MARK: calibre

    /// calibre's viewer's export: `{version: 1, type: "calibre_highlights", highlights: […]}`,
    /// each a `highlight` with its CFI inside the document (from the document node: `/2`, the
    /// root element, first), the spine item, the style and the chapter. Only EPUB highlights
    /// have a CFI; the others are left out (`withoutCFI` says how many).
    public static func calibre(_ highlights: [ListedHighlight]) throws -> String {
        var entries: [[String: Any]] = []
        for listed in highlights {
            let h = listed.highlight
            guard let cfi = h.cfi, let parts = HighlightCFI.parts(of: cfi) else { continue }
            var entry: [String: Any] = [
                "type": "highlight",
                "uuid": h.id,
                "timestamp": ISOTime.string(h.created),
                "highlighted_text": h.quote.exact,
                "start_cfi": "/2" + parts.start,
                "end_cfi": "/2" + parts.end,
                "spine_index": parts.spineIndex,
                "spine_name": h.resource,
                "style": calibreStyle(h.color),
                "toc_family_titles": h.chapter.map { [$0] } ?? [],
            ]
            if let note = h.note { entry["notes"] = note }
            entries.append(entry)
        }
        return try serialized(["version": 1, "type": "calibre_highlights", "highlights": entries] as [String: Any])
    }

    /// calibre's built-in styles: its colours (its `red` is a pink), and a wavy underline.
    static func calibreStyle(_ color: Highlight.Color) -> [String: String] {
        switch color {
        case .yellow, .green, .blue: return ["kind": "color", "type": "builtin", "which": color.rawValue]
        case .pink: return ["kind": "color", "type": "builtin", "which": "red"]
        case .underline: return ["kind": "decoration", "type": "builtin", "which": "wavy"]
        }
    }

    /// How many of `highlights` calibre's export leaves out: those not in an EPUB.
    public static func withoutCFI(_ highlights: [ListedHighlight]) -> Int {
        highlights.filter { $0.highlight.cfi.flatMap(HighlightCFI.parts(of:)) == nil }.count
    }

    // MARK: Shared

    /// Runs of highlights of one issue, in the order they come.
    static func grouped(_ highlights: [ListedHighlight]) -> [[ListedHighlight]] {
        var groups: [[ListedHighlight]] = []
        var index: [Int64: Int] = [:]
        for listed in highlights {
            if let at = index[listed.highlight.issueID] {
                groups[at].append(listed)
            } else {
                index[listed.highlight.issueID] = groups.count
                groups.append([listed])
            }
        }
        return groups
    }

    private static func day(_ date: Date) -> String {
        String(ISOTime.string(date, fractionalSeconds: false).prefix(10))
    }

    private static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }

    private static func serialized(_ object: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
