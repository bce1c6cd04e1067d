import Foundation
import Testing
@testable import Markup

private func parse(_ text: String) -> XMLDocument { MarkupParser.parse(Data(text.utf8)) }

@Suite struct MarkupParserTests {
    @Test func readsElementsAttributesAndText() throws {
        let doc = parse(#"<?xml version="1.0"?><feed a="1" b='two'><title>Hello</title><entry/><entry x="y">t</entry></feed>"#)
        #expect(doc.error == nil)
        let root = try #require(doc.root)
        #expect(root.name == "feed")
        #expect(root.attributes == ["a": "1", "b": "two"])
        #expect(root.first("title")?.text == "Hello")
        #expect(root.all("entry").count == 2)
        #expect(root.all("entry")[1].attribute("x") == "y")
        #expect(root.first("missing") == nil)
    }

    @Test func decodesPredefinedHTMLAndNumericReferencesOnly() throws {
        let doc = parse("<t a=\"&quot;q&quot; &#x41; &eacute;\">&lt;b&gt; &amp; &apos;x&apos; &#233;&#x1F600; &nbsp; &unknown; AT&T &#0; &#xD800;</t>")
        let root = try #require(doc.root)
        #expect(root.text == "<b> & 'x' é😀 \u{A0} &unknown; AT&T \u{FFFD} \u{FFFD}")
        #expect(root.attribute("a") == "\"q\" A é")
        // HTML5's names, case-sensitive and with their semicolon; a name too long or unknown stays as written.
        let names = parse("<t>&Eacute;&eacute; &mdash; &hellip; &euro; &thetasym; &EACUTE; &eacutee; &aacute</t>")
        #expect(names.root?.text == "Éé — … € ϑ &EACUTE; &eacutee; &aacute")
    }

    @Test func billionLaughsStaysInert() throws {
        var dtd = "<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            dtd += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        dtd += "]>\n"
        let doc = parse("<?xml version=\"1.0\"?>\n" + dtd + "<lolz>&lol9;</lolz>")
        let root = try #require(doc.root)
        #expect(root.name == "lolz")
        #expect(root.text == "&lol9;")
        #expect(doc.error == nil)
        #expect(doc.warnings.contains { $0.contains("entity") })
    }

    @Test func externalEntitiesAreNeverResolved() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("markup-secret-\(UUID().uuidString)")
        try Data("TOP SECRET".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let doc = parse("""
            <?xml version="1.0"?>
            <!DOCTYPE r SYSTEM "http://127.0.0.1:9/never.dtd" [
              <!ENTITY xxe SYSTEM "\(secret.absoluteString)">
              <!ENTITY % pe SYSTEM "\(secret.absoluteString)"> %pe;
              <!-- a comment with ] and > and " inside -->
            ]>
            <r><v>&xxe;</v></r>
            """)
        let root = try #require(doc.root)
        #expect(root.first("v")?.text == "&xxe;")
        #expect(!(root.allText.contains("SECRET")))
    }

    @Test func truncatedDocumentKeepsWhatWasRead() throws {
        let doc = parse("<feed><title>T</title><entry><id>1</id></entry><entry><id>2</id><title>Cut o")
        let root = try #require(doc.root)
        let error = try #require(doc.error)
        #expect(error.contains("ends before </title>"))
        let entries = root.all("entry")
        #expect(entries.count == 2)
        #expect(entries[1].first("id")?.text == "2")
        #expect(entries[1].first("title")?.text == "Cut o")
    }

    @Test func truncatedInsideTagOrAttribute() throws {
        for cut in ["<a><b>x</b><c href=\"ht", "<a><b>x</b><c", "<a><b>x</b></", "<a><b>x</b><!-- no end", "<a><b>x</b><![CDATA[abc"] {
            let doc = parse(cut)
            let root = try #require(doc.root, "\(cut)")
            #expect(root.first("b")?.text == "x", "\(cut)")
            #expect(doc.error != nil, "\(cut)")
        }
    }

    @Test func emptyAndGarbageInput() {
        #expect(parse("").root == nil)
        #expect(parse("").error == "line 1: document is empty")
        #expect(parse("just text").root == nil)
        #expect(parse("just text").error != nil)
        #expect(MarkupParser.parse(Data([0xFF, 0x00, 0x3C])).root == nil)
    }

