#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the terminal can show: the one detection the shelf, `read` and `render` use.
///
/// Detection is a pure function of what was read (`detect`); `current` reads those inputs
/// for this process. `graphics` stays half blocks unless `GraphicsDetection` asked the
/// terminal (it costs a round trip, so only commands that draw pixels ask).
public struct TerminalCapabilities: Sendable, Equatable {
    /// The richest colours the terminal shows.
    public var colors: TerminalColors
    /// True when the locale is not UTF-8, so `▀` may not show: draw ASCII instead.
    public var prefersASCII: Bool
    /// How pictures can be drawn.
    public var graphics: GraphicsProtocol
    /// The size of one character cell in pixels, when the terminal reports it.
    public var cellPixels: PixelSize?

    public init(colors: TerminalColors, prefersASCII: Bool, graphics: GraphicsProtocol = .halfBlocks, cellPixels: PixelSize? = nil) {
        self.colors = colors
        self.prefersASCII = prefersASCII
        self.graphics = graphics
        self.cellPixels = cellPixels
    }

    /// Decides from the environment, the terminfo entry's colour count (nil: no entry for
    /// `TERM`), the window (nil: not a terminal) and, when the C library has set the
    /// locale, whether its character set is UTF-8 (nil: judged from the environment).
    public static func detect(environment: [String: String], terminfoColors: Int?, window: TerminalWindow? = nil,
                              localeIsUTF8: Bool? = nil) -> TerminalCapabilities {
        TerminalCapabilities(colors: colorDepth(environment: environment, terminfoColors: terminfoColors),
                             prefersASCII: !(localeIsUTF8 ?? localeWantsUTF8(environment: environment)),
                             graphics: .halfBlocks,
                             cellPixels: window?.cellPixels)
    }

    /// `NO_COLOR` (any non-empty value) → monochrome; `TERM=dumb` → monochrome;
    /// `COLORTERM=truecolor|24bit` or a `*-direct` TERM → direct; otherwise terminfo's
    /// colour count (16M → direct, 256 → 256, 8 or 16 → 16, fewer → monochrome); without
    /// a terminfo entry, a `*256color*` TERM → 256, an empty TERM → monochrome, any other → 16.
    public static func colorDepth(environment: [String: String], terminfoColors: Int?) -> TerminalColors {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        let term = (environment["TERM"] ?? "").lowercased()
        if term == "dumb" { return .monochrome }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .direct }
        if term.hasSuffix("-direct") || term.contains("-direct-") { return .direct }
        if let colors = terminfoColors { return TerminalColors.fromTerminfo(colors: colors) }
        if term.contains("256color") { return .palette256 }
        return term.isEmpty ? .monochrome : .palette16
    }

    /// True when the locale (`LC_ALL`, else `LC_CTYPE`, else `LANG`) is UTF-8.
    static func localeWantsUTF8(environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale = locale?.lowercased() else { return false }
        return locale.contains("utf-8") || locale.contains("utf8")
    }
}

extension TerminalCapabilities {
    /// This process's terminal: the environment, the compiled terminfo entry of `TERM` (read
    /// as a file, without starting ncurses) and the window of standard output.
    public static func current(environment: [String: String] = currentEnvironment,
                               window: TerminalWindow? = TerminalWindow.current()) -> TerminalCapabilities {
        let term = environment["TERM"] ?? ""
        return detect(environment: environment,
                      terminfoColors: term.isEmpty ? nil : TerminfoFile.colors(term: term, environment: environment),
                      window: window)
    }

    /// The variables detection reads, from the process environment (without building
    /// Foundation's dictionary of every variable: `render` starts in a few milliseconds).
    public static var currentEnvironment: [String: String] {
        var environment: [String: String] = [:]
        for name in ["NO_COLOR", "TERM", "COLORTERM", "LC_ALL", "LC_CTYPE", "LANG", "TERMINFO", "TERMINFO_DIRS", "HOME",
                     "TMUX", "TERM_PROGRAM", "KITTY_WINDOW_ID"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }
}

/// How the terminal can draw pictures: half blocks work everywhere; the pixel protocols
/// where `GraphicsDetection` finds them.
public enum GraphicsProtocol: String, Sendable, CaseIterable {
    case halfBlocks
    /// kitty's graphics protocol (`ESC _G … ESC \`).
    case kitty
    /// DEC sixel (`ESC P … q … ESC \`).
    case sixel
    /// iTerm2's inline images (`OSC 1337 ; File=… BEL`).
    case iterm2

    /// True for the protocols that draw pixels.
    public var drawsPixels: Bool { self != .halfBlocks }
}

/// A width and height in pixels.
public struct PixelSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// The terminal window as `TIOCGWINSZ` reports it: cells, and pixels when the terminal says
/// (many report 0).
public struct TerminalWindow: Sendable, Equatable {
    public var columns: Int
    public var rows: Int
    public var pixelWidth: Int
    public var pixelHeight: Int

    public init(columns: Int, rows: Int, pixelWidth: Int = 0, pixelHeight: Int = 0) {
        self.columns = columns
        self.rows = rows
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// One cell's size in pixels; nil when the terminal reports no pixel size.
    public var cellPixels: PixelSize? {
        guard columns > 0, rows > 0, pixelWidth > 0, pixelHeight > 0,
              pixelWidth >= columns, pixelHeight >= rows else { return nil }
        return PixelSize(width: pixelWidth / columns, height: pixelHeight / rows)
    }

    /// The window of the terminal on `descriptor` (standard output: 1); nil when it is not a terminal.
    public static func current(_ descriptor: Int32 = 1) -> TerminalWindow? {
        var window = winsize()
        guard isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0 else { return nil }
        return TerminalWindow(columns: Int(window.ws_col), rows: Int(window.ws_row),
                              pixelWidth: Int(window.ws_xpixel), pixelHeight: Int(window.ws_ypixel))
    }
}
