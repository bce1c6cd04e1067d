import Testing
@testable import TextLayout

/// Laying a document out a range of blocks at a time (the reader's first screen first), and
/// searching lines through a `SearchIndex`.
@Suite struct IncrementalLayoutTests {
    static let document: TextDocument = {
        var blocks: [Block] = []
        for index in 0..<120 {
            switch index % 4 {
            case 0: blocks.append(.heading(level: 2, [StyledSpan("Part \(index)")]))
            case 1: blocks.append(.quote([.paragraph([StyledSpan("quoted \(index) 港の朝 words")])]))
            case 2: blocks.append(.list(ordered: false, items: [[.paragraph([StyledSpan("item \(index)")])], [.code("let x = \(index)")]]))
            default: blocks.append(.paragraph([StyledSpan(String(repeating: "word\(index) ", count: 9))]))
            }
        }
        return TextDocument(blocks: blocks)
    }()

    @Test func rangesOfBlocksJoinIntoTheWholeLayout() throws {
        let options = LayoutOptions(width: 33)
        let whole = Layout.lines(for: Self.document, options: options)
        var joined: [LayoutLine] = []
        var start = 0
        for size in [1, 7, 24, 3, 50, 100] {
            let end = min(Self.document.blocks.count, start + size)
            joined += Layout.lines(for: Self.document, blocks: start..<end, options: options)
            start = end
        }
        #expect(start == Self.document.blocks.count)
        #expect(joined == whole)
        // Out-of-range requests are clipped, never a crash.
        let tail = try #require(whole.lastIndex { $0.blockIndex == 117 })
        #expect(Layout.lines(for: Self.document, blocks: 118..<500, options: options) == Array(whole[tail...]))
        #expect(Layout.lines(for: Self.document, blocks: 300..<400, options: options).isEmpty)
    }

    @Test func anIndexFindsWhatSearchFinds() {
        let lines = Layout.lines(for: Self.document, width: 29)
        let index = SearchIndex(lines: lines)
        for query in ["WORD7", "港の", "item 1", "x = 4", "quoted 1", "absent"] {
            let direct = Search.matches(of: query, in: lines).map { SearchMatch(line: $0.line, column: $0.column, length: $0.length) }
            #expect(index.matches(of: query) == direct, "\(query)")
        }
        #expect(index.matches(of: "word7").count == 4 * 9, "word7, word71, word75, word79: nine times each")
        #expect(index.matches(of: "港の朝").allSatisfy { $0.length == 6 })
    }

    @Test func theQuickTestNeverMissesAMatch() {
        let document = HTMLReader.document(html: "<p>The Old LIGHTHOUSE</p><p>Caf\u{E9} and New&nbsp;York</p>")
        #expect(Search.mayContain(document, "lighthouse"))
        #expect(Search.mayContain(document, "CAFÉ"))
        #expect(Search.mayContain(document, "new york"))
        #expect(!Search.mayContain(document, "zebra"))
        #expect(!Search.mayContain(document, ""))
    }

    @Test func charactersThatFoldToASCIIAreFoundByASCIIQueries() {
        // The Kelvin sign lower-cases to k; the Greek question mark is canonically `;`.
        let html = "<p>300 \u{212A} outside</p><p>a\u{37E} b</p><p>ÅNGSTRÖM İstanbul</p>"
        let document = HTMLReader.document(html: html)
        let lines = Layout.lines(for: document, width: 40)
        for query in ["300 k", "a;", "ngstr", "stanbul"] {
            #expect(Search.mayContain(document, query), "\(query)")
            #expect(SearchIndex(lines: lines).matches(of: query).count == 1, "\(query)")
        }
        #expect(SearchIndex(lines: lines).matches(of: "ångström").count == 1)
    }
}