    @Test func resolvesNamespaces() throws {
        let doc = parse("""
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:news="http://itunes.apple.com/2011/Newsstand">
              <entry><news:cover_art_icons><news:cover_art_icon size="SOURCE" src="c.png"/></news:cover_art_icons>
                <inner xmlns="urn:other"><x/></inner><after/><bad:thing/></entry>
            </feed>
            """)
        let root = try #require(doc.root)
        #expect(root.namespaceURI == "http://www.w3.org/2005/Atom")
        let entry = try #require(root.first("entry", namespace: "http://www.w3.org/2005/Atom"))
        let icons = try #require(entry.first("cover_art_icons", namespace: "http://itunes.apple.com/2011/Newsstand"))
        #expect(icons.name == "news:cover_art_icons")
        #expect(icons.first("cover_art_icon")?.attribute("src") == "c.png")
        #expect(entry.first("inner")?.namespaceURI == "urn:other")
        #expect(entry.first("inner")?.first("x")?.namespaceURI == "urn:other")
        #expect(entry.first("after")?.namespaceURI == "http://www.w3.org/2005/Atom")
        let bad = try #require(entry.first("thing"))
        #expect(bad.namespaceURI == nil)
        #expect(bad.name == "bad:thing")
        #expect(entry.first("entry", namespace: "urn:none") == nil)
        #expect(doc.error == nil)
    }

    @Test func prefixedAttributesByLocalName() throws {
        let root = try #require(parse(#"<a xml:base="http://x/" opf:role="aut" href="h"/>"#).root)
        #expect(root.attribute("base") == "http://x/")
        #expect(root.attribute("xml:base") == "http://x/")
        #expect(root.attribute("role") == "aut")
        #expect(root.attribute("href") == "h")
    }

    @Test func cdataAndMixedText() throws {
        let root = try #require(parse("<p>One <![CDATA[<b>&amp;</b>]]> two <i>three</i> four<br/>five</p>").root)
        #expect(root.text == "One <b>&amp;</b> two  fourfive")
        #expect(root.allText == "One <b>&amp;</b> two three fourfive")
        #expect(root.descendants("i").count == 1)
    }

    @Test func lineEndsAreNormalised() throws {
        let root = try #require(parse("<a v=\"x\ty\r\nz\">1\r\n2\r3</a>").root)
        #expect(root.text == "1\n2\n3")
        #expect(root.attribute("v") == "x y z")
    }

    @Test func toleratesMismatchedAndStrayTags() throws {
        let doc = parse("<rss><channel><item><title>A<b>bold</title></item></oops><item><title>B</title></item></channel></rss>")
        let root = try #require(doc.root)
        #expect(doc.error != nil)
        let items = try #require(root.first("channel")).all("item")
        #expect(items.map { $0.first("title")?.allText } == ["Abold", "B"])
    }

    @Test func lessThanThatStartsNoTag() throws {
        let root = try #require(parse("<t>a < b</t>").root)
        #expect(root.text == "a < b")
    }

    @Test func deepNestingIsFlattenedNotFatal() throws {
        let depth = 5000
        let text = String(repeating: "<d>", count: depth) + "deep" + String(repeating: "</d>", count: depth)
        let doc = parse(text)
        let root = try #require(doc.root)
        #expect(doc.error?.contains("nested deeper") == true)
        #expect(root.allText == "deep")
        var levels = 1
        var node = root
        while let child = node.children.first { node = child; levels += 1 }
        #expect(levels == MarkupParser.maxDepth)
    }

    @Test func skipsCommentsProcessingInstructionsAndDoctype() throws {
        let doc = parse("<?xml version='1.0'?><!-- c --><!DOCTYPE html><?pi x?><html><!-- <b>no</b> --><body>x</body></html>")
        #expect(doc.error == nil)
        #expect(try #require(doc.root).first("body")?.text == "x")
    }
}

@Suite struct MarkupEncodingTests {
    let sample = "<t>café € Œ ‘q’</t>"

    @Test func utf8WithAndWithoutBOM() throws {
        #expect(MarkupParser.parse(Data(sample.utf8)).root?.text == "café € Œ ‘q’")
        #expect(MarkupParser.parse(Data([0xEF, 0xBB, 0xBF] + Array(sample.utf8))).root?.text == "café € Œ ‘q’")
    }

