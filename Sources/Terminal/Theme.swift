/// Every colour the program draws with, by role. Loaded from `themes/NAME.toml`
/// (see ThemeLoader); `Theme.classic` is the built-in fallback when no file is found.
public struct Theme: Sendable, Equatable {
    public var name: String
    /// The wall behind the shelves.
    public var wall: Style
    /// The shelf board under each row of covers (its glyphs are drawn with this style).
    public var shelf: Style
    /// The front edge of a shelf board, one row below it.
    public var shelfEdge: Style
    /// Shadow cast by a cover on the wall.
    public var coverShadow: Style
    /// The NEW sash and NEW labels.
    public var sash: Style
    public var text: Style
    public var dimText: Style
    public var title: Style
    public var selection: Style
    public var progressFilled: Style
    public var progressEmpty: Style
    public var statusLine: Style
    public var hintBar: Style
    public var error: Style
    public var readerText: Style
    public var readerHeading: Style
    public var readerQuote: Style
    public var readerLink: Style
    public var readerCode: Style
    public var readerMatch: Style

    public init(name: String, wall: Style, shelf: Style, shelfEdge: Style, coverShadow: Style, sash: Style,
                text: Style, dimText: Style, title: Style, selection: Style, progressFilled: Style,
                progressEmpty: Style, statusLine: Style, hintBar: Style, error: Style, readerText: Style,
                readerHeading: Style, readerQuote: Style, readerLink: Style, readerCode: Style, readerMatch: Style) {
        self.name = name; self.wall = wall; self.shelf = shelf; self.shelfEdge = shelfEdge
        self.coverShadow = coverShadow; self.sash = sash; self.text = text; self.dimText = dimText
        self.title = title; self.selection = selection; self.progressFilled = progressFilled
        self.progressEmpty = progressEmpty; self.statusLine = statusLine; self.hintBar = hintBar
        self.error = error; self.readerText = readerText; self.readerHeading = readerHeading
        self.readerQuote = readerQuote; self.readerLink = readerLink; self.readerCode = readerCode
        self.readerMatch = readerMatch
    }

    /// The wooden newsstand: dark wall, warm wood shelves.
    public static let classic: Theme = {
        let wallBG = Color.rgb(0x2b, 0x24, 0x1f)
        let ink = Color.rgb(0xee, 0xe6, 0xd8)
        return Theme(
            name: "classic",
            wall: Style(foreground: ink, background: wallBG),
            shelf: Style(foreground: .rgb(0xa0, 0x6a, 0x3a), background: .rgb(0x7a, 0x4e, 0x2a)),
            shelfEdge: Style(foreground: .rgb(0x4a, 0x2e, 0x18), background: wallBG),
            coverShadow: Style(foreground: .rgb(0x18, 0x14, 0x11), background: wallBG),
            sash: Style(foreground: .rgb(0xff, 0xff, 0xff), background: .rgb(0xd0, 0x1c, 0x1c), attributes: .bold),
            text: Style(foreground: ink, background: wallBG),
            dimText: Style(foreground: .rgb(0xa8, 0x9c, 0x8c), background: wallBG),
            title: Style(foreground: .rgb(0xff, 0xd8, 0x8a), background: wallBG, attributes: .bold),
            selection: Style(foreground: .rgb(0x20, 0x18, 0x10), background: .rgb(0xff, 0xc8, 0x5a), attributes: .bold),
            progressFilled: Style(foreground: .rgb(0x5a, 0xc8, 0x6e), background: wallBG),
            progressEmpty: Style(foreground: .rgb(0x55, 0x4c, 0x44), background: wallBG),
            statusLine: Style(foreground: ink, background: .rgb(0x44, 0x36, 0x2a)),
            hintBar: Style(foreground: .rgb(0xc8, 0xbc, 0xaa), background: .rgb(0x1c, 0x17, 0x13)),
            error: Style(foreground: .rgb(0xff, 0x6e, 0x5a), background: wallBG, attributes: .bold),
            readerText: Style(foreground: .rgb(0x2a, 0x22, 0x1a), background: .rgb(0xf4, 0xec, 0xdc)),
            readerHeading: Style(foreground: .rgb(0x7a, 0x2a, 0x10), background: .rgb(0xf4, 0xec, 0xdc), attributes: .bold),
            readerQuote: Style(foreground: .rgb(0x5a, 0x50, 0x46), background: .rgb(0xf4, 0xec, 0xdc), attributes: .italic),
            readerLink: Style(foreground: .rgb(0x1a, 0x4a, 0x8a), background: .rgb(0xf4, 0xec, 0xdc), attributes: .underline),
            readerCode: Style(foreground: .rgb(0x3a, 0x3a, 0x3a), background: .rgb(0xe4, 0xdc, 0xcc)),
            readerMatch: Style(foreground: .rgb(0x00, 0x00, 0x00), background: .rgb(0xff, 0xe0, 0x40))
        )
    }()
}
