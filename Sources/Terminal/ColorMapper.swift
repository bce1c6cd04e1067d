/// Maps a `Color` to the colour number ncurses is given for a terminal's colour mode,
/// remembering every answer (nearest-colour search is the costly part of a frame).
public struct ColorMapper: Sendable {
    public let colors: TerminalColors
    /// 8 or 16: how many ANSI colours a `.palette16` terminal has.
    public let basicColors: Int
    /// Nearest-palette answers for RGB colours, emptied when it reaches `cacheLimit`.
    private var cache: [UInt32: Int32] = [:]
    private let cacheLimit = 1 << 16

    public init(colors: TerminalColors, basicColors: Int = 16) {
        self.colors = colors
        self.basicColors = basicColors >= 16 ? 16 : 8
    }

    /// The ncurses colour number: -1 for the terminal's default, a palette index, or in
    /// direct mode a packed 0xRRGGBB.
    public mutating func index(for color: Color) -> Int32 {
        switch (color, colors) {
        case (.default, _), (_, .monochrome):
            return -1
        case (.rgb(let r, let g, let b), .direct):
            return Self.packed(r, g, b)
        case (.indexed(let n), .palette256):
            return Int32(n)
        case (.rgb(let r, let g, let b), _):
            let key = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
            if let known = cache[key] { return known }
            let value = Self.compute(color, colors: colors, basicColors: basicColors)
            if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[key] = value
            return value
        default:
            return Self.compute(color, colors: colors, basicColors: basicColors)
        }
    }

    /// A style's two colour numbers. With 8 or 16 colours, text meant to stand out from
    /// its background (far apart in lightness) that would land on the same colour takes
    /// the grey at the other end instead: light text on a light wall stays readable. A
    /// quieter mark (a progress bar's track, a shadow) that would vanish into a grey takes
    /// the next grey towards its own lightness, when there is one.
    public mutating func indices(for style: Style) -> (foreground: Int32, background: Int32) {
        let foreground = index(for: style.foreground)
        let background = index(for: style.background)
        guard colors == .palette16, foreground == background, foreground >= 0,
              let fg = Self.lightness(style.foreground), let bg = Self.lightness(style.background), abs(fg - bg) >= 0.05 else {
            return (foreground, background)
        }
        if abs(fg - bg) >= 0.25 {
            let paper = Palette.rgb(ofIndex: UInt8(background))
            let dark = OKLab(r: paper.r, g: paper.g, b: paper.b).l < 0.6
            return (dark ? (basicColors >= 16 ? 15 : 7) : 0, background)
        }
        let greys: [Int32] = basicColors >= 16 ? [0, 8, 7, 15] : [0, 7]
        guard let step = greys.firstIndex(of: background).map({ $0 + (fg > bg ? 1 : -1) }), greys.indices.contains(step) else {
            return (foreground, background)
        }
        return (greys[step], background)
    }

    /// The attributes a style is drawn with. An 8-colour terminal (`TERM=xterm`) shows bold
    /// black as its bright black, a grey, which on the light grey of a page is grey on
    /// grey: such text is drawn black, not bold.
    public mutating func attributes(for style: Style) -> Attributes {
        guard colors == .palette16, basicColors < 16, style.attributes.contains(.bold), index(for: style.foreground) == 0 else {
            return style.attributes
        }
        return style.attributes.subtracting(.bold)
    }

    private static func lightness(_ color: Color) -> Double? {
        switch color {
        case .rgb(let r, let g, let b): return OKLab(r: r, g: g, b: b).l
        case .indexed(let n): let c = Palette.rgb(ofIndex: n); return OKLab(r: c.r, g: c.g, b: c.b).l
        case .default: return nil
        }
    }

    static func compute(_ color: Color, colors: TerminalColors, basicColors: Int) -> Int32 {
        switch (color, colors) {
        case (.default, _), (_, .monochrome):
            return -1
        case (.indexed(let n), .direct):
            // Direct-colour terminfo reads 0–7 as palette entries and everything else as RGB.
            if n < 8 { return Int32(n) }
            let c = Palette.rgb(ofIndex: n)
            return packed(c.r, c.g, c.b)
        case (.indexed(let n), .palette256):
            return Int32(n)
        case (.indexed(let n), .palette16):
            if Int(n) < basicColors { return Int32(n) }
            let c = Palette.rgb(ofIndex: n)
            return Int32(Palette.nearest16(r: c.r, g: c.g, b: c.b, count: basicColors))
        case (.rgb(let r, let g, let b), .direct):
            return packed(r, g, b)
        case (.rgb(let r, let g, let b), .palette256):
            return Int32(Palette.nearest256(r: r, g: g, b: b))
        case (.rgb(let r, let g, let b), .palette16):
            return Int32(Palette.nearest16(r: r, g: g, b: b, count: basicColors))
        }
    }

    /// 0xRRGGBB, except that values 0–7 (palette entries to a direct-colour terminal)
    /// become a near-black grey 0x010101, which no one can tell from black.
    static func packed(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int32 {
        let value = Int32(r) << 16 | Int32(g) << 8 | Int32(b)
        return value < 8 ? 0x010101 : value
    }
}
