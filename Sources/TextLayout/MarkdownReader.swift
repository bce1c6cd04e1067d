public enum MarkdownReader {
    public static func document(markdown: String) -> TextDocument {
        PlainTextReader.document(text: markdown)
    }
}
