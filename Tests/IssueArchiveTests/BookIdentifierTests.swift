import Foundation
import Testing
@testable import IssueArchive

/// The identifiers a PDF's XMP packet gives: the shapes calibre writes and reads, and others'.
@Suite struct BookIdentifierTests {
    static func packet(_ descriptions: String) -> Data {
        Data("""
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            \(descriptions)
            </rdf:RDF></x:xmpmeta><?xpacket end="w"?>
            """.utf8)
    }

    @Test func calibresShapeIsReadEachIdentifierOnce() {
        // As calibre's metadata_to_xmp_packet writes it: a bag of schemes and values, and the
        // ISBN and DOI again under PRISM's and pdfx's names.
        let xmp = Self.packet("""
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpidq="http://ns.adobe.com/xmp/Identifier/qual/1.0/">
              <xmp:Identifier><rdf:Bag>
                <rdf:li rdf:parseType="Resource"><xmpidq:Scheme>isbn</xmpidq:Scheme><rdf:value>9780306406157</rdf:value></rdf:li>
                <rdf:li rdf:parseType="Resource"><xmpidq:Scheme>doi</xmpidq:Scheme><rdf:value>10.5555/tide.atlas</rdf:value></rdf:li>
                <rdf:li rdf:parseType="Resource"><xmpidq:Scheme>amazon</xmpidq:Scheme><rdf:value> B00ABC </rdf:value></rdf:li>
              </rdf:Bag></xmp:Identifier>
            </rdf:Description>
            <rdf:Description rdf:about="" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/"><prism:isbn>9780306406157</prism:isbn><prism:doi>10.5555/tide.atlas</prism:doi></rdf:Description>
            <rdf:Description rdf:about="" xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/"><pdfx:isbn>9780306406157</pdfx:isbn></rdf:Description>
            """)
        #expect(BookIdentifier.of(xmp: xmp) == [BookIdentifier(value: "9780306406157", scheme: "isbn"),
                                               BookIdentifier(value: "10.5555/tide.atlas", scheme: "doi"),
                                               BookIdentifier(value: "B00ABC", scheme: "amazon")])
    }

    @Test func othersShapesAreReadToo() {
        // Qualifiers as attributes, a bare item, dc:identifier as a bag and as text, PRISM 1.2.
        let xmp = Self.packet("""
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpidq="http://ns.adobe.com/xmp/Identifier/qual/1.0/"
                xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:prism="http://prismstandard.org/namespaces/basic/1.2/">
              <xmp:Identifier><rdf:Bag>
                <rdf:li xmpidq:Scheme="ISBN" rdf:value="0-306-40615-2"/>
                <rdf:li>urn:uuid:0d7c3a52-9f1e-4b8a-a6d2-5c1e7f3b9a40</rdf:li>
              </rdf:Bag></xmp:Identifier>
              <dc:identifier>doi:10.1000/182</dc:identifier>
              <prism:doi>10.1000/183</prism:doi>
            </rdf:Description>
            """)
        #expect(BookIdentifier.of(xmp: xmp) == [BookIdentifier(value: "0-306-40615-2", scheme: "ISBN"),
                                               BookIdentifier(value: "urn:uuid:0d7c3a52-9f1e-4b8a-a6d2-5c1e7f3b9a40"),
                                               BookIdentifier(value: "doi:10.1000/182"),
                                               BookIdentifier(value: "10.1000/183", scheme: "doi")])
        // An isbn element of some other vocabulary names nothing.
        let stranger = Self.packet(#"<rdf:Description rdf:about="" xmlns:my="urn:example:my"><my:isbn>9780306406157</my:isbn></rdf:Description>"#)
        #expect(BookIdentifier.of(xmp: stranger).isEmpty)
    }

    @Test func aHostilePacketGivesAtMostTheLimitAndNoGiantValues() {
        let items = (0..<500).map { "<rdf:li>urn:isbn:978030640\($0)</rdf:li>" }.joined()
        let giant = String(repeating: "9", count: 10_000)
        let xmp = Self.packet("""
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:Identifier><rdf:Bag>
            <rdf:li>\(giant)</rdf:li>\(items)</rdf:Bag></xmp:Identifier></rdf:Description>
            """)
        let found = BookIdentifier.of(xmp: xmp)
        #expect(found.count == 64)
        #expect(found.first == BookIdentifier(value: "urn:isbn:9780306400"))
        #expect(BookIdentifier.of(xmp: Data("%PDF-1.4 not xml at all".utf8)).isEmpty)
    }
}
