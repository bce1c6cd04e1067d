import IssueArchive

/// What `newsstand inspect archive FILE.pdf` prints: a summary, JSON, or the text. Every
/// string from the PDF is cleaned of control characters before it is printed.
public enum PDFReport {
    public static func summary(_ info: PDFInfo) -> String {
        var lines = ["format: pdf"]
        if let title = info.title { lines.append("title: " + ArchiveReport.clean(title)) }
        if let author = info.author { lines.append("author: " + ArchiveReport.clean(author)) }
        lines.append("pages: \(info.pageCount)")
        if !info.unreadablePages.isEmpty {
            lines.append("pages that cannot be read: " + info.unreadablePages.map { String($0 + 1) }.joined(separator: ", ") + " (the page tree is broken)")
        }
        if let first = info.pageSizes.first {
            lines.append("page size: \(Int(first.width.rounded()))×\(Int(first.height.rounded())) pt")
        }
        if let labels = info.pageLabels {
            lines.append("page labels: " + labels.prefix(20).map { ArchiveReport.clean($0) }.joined(separator: ", ")
                         + (labels.count > 20 ? ", …" : ""))
        }
        if !info.outline.isEmpty {
            lines.append("contents:")
            appendOutline(info.outline, depth: 1, labels: info.pageLabels, to: &lines)
        }
        return lines.joined(separator: "\n")
    }

    private static func appendOutline(_ items: [PDFOutlineItem], depth: Int, labels: [String]?, to lines: inout [String]) {
        for item in items {
            let place = item.page.map { page in
                "page \(page + 1)" + (labels.map { labels in page < labels.count ? " (\(ArchiveReport.clean(labels[page])))" : "" } ?? "")
            } ?? "no page"
            lines.append(String(repeating: "  ", count: depth) + ArchiveReport.clean(item.title) + "  → " + place)
            appendOutline(item.children, depth: depth + 1, labels: labels, to: &lines)
        }
    }

    public static func json(_ info: PDFInfo) throws -> String { try ArchiveReport.json(info) }
}
