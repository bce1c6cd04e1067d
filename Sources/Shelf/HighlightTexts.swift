import Foundation
import IssueArchive
import NewsstandKit
import TextLayout

/// The text highlights are made in and found again in (`TextQuoteSelector`): each readable
/// resource of an issue as the reader lays it out, its `TextDocument`'s top-level blocks'
/// `plainText`, one a line. The same for an article, an EPUB chapter and a PDF page's text
/// view (its reflowed blocks, not the page's lines), so a highlight made by the command is
/// found by the reader and the other way round.
public struct HighlightTexts: IssueTextSource {
    let texts: DocumentTexts

    public init(texts: DocumentTexts = .shared) { self.texts = texts }

    /// A resource's text for highlights, from the document the reader shows.
    public static func text(of document: TextDocument) -> String {
        document.blocks.map(\.plainText).joined(separator: "\n")
    }

    public func parts(ofContentIn directory: URL) throws -> [SearchablePart] {
        let content = try IssueReader.open(directory: directory)
        var parts: [SearchablePart] = []
        for (position, resource) in content.readingOrder.enumerated() where !resource.isPicture {
            guard let document = try? ArticleDocument.load(resource, in: directory, texts: texts) else { continue }
            let text = Self.text(of: document)
            guard !text.isEmpty else { continue }
            let page = PagePath(resource.path)
            let label = resource.label ?? document.title
            parts.append(SearchablePart(kind: page == nil ? .text : .page, resource: resource.path, page: page?.index,
                                        position: position, label: label, title: label ?? "", text: text))
        }
        return parts
    }
}
