import Foundation
import Testing
@testable import Terminal
import TOMLReader

@Suite struct ThemeTests {
    /// The repository's themes/ folder, found from this file's path.
    static let themesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("themes")

    static let shippedThemes = ["classic", "dark", "light", "high-contrast", "mono"]

    @Test func classicFileEqualsTheBuiltInTheme() throws {
        let theme = try ThemeLoader.load(named: "classic", searchPaths: [Self.themesDirectory])
        #expect(theme == Theme.classic)
    }

    @Test(arguments: shippedThemes)
    func everyShippedThemeParsesAndSetsEveryRole(name: String) throws {
        let file = Self.themesDirectory.appendingPathComponent("\(name).toml")
        let text = try String(contentsOf: file, encoding: .utf8)
        let theme = try ThemeLoader.parse(text, file: file.path)
        #expect(theme.name == name)
        // Each file writes every role itself rather than leaning on classic's.
        let tables = try TOML.parse(text)
        for role in ThemeLoader.roles {
            #expect(tables[role.name]?.table != nil, "\(name).toml has no [\(role.name)]")
        }
    }

    @Test func monoUsesOnlyTheTerminalsColours() throws {
        let mono = try ThemeLoader.load(named: "mono", searchPaths: [Self.themesDirectory])
        for role in ThemeLoader.roles {
            #expect(mono[keyPath: role.keyPath].foreground == .default, "\(role.name)")
            #expect(mono[keyPath: role.keyPath].background == .default, "\(role.name)")
        }
        #expect(mono.selection.attributes.contains(.reverse))
    }

    @Test func selectionStandsOutFromTextInEveryTheme() throws {
        for name in Self.shippedThemes {
            let theme = try ThemeLoader.load(named: name, searchPaths: [Self.themesDirectory])
            #expect(theme.selection != theme.text, "\(name)")
        }
    }

    @Test func noColorSelectsMono() {
        #expect(ThemeLoader.defaultThemeName(environment: ["NO_COLOR": "1"]) == "mono")
        #expect(ThemeLoader.defaultThemeName(environment: ["NO_COLOR": ""]) == "classic")
        #expect(ThemeLoader.defaultThemeName(environment: [:]) == "classic")
    }

    @Test func aMissingRoleFallsBackToClassicAndAMissingColourToTheDefault() throws {
        let theme = try ThemeLoader.parse("""
        [selection]
        bg = "#102030"
        attributes = ["bold", "underline"]
        """, file: "mine.toml")
        #expect(theme.name == "mine")
        #expect(theme.selection == Style(foreground: .default, background: .rgb(0x10, 0x20, 0x30), attributes: [.bold, .underline]))
        #expect(theme.shelf == Theme.classic.shelf)
        #expect(theme.readerMatch == Theme.classic.readerMatch)
    }

    @Test func coloursComeAsHexIndexesNamesOrDefault() throws {
        #expect(ThemeLoader.color(.string("#A06a3A")) == .rgb(0xa0, 0x6a, 0x3a))
        #expect(ThemeLoader.color(.integer(0)) == .indexed(0))
        #expect(ThemeLoader.color(.integer(255)) == .indexed(255))
        #expect(ThemeLoader.color(.string("default")) == .default)
        #expect(ThemeLoader.color(.string("red")) == .indexed(1))
        #expect(ThemeLoader.color(.string("bright_white")) == .indexed(15))
        #expect(ThemeLoader.color(.string("bright-blue")) == .indexed(12))
        for bad: TOMLValue in [.string("#12"), .string("#12345g"), .string("#+12345"), .integer(256), .integer(-1),
                               .string("reddish"), .float(1.0), .boolean(true)] {
            #expect(ThemeLoader.color(bad) == nil, "\(bad)")
        }
    }

    @Test func anUnknownKeyIsRefusedWithFileLineAndKey() {
        let text = """
        name = "broken"

        [shelf]
        fg = "#ffffff"
        colour = "#000000"
        """
        #expect(throws: ThemeError(file: "themes/broken.toml", line: 5,
                                   message: "key 'shelf.colour' is not a theme key (a role has fg, bg and attributes)")) {
            try ThemeLoader.parse(text, file: "themes/broken.toml")
        }
    }

    @Test func anUnknownRoleIsRefused() throws {
        let error = try #require(throws: ThemeError.self) {
            try ThemeLoader.parse("[shelves]\nfg = 1\n", file: "t.toml")
        }
        #expect(error.line == 1)
        #expect(error.description.hasPrefix("t.toml: line 1: key 'shelves' is not a theme key"))
    }

    @Test func aBadColourIsRefusedWithTheValueAndWhatWouldDo() throws {
        let error = try #require(throws: ThemeError.self) {
            try ThemeLoader.parse("\n[sash]\nfg = \"white\"\nbg = \"#12\"\n", file: "themes/dark.toml")
        }
        #expect(error.description == "themes/dark.toml: line 4: 'sash.bg' = \"#12\" is not a colour (#rrggbb, 0–255, or a name)")
    }

    @Test func aBadAttributeIsRefused() throws {
        let error = try #require(throws: ThemeError.self) {
            try ThemeLoader.parse("[title]\nattributes = [\"bold\", \"blinking\"]\n", file: "x.toml")
        }
        #expect(error.line == 2)
        #expect(error.message.contains("\"blinking\", which is not an attribute"))
    }

    @Test func aSyntaxErrorNamesTheFileAndLine() throws {
        let error = try #require(throws: ThemeError.self) {
            try ThemeLoader.parse("[wall]\nfg = \"#000000\nbg = 1\n", file: "themes/light.toml")
        }
        #expect(error.file == "themes/light.toml")
        #expect(error.line == 2)
        #expect(error.message.contains("not closed"))
    }

    @Test func aRoleThatIsNotATableIsRefused() throws {
        let error = try #require(throws: ThemeError.self) {
            try ThemeLoader.parse("wall = \"#000000\"\n", file: "x.toml")
        }
        #expect(error.message.contains("must be a table"))
    }

    @Test func searchPathsAreTriedInOrderAndAMissingThemeListsWhatExists() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("themes-\(UUID().uuidString)")
        let user = base.appendingPathComponent("user")
        try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        try "name = \"mine\"\n[text]\nfg = 2\n".write(to: user.appendingPathComponent("dark.toml"), atomically: true, encoding: .utf8)

        let overridden = try ThemeLoader.load(named: "dark", searchPaths: [user, Self.themesDirectory])
        #expect(overridden.name == "mine")
        #expect(overridden.text.foreground == .indexed(2))
        let shipped = try ThemeLoader.load(named: "dark", searchPaths: [Self.themesDirectory, user])
        #expect(shipped.name == "dark")

        let error = try #require(throws: ThemeError.self) {
            try ThemeLoader.load(named: "neon", searchPaths: [user, Self.themesDirectory])
        }
        #expect(error.message.contains("no theme named 'neon'"))
        #expect(error.message.contains("high-contrast"))
        #expect(throws: ThemeError.self) { try ThemeLoader.load(named: "../etc/passwd", searchPaths: [user]) }
        #expect(throws: ThemeError.self) { try ThemeLoader.load(named: "a b", searchPaths: [user]) }
        // classic is built in even where no file exists.
        #expect(try ThemeLoader.load(named: "classic", searchPaths: [user]) == Theme.classic)
    }

    @Test func aPathLoadsThatFile() throws {
        let file = Self.themesDirectory.appendingPathComponent("light.toml")
        let theme = try ThemeLoader.load(named: file.path, searchPaths: [])
        #expect(theme.name == "light")
    }
}
