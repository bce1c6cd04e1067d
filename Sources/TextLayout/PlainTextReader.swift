/// Reads plain text: paragraphs are separated by blank lines. Hard-wrapped prose is joined
/// into flowing paragraphs; a paragraph of short lines (verse, addresses) keeps its breaks;
/// indented blocks stay as preformatted text.
public enum PlainTextReader {
    public static func document(text: String) -> TextDocument {
        let cleaned = Sanitizer.clean(text, multiline: true)
        var blocks: [Block] = []
        var paragraph: [Substring] = []

        func flush() {
            defer { paragraph = [] }
            guard !paragraph.isEmpty else { return }
            let indented = paragraph.allSatisfy { $0.hasPrefix("    ") }
            if indented {
                blocks.append(.code(paragraph.map { String($0.dropFirst(4)) }.joined(separator: "\n")))
                return
            }
            let lines = paragraph.map { collapseWhitespace(String($0)) }
            let widths = lines.map { DisplayWidth.of($0) }
            let shortLines = lines.count > 1 && widths.dropLast().allSatisfy { $0 < 40 }
            let joined = lines.joined(separator: shortLines ? "\n" : " ")
            blocks.append(.paragraph([StyledSpan(joined)]))
        }

        for line in cleaned.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " }) {
                flush()
            } else {
                paragraph.append(line)
            }
        }
        flush()
        return TextDocument(title: nil, blocks: blocks, anchors: [:])
    }
}
