import Foundation
import IssueArchive
import NewsstandKit
import TextLayout

/// An installed issue's text for the search index, read as the reader reads it: each
/// article or chapter's blocks as plain text, and a PDF's pages through its text reader
/// (`DocumentTexts`: the PDF worker, or the texts kept beside the PDF), every page in one go.
public struct IssueSearchTexts: IssueTextSource {
    let texts: DocumentTexts

    public init(texts: DocumentTexts = .shared) { self.texts = texts }

    public func parts(ofContentIn directory: URL) throws -> [SearchablePart] {
        let content = try IssueReader.open(directory: directory)
        var parts: [SearchablePart] = []
        var pageTexts: [String: [String]] = [:]   // a document's path → its pages' texts
        for (position, resource) in content.readingOrder.enumerated() where !resource.isPicture {
            if let page = PagePath(resource.path) {
                if pageTexts[page.file] == nil {
                    let file = try IssueReader.resolve(page.file, in: directory)
                    pageTexts[page.file] = (try? texts.reader(for: file)?.pageTexts(of: file)) ?? []
                }
                let words = pageTexts[page.file].flatMap { page.index < $0.count ? $0[page.index] : nil } ?? ""
                guard !words.isEmpty else { continue }
                parts.append(SearchablePart(kind: .page, resource: resource.path, page: page.index, position: position,
                                            label: resource.label, title: "", text: words))
                continue
            }
            guard let document = try? ArticleDocument.load(resource, in: directory, texts: texts) else { continue }
            let text = document.blocks.map(\.plainText).joined(separator: "\n")
            guard !text.isEmpty else { continue }
            let label = resource.label ?? document.title
            parts.append(SearchablePart(kind: .text, resource: resource.path, page: nil, position: position,
                                        label: label, title: label ?? "", text: text))
        }
        return parts
    }
}
