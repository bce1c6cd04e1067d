import Foundation

/// What `newsstand inspect article` prints of an extracted article.
public enum ArticleReport {
    public static func text(_ article: ExtractedArticle) -> String {
        var lines: [String] = []
        func line(_ label: String, _ value: String?) { if let value { lines.append("\(label): \(value)") } }
        line("Title", article.title)
        line("Byline", article.byline)
        line("Date", article.date)
        line("Picture", article.leadPicture?.absoluteString)
        line("Site", article.siteName)
        let words = article.text.split(whereSeparator: { $0.isWhitespace }).count
        lines.append("Text: \(article.blocks.filter { $0.text != nil }.count) blocks, \(words) words")
        return lines.joined(separator: "\n") + "\n\n" + article.text
    }

    public static func json(_ article: ExtractedArticle) throws -> String {
        struct Report: Encodable {
            var title, byline, date, leadPicture, siteName: String?
            var text: String
            var html: String
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let report = Report(title: article.title, byline: article.byline, date: article.date, leadPicture: article.leadPicture?.absoluteString,
                            siteName: article.siteName, text: article.text, html: article.html)
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }
}
