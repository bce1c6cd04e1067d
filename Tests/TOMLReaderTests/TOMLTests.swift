import Testing
@testable import TOMLReader

@Suite struct TOMLTests {
    @Test func readsScalarsTablesAndComments() throws {
        let doc = try TOML.parse("""
        # a comment
        title = "Newsstand"   # trailing comment
        count = 42
        negative = -17
        big = 1_000_000
        hex = 0xff
        octal = 0o17
        binary = 0b101
        ratio = 0.5
        exp = 6.02e23
        on = true
        off = false

        [downloads]
        parallel = 3
        [downloads.limits]
        per_host = 2
        """)
        #expect(doc["title"] == .string("Newsstand"))
        #expect(doc["count"] == .integer(42))
        #expect(doc["negative"] == .integer(-17))
        #expect(doc["big"] == .integer(1_000_000))
        #expect(doc["hex"] == .integer(255))
        #expect(doc["octal"] == .integer(15))
        #expect(doc["binary"] == .integer(5))
        #expect(doc["ratio"] == .float(0.5))
        #expect(doc["exp"] == .float(6.02e23))
        #expect(doc["on"] == .boolean(true))
        #expect(doc["off"] == .boolean(false))
        let downloads = try #require(doc["downloads"]?.table)
        #expect(downloads["parallel"] == .integer(3))
        #expect(downloads["limits"] == .table(["per_host": .integer(2)]))
    }

    @Test func readsArraysOverSeveralLinesWithCommentsAndATrailingComma() throws {
        let doc = try TOML.parse("""
        keys = [
          "j",   # down
          "k",
          [1, 2],
        ]
        empty = []
        """)
        #expect(doc["keys"] == .array([.string("j"), .string("k"), .array([.integer(1), .integer(2)])]))
        #expect(doc["empty"] == .array([]))
    }

    @Test func readsDottedAndQuotedKeysAndInlineTables() throws {
        let doc = try TOML.parse("""
        shelf.fg = "#ffffff"
        "key with spaces" = 1
        'literal.key' = 2
        point = { x = 1, y = 2, label.text = "p" }
        """)
        #expect(doc["shelf"] == .table(["fg": .string("#ffffff")]))
        #expect(doc["key with spaces"] == .integer(1))
        #expect(doc["literal.key"] == .integer(2))
        #expect(doc["point"] == .table(["x": .integer(1), "y": .integer(2), "label": .table(["text": .string("p")])]))
    }

    @Test func decodesStringEscapesAndLiteralStrings() throws {
        let doc = try TOML.parse(#"""
        basic = "tab\there \"quoted\" back\\slash \u00e9 \U0001F4F0"
        literal = 'C:\path\no escapes'
        multi = """
        first line
        second "line" ""\
            joined"""
        raw = '''
        keep \n as is'''
        quotes = """two quotes at the end"""""
        """#)
        #expect(doc["basic"] == .string("tab\there \"quoted\" back\\slash é 📰"))
        #expect(doc["literal"] == .string(#"C:\path\no escapes"#))
        #expect(doc["multi"] == .string("first line\nsecond \"line\" \"\"joined"))
        #expect(doc["raw"] == .string(#"keep \n as is"#))
        #expect(doc["quotes"] == .string("two quotes at the end\"\""))
    }

    @Test func readsArraysOfTables() throws {
        let doc = try TOML.parse("""
        [[publication]]
        name = "Daily"
        [publication.credentials]
        user = "a"
        [[publication]]
        name = "Monthly"
        """)
        let publications = try #require(doc["publication"]?.array)
        #expect(publications.count == 2)
        #expect(publications[0].table?["name"] == .string("Daily"))
        #expect(publications[0].table?["credentials"] == .table(["user": .string("a")]))
        #expect(publications[1].table?["name"] == .string("Monthly"))
    }

    @Test func remembersTheLineOfEveryKey() throws {
        let doc = try TOML.parseDocument("""
        a = 1

        [shelf]
        fg = "x"
        bg = "y"
        """)
        #expect(doc.line(of: ["a"]) == 1)
        #expect(doc.line(of: ["shelf"]) == 3)
        #expect(doc.line(of: ["shelf", "bg"]) == 5)
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        #expect(try TOML.parse("\u{FEFF}a = 1\n")["a"] == .integer(1))
    }

    @Test func crlfLineEndingsAreAccepted() throws {
        let doc = try TOML.parse("a = 1\r\n[t]\r\nb = \"x\"\r\n")
        #expect(doc["a"] == .integer(1))
        #expect(doc["t"] == .table(["b": .string("x")]))
    }

    @Test(arguments: [
        ("a = 1\na = 2", 2, "key 'a' is defined twice"),
        ("[t]\nx = 1\n[t]", 3, "table [t] is defined twice"),
        ("a = \"open", 1, "string is not closed"),
        ("\n\nname = \"bad \\q\"", 3, "unknown escape"),
        ("a 1", 1, "expected '='"),
        ("a = 1 b = 2", 1, "after a value"),
        ("a = [1, 2", 1, "array is not closed"),
        ("a = yes", 1, "expected a value"),
        ("d = 2024-05-01", 1, "dates are not supported"),
        ("t = 07:32:00", 1, "times are not supported"),
        ("n = 012", 1, "leading zeros"),
        ("n = 1__0", 1, "is not a number"),
        ("x = 1\nx.y = 2", 2, "'x' is already an integer"),
        ("= 3", 1, "cannot start a key"),
    ])
    func refusesBadInputWithTheLine(text: String, line: Int, fragment: String) {
        do {
            _ = try TOML.parse(text)
            Issue.record("parsed \(text.debugDescription) without an error")
        } catch let error as TOMLError {
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(fragment), "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