    @Test(arguments: [true, false]) func utf16WithBOM(bigEndian: Bool) throws {
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in ("<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + sample + "<!-- 😀 -->").utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let doc = MarkupParser.parse(Data(bytes))
        #expect(doc.root?.text == "café € Œ ‘q’")
        #expect(doc.error == nil)
    }

    @Test func utf16WithoutBOM() throws {
        var bytes: [UInt8] = []
        for unit in "<?xml version=\"1.0\"?><t>ü</t>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(MarkupParser.parse(Data(bytes)).root?.text == "ü")
    }

    @Test func declaredLatin1IsReadAsWindows1252() throws {
        // "café " in Latin-1, then 0x80 (€ in Windows-1252) and 0x93/0x94 curly quotes.
        let bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><t>caf".utf8) + [0xE9, 0x20, 0x80, 0x20, 0x93, 0x71, 0x94] + Array("</t>".utf8)
        let doc = MarkupParser.parse(Data(bytes))
        #expect(doc.root?.text == "café € “q”")
        #expect(doc.warnings.isEmpty)
    }

    @Test func declaredLatin9AndWindows1252() throws {
        let latin9 = Array("<?xml version='1.0' encoding='iso-8859-15'?><t>".utf8) + [0xA4, 0xBD, 0xE9] + Array("</t>".utf8)
        #expect(MarkupParser.parse(Data(latin9)).root?.text == "€œé")
        let cp1252 = Array("<?xml version=\"1.0\" encoding = \"windows-1252\" ?><t>".utf8) + [0x8C, 0x85, 0xFC] + Array("</t>".utf8)
        #expect(MarkupParser.parse(Data(cp1252)).root?.text == "Œ…ü")
    }

    @Test func invalidUTF8IsReplacedNotFatal() throws {
        let bytes = Array("<t a=\"".utf8) + [0xFF] + Array("\">ok ".utf8) + [0xC3, 0x28, 0xE2, 0x82] + Array(" end</t>".utf8)
        let doc = MarkupParser.parse(Data(bytes))
        let root = try #require(doc.root)
        #expect(root.text.hasPrefix("ok \u{FFFD}"))
        #expect(root.text.hasSuffix(" end"))
        #expect(root.attribute("a") == "\u{FFFD}")
        #expect(doc.error == nil)
        #expect(doc.warnings.contains { $0.contains("UTF-8") })
    }

    @Test func unknownEncodingFallsBackToUTF8WithWarning() throws {
        let doc = MarkupParser.parse(Data("<?xml version=\"1.0\" encoding=\"x-klingon\"?><t>ok</t>".utf8))
        #expect(doc.root?.text == "ok")
        #expect(doc.warnings.first?.contains("x-klingon") == true)
    }
}

@Suite struct UTF8ValidationTests {
    @Test func agreesWithTheStandardLibrary() {
        var state: UInt64 = 42
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let interesting: [UInt8] = [0x41, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xA0, 0xED, 0x9F, 0xA0, 0xEF, 0xF0, 0x90, 0xF4, 0x8F, 0x90, 0xF5, 0xFF]
        for _ in 0..<20_000 {
            let bytes = (0..<Int(next() % 7)).map { _ in next() % 3 == 0 ? next() : interesting[Int(next()) % interesting.count] }
            let ours = bytes.withUnsafeBufferPointer { TextDecoding.isValidUTF8($0) }
            #expect(ours == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
    }

    @Test func parsedStringsMatchWholeDocumentRepair() throws {
        let bytes = Array("<t a=\"x".utf8) + [0xE2, 0x82] + Array("\">a".utf8) + [0xF0, 0x9F, 0x98] + Array("<b>".utf8) + [0xED, 0xA0, 0x80] + Array("</b></t>".utf8)
        let root = try #require(MarkupParser.parse(Data(bytes)).root)
        #expect(root.attribute("a") == "x\u{FFFD}")
        #expect(root.text == "a\u{FFFD}")
        #expect(root.first("b")?.text == "\u{FFFD}\u{FFFD}\u{FFFD}")
    }
}

@Suite struct MarkupStreamingTests {
    @Test func handsOverEntriesAndLeavesThemOutOfTheTree() throws {
        let xml = "<feed><title>T</title><entry><id>1</id></entry><x><entry><id>2</id></entry><y><entry/></y></x><entry><id>3</id>"
        var seen: [(String, String)] = []
        let doc = MarkupParser.parse(Data(xml.utf8), streaming: ["entry"]) { streamed in
            #expect(streamed.root.name == "feed")
            seen.append((streamed.element.first("id")?.text ?? "-", streamed.parent.name))
        }
        // Entries at depth one and two are handed over (the cut-off last one too); deeper ones stay.
        #expect(seen.map(\.0) == ["1", "2", "3"])
        #expect(seen.map(\.1) == ["feed", "x", "feed"])
        let root = try #require(doc.root)
        #expect(root.all("entry").isEmpty)
        #expect(root.first("x")?.first("y")?.all("entry").count == 1)
        #expect(root.first("title")?.text == "T")
        #expect(doc.error != nil)
    }
}

@Suite struct MoreEncodingTests {
    @Test func otherDeclaredEncodingsThroughFoundation() throws {
        let latin2 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-2\"?><t>".utf8) + [0xB3, 0xF3, 0x64, 0xBC] + Array("</t>".utf8)
        #expect(MarkupParser.parse(Data(latin2)).root?.text == "łódź")
        let cyrillic = Array("<?xml version=\"1.0\" encoding=\"windows-1251\"?><t>".utf8) + [0xCC, 0xEE, 0xF0, 0xE5] + Array("</t>".utf8)
        #expect(MarkupParser.parse(Data(cyrillic)).root?.text == "Море")
    }

