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
    static let neutralRoles: [(String, KeyPath<Theme, Style>)] = [
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
}
