import TextWidth

/// OSC 8 hyperlinks over cells ncurses has drawn: which terminals are sent them, what a URL
/// becomes inside the escape, and the bytes that make a canvas's `LinkSpan`s clickable.
///
/// ncurses has no hyperlink in its cells, so the links are written after it (`CursesBackend`
/// after each `doupdate`): for each span the cursor moves there, the span's glyphs are
/// written again in the colours ncurses gave them, inside `ESC ] 8 ; id=N ; URL ESC \` and
/// `ESC ] 8 ; ; ESC \`; the cursor is saved before and restored after, so ncurses finds it
/// where it left it. A cell ncurses redraws loses its link, so the links follow every frame
/// that wrote cells.
public enum Hyperlinks {
    /// `hyperlinks =` in config.toml: `auto` (where the terminal is known to show them) or `off`.
    public enum Choice: String, Sendable, CaseIterable {
        case auto, off
    }

    /// Longer URLs (as sent, after `escaped`) are not linked: terminals cap the URI (kitty
    /// and VTE at about 2 KB) and a link that long is no address a person follows.
    public static let longestURL = 2000

    /// Whether OSC 8 is sent: on for kitty (`TERM=xterm-kitty` or `KITTY_WINDOW_ID`), foot,
    /// WezTerm, iTerm2 and VTE 0.50 and later (`VTE_VERSION` ≥ 5000); off inside tmux and
    /// GNU screen (they pass it on only when told to, and draw the cells themselves), off
    /// for every other terminal (one that ignores OSC 8 may print it), and off when the
    /// user says so.
    public static func supported(environment: [String: String], choice: Choice) -> Bool {
        guard choice == .auto else { return false }
        let term = (environment["TERM"] ?? "").lowercased()
        let program = environment["TERM_PROGRAM"] ?? ""
        func present(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        if present("TMUX") || present("STY") || term.hasPrefix("tmux") || term.hasPrefix("screen") || program == "tmux" {
            return false
        }
        if term == "xterm-kitty" || present("KITTY_WINDOW_ID") { return true }
        if term == "foot" || term.hasPrefix("foot-") { return true }
        if program == "WezTerm" || term == "wezterm" { return true }
        if program == "iTerm.app" { return true }
        if let vte = environment["VTE_VERSION"].flatMap({ Int($0) }), vte >= 5000 { return true }
        return false
    }

    /// The URL as it may stand in the escape: every byte outside printable ASCII (controls,
    /// ESC, BEL, space, DEL, and every byte of a non-ASCII character: C1 controls,
    /// direction overrides) percent-encoded, so nothing in it can end the escape or start
    /// another; nil when the result is longer than `longestURL` or empty.
    public static func escaped(_ url: String) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(url.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in url.utf8 {
            if byte > 0x20 && byte < 0x7F {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
            if out.count > longestURL { return nil }
        }
        return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
    }

    /// The bytes that make `spans` links on a terminal showing `canvas` (drawn through
    /// `mapper`'s colours), clipped to `size` (the terminal's cells); empty when none can be
    /// linked. `showable` is the C library's say on a character's first scalar (ncurses draws
    /// U+FFFD for one it calls zero-width or unprintable), so the glyphs match ncurses'.
    public static func sequence(for spans: [LinkSpan], in canvas: Canvas, size: (width: Int, height: Int),
                                mapper: inout ColorMapper,
                                showable: (Unicode.Scalar) -> Bool = { DisplayWidth.of(Character($0)) > 0 }) -> [UInt8] {
        let width = min(size.width, canvas.width), height = min(size.height, canvas.height)
        var ids: [String: Int] = [:]
        var out = ""
        for span in spans where span.y < height && span.x < width {
            guard let url = escaped(span.url) else { continue }
            let id = ids[url] ?? (ids.count + 1)
            ids[url] = id
            var style: Style?
            var opened = false, placed = false
            for x in span.x..<min(span.maxX, width) {
                let cell = canvas[x, span.y]
                if cell.isContinuation { continue }
                // After a character that is not ASCII the terminal's idea of its width may
                // not be ours: say where the next one goes.
                if !placed { out += "\u{1B}[\(span.y + 1);\(x + 1)H" }
                if cell.style != style {
                    out += sgr(for: cell.style, mapper: &mapper)
                    style = cell.style
                }
                if !opened { out += "\u{1B}]8;id=\(id);\(url)\u{1B}\\" }
                opened = true
                let glyph = shown(cell.glyph, showable: showable)
                out += glyph
                placed = glyph.unicodeScalars.allSatisfy(\.isASCII)
            }
            if opened { out += "\u{1B}]8;;\u{1B}\\" }
        }
        guard !out.isEmpty else { return [] }
        return Array(("\u{1B}7" + out + "\u{1B}[0m\u{1B}8").utf8)
    }

    /// What ncurses puts in a cell for `glyph`: without the scalars never sent, at most five
    /// of them (a cell's limit), a blank for nothing, U+FFFD when the first is not showable.
    static func shown(_ glyph: String, showable: (Unicode.Scalar) -> Bool) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in glyph.unicodeScalars where !CursesBackend.isNeverSent(scalar) && scalars.count < 5 {
            scalars.append(scalar)
        }
        guard let first = scalars.first else { return " " }
        return showable(first) ? String(scalars) : "\u{FFFD}"
    }

    /// Select Graphic Rendition for a style as ncurses draws it: attributes reset, then the
    /// style's (strike-through is not drawn), then the colours in the mode `mapper` maps to.
    static func sgr(for style: Style, mapper: inout ColorMapper) -> String {
        let attributes = mapper.attributes(for: style)
        var parameters = ["0"]
        if attributes.contains(.bold) { parameters.append("1") }
        if attributes.contains(.dim) { parameters.append("2") }
        if attributes.contains(.italic) { parameters.append("3") }
        if attributes.contains(.underline) { parameters.append("4") }
        if attributes.contains(.reverse) { parameters.append("7") }
        let (foreground, background) = mapper.indices(for: style)
        if let colour = colour(foreground, base: 30, colors: mapper.colors) { parameters.append(colour) }
        if let colour = colour(background, base: 40, colors: mapper.colors) { parameters.append(colour) }
        return "\u{1B}[" + parameters.joined(separator: ";") + "m"
    }

    /// One colour's parameter from the number ncurses was given (`ColorMapper.index`): nil for
    /// the default; 0–7 and 8–15 as the basic and bright colours, the rest of the palette
    /// by index, and in direct mode 0xRRGGBB.
    private static func colour(_ index: Int32, base: Int, colors: TerminalColors) -> String? {
        guard index >= 0 else { return nil }
        if index < 8 { return String(base + Int(index)) }
        if colors == .direct {
            return "\(base + 8);2;\(index >> 16 & 0xFF);\(index >> 8 & 0xFF);\(index & 0xFF)"
        }
        if index < 16 { return String(base + 60 + Int(index) - 8) }
        return "\(base + 8);5;\(index)"
    }
}
