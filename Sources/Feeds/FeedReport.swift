import Foundation

/// How `inspect feed` prints a document.
public enum FeedReport {
    public static func json(_ document: FeedDocument) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    /// - Parameter formatSize: prints a content length (the program's one size format lives
    ///   in NewsstandKit, which Feeds does not import).
    public static func text(_ document: FeedDocument, formatSize: (Int64) -> String) -> String {
        let pub = document.publication
        var lines = ["\(pub.title)  (\(document.format.rawValue))"]
        if let subtitle = pub.subtitle { lines.append("  \(subtitle)") }
        func field(_ name: String, _ value: String?) {
            if let value { lines.append("  \(name.padding(toLength: 9, withPad: " ", startingAt: 0)) \(value)") }
        }
        field("id", pub.id)
        field("cover", pub.coverURL?.absoluteString)
        field("binding", [pub.bindingType, pub.bindingEdge].compactMap { $0 }.joined(separator: ", ").nilIfEmpty)
        field("push", pub.pushURL?.absoluteString)
        field("next page", pub.nextPage?.absoluteString)
        if !pub.links.isEmpty {
            lines.append("")
            lines.append("Catalogs (\(pub.links.count)):")
            for link in pub.links { lines.append("  \(link.title)  \(link.url.absoluteString)") }
        }
        lines.append("")
        lines.append("Issues (\(document.entries.count)), newest first:")
        let dateFormat = ISO8601DateFormatter()
        dateFormat.formatOptions = [.withFullDate]
        for entry in document.entries.sorted(by: { $0.date > $1.date }) {
            lines.append("  \(dateFormat.string(from: entry.date))  \(entry.title)  [\(entry.name)]")
            if let content = entry.contentURL {
                let size = entry.contentLength.map { " \(formatSize($0))" } ?? ""
                lines.append("      content  \(content.absoluteString)\(entry.contentType.map { " (\($0))" } ?? "")\(size)")
            }
            if let cover = entry.coverURL { lines.append("      cover    \(cover.absoluteString)") }
        }
        if !document.articles.isEmpty {
            lines.append("")
            lines.append("Articles (\(document.articles.count)), gathered into editions:")
            for article in document.articles {
                let date = article.date.map { dateFormat.string(from: $0) } ?? "undated   "
                lines.append("  \(date)  \(article.title)  [\(article.name)]")
            }
        }
        if !document.problems.isEmpty {
            lines.append("")
            lines.append("Problems (\(document.problems.count)):")
            for problem in document.problems { lines.append("  \(problem)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