    @Test func eastAsianAndOtherLegacyEncodings() throws {
        let cases: [(label: String, bytes: [UInt8], text: String)] = [
            ("EUC-KR", [0xB3, 0xE2], "년"), ("ks_c_5601-1987", [0xB3, 0xE2], "년"), ("cp949", [0x8C, 0x63], "똠"),
            ("Big5", [0xA4, 0xA4, 0xA4, 0xE5], "中文"), ("GB2312", [0xD6, 0xD0, 0xCE, 0xC4], "中文"),
            ("GB18030", [0xD6, 0xD0, 0xCE, 0xC4], "中文"), ("KOI8-R", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "Привет"),
            ("windows-1256", [0xE3, 0xD1, 0xCD, 0xC8, 0xC7], "مرحبا"),
            ("ISO-8859-7", [0xCA, 0xE1, 0xEB, 0xE7, 0xEC, 0xDD, 0xF1, 0xE1], "Καλημέρα"),
        ]
        for (label, bytes, text) in cases {
            let document = Array("<?xml version=\"1.0\" encoding=\"\(label)\"?><t>".utf8) + bytes + Array("</t>".utf8)
            let parsed = MarkupParser.parse(Data(document))
            #expect(parsed.root?.text == text, "\(label)")
            #expect(parsed.warnings.isEmpty, "\(label)")
        }
    }

    @Test(arguments: [true, false]) func utf32WithAndWithoutBOM(bigEndian: Bool) throws {
        func encode(_ text: String) -> [UInt8] {
            text.unicodeScalars.flatMap { scalar -> [UInt8] in
                let v = scalar.value
                let bytes = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
                return bigEndian ? bytes : bytes.reversed()
            }
        }
        let body = "<?xml version=\"1.0\" encoding=\"UTF-32\"?><t>café 😀</t>"
        let bom: [UInt8] = bigEndian ? [0, 0, 0xFE, 0xFF] : [0xFF, 0xFE, 0, 0]
        for bytes in [bom + encode(body), encode(body)] {
            let parsed = MarkupParser.parse(Data(bytes))
            #expect(parsed.root?.text == "café 😀")
            #expect(parsed.error == nil)
        }
        // A code unit that is no scalar (a surrogate) is replaced and reported.
        let broken = bom + encode("<t>a") + (bigEndian ? [0, 0, 0xD8, 0] : [0, 0xD8, 0, 0]) + encode("</t>")
        let parsed = MarkupParser.parse(Data(broken))
        #expect(parsed.root?.text == "a\u{FFFD}")
        #expect(parsed.warnings.contains { $0.contains("UTF-32") })
    }
}

/// A streamed element is a flat table, not a tree; it must read exactly like the element the
/// same document gives when nothing is streamed.
@Suite struct StreamedNodeEquivalenceTests {
    static let documents: [String] = [
        // Namespaces: default, prefixed, redeclared inside an entry, undeclared prefix.
        """
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:news="http://itunes.apple.com/2011/Newsstand">
        <entry xml:base="http://a.example/x/"><id>1</id><news:cover_art_icons><news:cover_art_icon size="SOURCE" src="c.png"/></news:cover_art_icons>
        <title type="html">A &lt;b&gt;bold&lt;/b&gt; &amp; <![CDATA[raw <i>]]> title&#x1F600;</title></entry>
        <entry xmlns:n="urn:other"><n:x n:a="1" b='2'>text<!-- c --><?pi x?>more</n:x><undeclared:y/></entry>
        </feed>
        """,
        // RSS items one level down, mixed content, nested items (part of the outer one).
        """
        <rss version="2.0"><channel><title>C</title>
        <item>before<b>bold<i>it</i>tail</b>after<item><title>inner</title></item>
        <enclosure url="http://a.example/i.zip" length="10" type="application/zip"/></item>
        <item/><other><item>deeper stays</item></other></channel></rss>
        """,
        // Cut off in the middle of an entry.
        "<feed><entry><id>1</id><title>whole</title></entry><entry><id>2</id><title>cut",
    ]

