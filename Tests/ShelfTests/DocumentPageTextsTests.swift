import Foundation
import IssueArchive
import Testing
import TextLayout
@testable import Shelf

/// A PDF's pages are searched through their squeezed text: lower-cased, without whitespace
/// (as Foundation's `whitespacesAndNewlines` counts it) or hyphens at line ends, so a query
/// matches across the lines and hyphenation reflowing undoes.
@Suite struct DocumentPageTextsTests {
    /// The definition, written the plain (slow) way.
    static func reference(_ text: String) -> String {
        String(String.UnicodeScalarView(text.lowercased().replacingOccurrences(of: "-\n", with: "").unicodeScalars
            .filter { !CharacterSet.whitespacesAndNewlines.contains($0) }))
    }

    @Test func hyphensAtLineEndsAndSpacesGo() {
        #expect(DocumentPageTexts.squeezed("The Light-\nhouse  keeper\tcame\r\nearly -- twenty-two -\n") == "thelighthousekeepercameearly--twenty-two")
        #expect(DocumentPageTexts.squeezed("a-\n\nb--\nc-") == "ab-c-")
        #expect(DocumentPageTexts.squeezed("Straße\u{00A0}Ünter\u{2003}den\u{3000}Lin\u{200B}den\u{2028}") == "straßeünterdenlinden")
        for text in ["ΟΔΟΣ ΣΟΦΟΣ.", "İSTANBUL ﬁne ǅemal", "Tab\there\u{0085}next\u{FEFF}word -\r\n"] {
            #expect(DocumentPageTexts.squeezed(text) == Self.reference(text), "\(text)")
        }
    }

    @Test func sameAsTheDefinitionForEveryScalarOfTheBasicPlane() {
        var mismatches: [String] = []
        for value in UInt32(1)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "x-\(Character(scalar))-\ny \(Character(scalar))"
            if DocumentPageTexts.squeezed(text) != Self.reference(text) { mismatches.append(String(value, radix: 16)) }
        }
        #expect(mismatches.isEmpty, "differs for U+\(mismatches.prefix(10).joined(separator: ", U+"))")
    }

    /// Boxes to the thousandth, for comparing with ones worked out by hand.
    static func rounded(_ boxes: [PageBox]) -> [[Double]] {
        boxes.map { [$0.x0, $0.y0, $0.x1, $0.y1].map { ($0 * 1000).rounded() / 1000 } }
    }

    @Test func aMatchIsBoxedALineAtATimeWhereItsCharactersAreDrawn() throws {
        TestDocument.register()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("page-boxes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let document = TestDocument(pages: [TestDocument.Page(text: "The Light-\nhouse keeper\nlighthouse"),
                                            TestDocument.Page(text: "")])
        try document.data.write(to: root.appendingPathComponent("issue.pdf"))
        let readingOrder = [Resource(path: "issue.pdf#page=1", mediaType: "application/pdf"),
                            Resource(path: "issue.pdf#page=2", mediaType: "application/pdf")]
        let texts = DocumentPageTexts(readingOrder: readingOrder, root: root, texts: .shared)
        // "Light-" is characters 4–9 of line 0 (10 + 1.5·c % across), its hyphen left out;
        // "house" characters 0–4 of line 1; the second match all of line 2.
        let lighthouses = texts.matches(of: "LIGHT HOUSE", at: 0)
        #expect(lighthouses.map(Self.rounded) == [[[0.16, 0.1, 0.235, 0.15], [0.1, 0.2, 0.175, 0.25]], [[0.1, 0.3, 0.25, 0.35]]],
                "two matches, the first over two lines")
        #expect(texts.matches(of: "keeper", at: 0).count == 1)
        #expect(texts.matches(of: "walrus", at: 0).isEmpty && texts.matches(of: "keeper", at: 1).isEmpty)
    }
}
