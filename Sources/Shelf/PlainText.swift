import Foundation
import IssueArchive
import TextLayout

/// An issue's text in reading order, for pipes and screen readers (`read --plain`); a
/// PDF's pages reflowed, page by page.
public enum PlainText {
    public static func render(directory: URL, width: Int = 80, texts: DocumentTexts = .shared) throws -> String {
        let content = try IssueReader.open(directory: directory)
        var output = ""
        for resource in content.readingOrder {
            if resource.isPicture {
                output += "[page: \(resource.path)]\n"
                continue
            }
            let document = try ArticleDocument.load(resource, in: directory, texts: texts)
            if let page = PagePath(resource.path) {
                let name = PagePlace.describe(page.index, of: content.readingOrder.count, label: resource.label)
                output += "[\(name)]\n" + (document.blocks.isEmpty ? "[this page has no text]\n" : "\n")
            }
            for line in Layout.lines(for: document, width: width) {
                switch line.kind {
                case .blank, .rule:
                    output += "\n"
                case .image(_, let alt, _, let row):
                    // The whole description, wrapped like text: screen readers need all of it.
                    guard row == 0 else { break }
                    let caption = PlainTextReader.document(text: "[image: \(alt)]")
                    for wrapped in Layout.lines(for: caption, width: max(10, width - line.indent)) where wrapped.kind == .text {
                        output += String(repeating: " ", count: line.indent) + wrapped.spans.map(\.text).joined() + "\n"
                    }
                case .text:
                    output += String(repeating: " ", count: line.indent) + line.spans.map(\.text).joined() + "\n"
                }
            }
            output += "\n"
        }
        return output
    }
}