    /// The elements the streaming parse hands over, taken from the plain tree.
    static func streamedElements(of root: XMLElement, names: Set<String>) -> [XMLElement] {
        root.children.flatMap { child in
            names.contains(child.localName) ? [child] : child.children.filter { names.contains($0.localName) }
        }
    }

    static func expectSame(_ node: XMLElement, _ element: XMLElement, path: String = "") {
        let here = path + "/" + element.name
        #expect(node.name == element.name, "\(here)")
        #expect(node.localName == element.localName, "\(here)")
        #expect(node.namespaceURI == element.namespaceURI, "\(here)")
        #expect(node.text == element.text, "\(here)")
        #expect(node.allText == element.allText, "\(here)")
        #expect(node.attributeList.map(\.name) == element.attributeList.map(\.name), "\(here)")
        #expect(node.attributeList.map(\.value) == element.attributeList.map(\.value), "\(here)")
        #expect(node.children.count == element.children.count, "\(here)")
        for (a, b) in zip(node.children, element.children) { expectSame(a, b, path: here) }
    }

    @Test(arguments: documents.indices) func streamedNodesReadLikeTheTree(index: Int) throws {
        try Self.expectStreamedReadLikeTheTree(Data(Self.documents[index].utf8))
    }

    /// Found by the feed fuzz target: two attribute names that are different invalid UTF-8
    /// (« and » in Latin-1) both decode to U+FFFD; the tree kept one, the table both.
    @Test func attributeNamesThatDecodeAlike() throws {
        let bytes = Array("<rss><channel><item><title a ".utf8) + [0xAB] + Array(" b ".utf8) + [0xBB] + Array(">t</title></item></channel></rss>".utf8)
        try Self.expectStreamedReadLikeTheTree(Data(bytes))
        var attributes: [(name: String, value: String)] = []
        _ = MarkupParser.parse(Data(bytes), streaming: ["item"]) { attributes = $0.element.first("title")?.attributeList ?? [] }
        #expect(attributes.map(\.name) == ["a", "\u{FFFD}", "b"])
    }

    static func expectStreamedReadLikeTheTree(_ data: Data) throws {
        let names: Set<String> = ["entry", "item"]
        var nodes: [XMLNode] = []
        _ = MarkupParser.parse(data, streaming: names) { nodes.append($0.element) }
        let root = try #require(MarkupParser.parse(data).root)
        let expected = Self.streamedElements(of: root, names: names)
        #expect(nodes.count == expected.count)
        #expect(!expected.isEmpty)
        for (node, element) in zip(nodes, expected) {
            // The flat node itself, and the tree made from it.
            #expect(node.text == element.text)
            #expect(node.allText == element.allText)
            #expect(node.attribute("base") == element.attribute("base"))
            #expect(Array(node.children).map(\.name) == element.children.map(\.name))
            #expect(node.declares("urn:other") == element.declares("urn:other"))
            expectSame(node.element(), element)
        }
    }
}
