import Foundation
import Testing
@testable import Terminal

/// Themes on terminals of 8 and 16 colours (`TERM=xterm`, `TERM=linux`): a surface meant
/// to be neutral (walls, shelves, bars, the page) never turns red, which reads as an error.
@Suite struct BasicColourThemeTests {
    static let bundled = ["classic", "dark", "light", "high-contrast", "mono"]
    static let depths = [8, 16]
    static let reds: Set<Int32> = [1, 9, 5, 13]

    /// The roles drawn as surfaces or plain text, never as a warning.
    static let neutralRoles: [(String, KeyPath<Theme, Style> & Sendable)] = [
        ("wall", \.wall), ("shelf", \.shelf), ("shelf_edge", \.shelfEdge), ("cover_shadow", \.coverShadow),
        ("text", \.text), ("dim_text", \.dimText), ("progress_empty", \.progressEmpty), ("status_line", \.statusLine),
        ("hint_bar", \.hintBar), ("reader_text", \.readerText), ("reader_quote", \.readerQuote), ("reader_code", \.readerCode),
    ]

    @Test(arguments: bundled, depths)
    func noNeutralSurfaceMapsToRed(name: String, depth: Int) throws {
        let theme = try ThemeLoader.load(named: name, searchPaths: [ThemeTests.themesDirectory])
        var mapper = ColorMapper(colors: .palette16, basicColors: depth)
        for (role, keyPath) in Self.neutralRoles {
            let style = theme[keyPath: keyPath]
            for (part, color) in [("fg", style.foreground), ("bg", style.background)] {
                let index = mapper.index(for: color)
                #expect(!Self.reds.contains(index), "\(name) \(role) \(part) is colour \(index) at \(depth) colours")
            }
        }
    }

    @Test(arguments: bundled, depths)
    func theStatusLineAndShelfStayReadableAndTheSashStaysRed(name: String, depth: Int) throws {
        let theme = try ThemeLoader.load(named: name, searchPaths: [ThemeTests.themesDirectory])
        guard theme.sash.background != .default else { return }     // mono: attributes only
        var mapper = ColorMapper(colors: .palette16, basicColors: depth)
        for (role, style) in [("status_line", theme.statusLine), ("hint_bar", theme.hintBar), ("reader_text", theme.readerText),
                              ("text", theme.text), ("dim_text", theme.dimText), ("title", theme.title)] {
            let pair = mapper.indices(for: style)
            #expect(pair.foreground != pair.background, "\(name) \(role) at \(depth) colours")
        }
        // Red is kept for what is meant to be red.
        #expect(Self.reds.contains(mapper.index(for: theme.sash.background)), "\(name)")
        #expect(Self.reds.contains(mapper.index(for: theme.error.foreground)), "\(name)")
    }

    @Test func aGreyNeverBecomesRedAtEightColours() {
        var eight = ColorMapper(colors: .palette16, basicColors: 8)
        for level in stride(from: 0, through: 255, by: 5) {
            let v = UInt8(level)
            #expect(![1, 5].contains(eight.index(for: .rgb(v, v, v))), "grey \(level)")
        }
        // A saturated red is still red.
        #expect(eight.index(for: .rgb(0xd0, 0x1c, 0x1c)) == 1)
    }

    @Test(arguments: bundled, depths)
    func aProgressBarsTrackShowsOnItsWall(name: String, depth: Int) throws {
        let theme = try ThemeLoader.load(named: name, searchPaths: [ThemeTests.themesDirectory])
        guard theme.progressEmpty.foreground != .default else { return }     // mono: attributes only
        var mapper = ColorMapper(colors: .palette16, basicColors: depth)
        let track = mapper.indices(for: theme.progressEmpty)
        #expect(track.foreground != track.background, "\(name) progress_empty at \(depth) colours: \(track)")
        // At 8 colours the filled part keeps its own colour too (at 16, light's green and
        // its track are both dark grey, told apart by their glyphs).
        let filled = mapper.indices(for: theme.progressFilled)
        #expect(depth != 8 || filled.foreground != track.foreground, "\(name): the filled part and the track are one colour")
    }

    @Test func aQuietMarkTakesTheNextGreyTowardsItsOwnLightness() {
        var eight = ColorMapper(colors: .palette16, basicColors: 8)
        var sixteen = ColorMapper(colors: .palette16, basicColors: 16)
        // classic's track on its wall: a little lighter than the black both become.
        let track = Style(foreground: .rgb(0x55, 0x4c, 0x44), background: .rgb(0x2b, 0x24, 0x1f))
        #expect(eight.indices(for: track) == (7, 0))
        #expect(sixteen.indices(for: track) == (8, 0))
        // A mark darker than a black wall has nowhere to go; one darker than a light grey does.
        #expect(eight.indices(for: Style(foreground: .rgb(0x18, 0x14, 0x11), background: .rgb(0x2b, 0x24, 0x1f))) == (0, 0))
        #expect(eight.indices(for: Style(foreground: .rgb(0xcf, 0xc8, 0xbc), background: .rgb(0xe0, 0xdd, 0xd8))) == (0, 7))
        // Colours alike (less than 0.05 apart in lightness) stay alike.
        #expect(eight.indices(for: Style(foreground: .rgb(0x2c, 0x25, 0x20), background: .rgb(0x2b, 0x24, 0x1f))) == (0, 0))
        // At 256 colours nothing is changed.
        var many = ColorMapper(colors: .palette256)
        #expect(many.indices(for: track) == (many.index(for: track.foreground), many.index(for: track.background)))
    }

    @Test(arguments: bundled)
    func boldTextOnThePageIsNotGreyOnGreyAtEightColours(name: String) throws {
        let theme = try ThemeLoader.load(named: name, searchPaths: [ThemeTests.themesDirectory])
        var eight = ColorMapper(colors: .palette16, basicColors: 8)
        var sixteen = ColorMapper(colors: .palette16, basicColors: 16)
        for role in [theme.readerText, theme.text, theme.selection, theme.readerQuote] {
            var strong = role
            strong.attributes.insert(.bold)
            let shown = eight.attributes(for: strong)
            // Bold brightens colours 0–7 on such terminals: black would show as grey.
            if eight.indices(for: strong).foreground == 0 {
                #expect(!shown.contains(.bold), "\(name): bold black at 8 colours")
            } else {
                #expect(shown == strong.attributes, "\(name)")
            }
            #expect(shown.subtracting(.bold) == strong.attributes.subtracting(.bold))
            #expect(sixteen.attributes(for: strong) == strong.attributes, "\(name): 16 colours keep bold")
        }
    }
}
