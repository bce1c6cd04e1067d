import Testing
@testable import TextLayout

/// A picture that cannot be drawn reads as its description, wrapped like text, with no
/// rows kept for the picture; the blocks keep their places.
@Suite struct PictureDescriptionTests {
    @Test func picturesNamedBecomeTheirWholeDescriptionAndNoEmptyRows() {
        let alt = (0..<20).map { "word\($0)" }.joined(separator: " ")
        let document = TextDocument(blocks: [
            .image(source: "gone.jpg", alt: alt),
            .quote([.image(source: "gone.jpg", alt: "in a quote")]),
            .list(ordered: false, items: [[.image(source: "gone.jpg", alt: "in a list")]]),
            .figure(image: .image(source: "gone.jpg", alt: ""), caption: [StyledSpan("The caption")]),
            .image(source: "kept.png", alt: "kept"),
        ], anchors: ["x": 4])
        let described = document.describingPictures(["gone.jpg"])
        #expect(described.blocks.count == document.blocks.count && described.anchors == document.anchors)
        let lines = Layout.lines(for: described, width: 40)
        let text = lines.map(\.text).joined(separator: "\n")
        for word in 0..<20 { #expect(text.contains("word\(word)"), "word\(word) in:\n\(text)") }
        #expect(text.contains("[image: in a quote]") && text.contains("[image: in a list]") && text.contains("[image]"))
        let pictureRows = lines.filter { if case .image = $0.kind { return true } else { return false } }
        #expect(!pictureRows.isEmpty && pictureRows.allSatisfy { if case .image("kept.png", _, _, _) = $0.kind { true } else { false } })
        #expect(document.describingPictures([]) == document)
    }
}
