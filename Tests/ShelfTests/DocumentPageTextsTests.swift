import Foundation
import Testing
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
}
