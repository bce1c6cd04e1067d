import Foundation
import Testing
@testable import Terminal

/// The one detection of what the terminal shows: the cases of the two detectors it
/// replaced (the shelf's `TerminalColors.detect` and `render`'s `ColorModeDetection`).
@Suite struct TerminalCapabilitiesTests {
    /// `render`'s former cases.
    @Test(arguments: [
        (["NO_COLOR": "1", "COLORTERM": "truecolor", "TERM": "xterm-256color"], 256, TerminalColors.monochrome),
        (["TERM": "dumb", "COLORTERM": "truecolor"], nil, .monochrome),
        (["TERM": "xterm-256color", "COLORTERM": "truecolor"], 256, .direct),
        (["TERM": "xterm-256color", "COLORTERM": "24bit"], 256, .direct),
        (["TERM": "xterm-direct"], nil, .direct),
        (["TERM": "xterm-256color"], 256, .palette256),
        (["TERM": "xterm-256color"], nil, .palette256),
        (["TERM": "tmux-256color", "NO_COLOR": ""], 256, .palette256),
        (["TERM": "xterm"], 8, .palette16),
        (["TERM": "linux"], 8, .palette16),
        (["TERM": "rxvt"], 16, .palette16),
        (["TERM": "vt100"], -1, .monochrome),
        (["TERM": "weird"], 16_777_216, .direct),
        ([:], nil, .monochrome),
    ] as [([String: String], Int?, TerminalColors)])
    func colourDepthAsRenderDecidedIt(environment: [String: String], terminfoColors: Int?, expected: TerminalColors) {
        #expect(TerminalCapabilities.colorDepth(environment: environment, terminfoColors: terminfoColors) == expected)
        #expect(TerminalCapabilities.detect(environment: environment, terminfoColors: terminfoColors).colors == expected)
    }

    /// The shelf's former cases: `NO_COLOR`, then `COLORTERM`, then terminfo.
    @Test(arguments: [
        (["NO_COLOR": "1", "COLORTERM": "truecolor"], 1 << 24, TerminalColors.monochrome),
        (["NO_COLOR": ""], 256, .palette256),
        (["COLORTERM": "truecolor"], 256, .direct),
        (["COLORTERM": "24bit"], 8, .direct),
        (["COLORTERM": "yes"], 256, .palette256),
        ([:], 1 << 24, .direct),
        ([:], 88, .palette16),
        ([:], 8, .palette16),
        ([:], 0, .monochrome),
    ] as [([String: String], Int, TerminalColors)])
    func colourDepthAsTheShelfDecidedIt(environment: [String: String], terminfoColors: Int, expected: TerminalColors) {
        #expect(TerminalCapabilities.colorDepth(environment: environment, terminfoColors: terminfoColors) == expected)
    }

    /// Asked of the installed terminfo entries, without opening the screen. An unknown
    /// TERM now gets 16 colours (the rule `render` had); the shelf's detector said none.
    @Test func theCurrentTerminalIsAskedOfTerminfoFilesWithoutOpeningTheScreen() {
        func colors(_ environment: [String: String]) -> TerminalColors {
            TerminalCapabilities.current(environment: environment).colors
        }
        #expect(colors(["TERM": "xterm-256color"]) == .palette256)
        #expect(colors(["TERM": "xterm"]) == .palette16)
        #expect(colors(["TERM": "dumb"]) == .monochrome)
        #expect(colors(["TERM": "vt100"]) == .monochrome)   // an entry without colours
        #expect(colors(["TERM": "no-such-terminal"]) == .palette16)
        #expect(colors(["TERM": "no-such-256color"]) == .palette256)
        #expect(colors([:]) == .monochrome)
        #expect(colors(["TERM": "xterm-256color", "COLORTERM": "truecolor"]) == .direct)
        #expect(colors(["TERM": "xterm-256color", "NO_COLOR": "1"]) == .monochrome)
    }

    @Test func asciiWhenTheLocaleIsNotUTF8() {
        func ascii(_ environment: [String: String]) -> Bool {
            TerminalCapabilities.detect(environment: environment, terminfoColors: 256).prefersASCII
        }
        #expect(!ascii(["LANG": "en_US.UTF-8"]))
        #expect(!ascii(["LC_ALL": "C.utf8", "LANG": "C"]))
        #expect(!ascii(["LC_CTYPE": "de_DE.UTF-8", "LANG": "C"]))
        #expect(ascii(["LC_ALL": "C", "LANG": "en_US.UTF-8"]))
        #expect(ascii(["LANG": "ja_JP.eucJP"]))
        #expect(ascii([:]))
    }

    @Test func theCLibrarysLocaleWinsOverTheEnvironmentWhenKnown() {
        let utf8 = ["LANG": "en_US.UTF-8"]
        // A UTF-8 LANG whose locale is not installed leaves the C library in "C".
        #expect(TerminalCapabilities.detect(environment: utf8, terminfoColors: 256, localeIsUTF8: false).prefersASCII)
        #expect(!TerminalCapabilities.detect(environment: [:], terminfoColors: 256, localeIsUTF8: true).prefersASCII)
    }

    @Test func picturesAreHalfBlocksUntilTheTerminalIsAsked() {
        // The environment alone never turns pixels on: only `GraphicsDetection`'s replies do.
        #expect(TerminalCapabilities.detect(environment: ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"], terminfoColors: 256).graphics == .halfBlocks)
    }

    @Test func theCellSizeInPixelsComesFromTheWindowWhenItIsReported() {
        let window = TerminalWindow(columns: 120, rows: 40, pixelWidth: 1200, pixelHeight: 880)
        #expect(window.cellPixels == PixelSize(width: 10, height: 22))
        #expect(TerminalCapabilities.detect(environment: [:], terminfoColors: 256, window: window).cellPixels
            == PixelSize(width: 10, height: 22))
        // Many terminals (and tmux) report no pixels; a pipe has no window.
        #expect(TerminalWindow(columns: 80, rows: 24).cellPixels == nil)
        #expect(TerminalWindow(columns: 80, rows: 24, pixelWidth: 800, pixelHeight: 0).cellPixels == nil)
        #expect(TerminalWindow(columns: 0, rows: 0, pixelWidth: 800, pixelHeight: 600).cellPixels == nil)
        #expect(TerminalCapabilities.detect(environment: [:], terminfoColors: 256, window: nil).cellPixels == nil)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        #expect(TerminalWindow.current(ends[1]) == nil)
        ends.forEach { close($0) }
    }

    @Test func aColourChoiceForcesADepthOrKeepsTheDetectedOne() {
        #expect(ColorChoice.allCases.map(\.rawValue) == ["auto", "truecolor", "256", "16", "none"])
        #expect(ColorChoice(rawValue: "truecolor")?.forced == .direct)
        #expect(ColorChoice(rawValue: "256")?.forced == .palette256)
        #expect(ColorChoice(rawValue: "16")?.forced == .palette16)
        #expect(ColorChoice(rawValue: "none")?.forced == .monochrome)
        #expect(ColorChoice(rawValue: "auto")?.forced == nil)
        #expect(ColorChoice(rawValue: "8") == nil)
        #expect(ColorChoice.auto.colors(detected: .palette256) == .palette256)
        #expect(ColorChoice.palette16.colors(detected: .direct) == .palette16)
    }

    /// A compiled terminfo entry with `colors` as its numeric capability 13.
    static func terminfo(colors: Int, wide: Bool, numbers: Int = 15) -> [UInt8] {
        func short(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        let names = Array("t|test\0".utf8)  // 7 bytes: odd, so a pad byte follows the booleans
        var bytes = short(wide ? 0o1036 : 0o432) + short(names.count) + short(2) + short(numbers) + short(0) + short(0)
        bytes += names + [1, 0]
        if (names.count + 2) % 2 == 1 { bytes.append(0) }
        for index in 0..<numbers {
            let value = index == 13 ? colors : 0xFFFF
            bytes += wide ? short(value & 0xFFFF) + short(value >> 16 & 0xFFFF) : short(value)
        }
        return bytes
    }

    @Test func terminfoColoursAreRead() {
        #expect(TerminfoFile.maxColors(in: Self.terminfo(colors: 256, wide: false)) == 256)
        #expect(TerminfoFile.maxColors(in: Self.terminfo(colors: 8, wide: false)) == 8)
        #expect(TerminfoFile.maxColors(in: Self.terminfo(colors: 16_777_216, wide: true)) == 16_777_216)
        #expect(TerminfoFile.maxColors(in: Array(Self.terminfo(colors: 256, wide: false).prefix(20))) == nil)
        #expect(TerminfoFile.maxColors(in: [1, 2, 3]) == nil)
        // An entry without the capability (absent, or fewer numbers) has no colours.
        #expect(TerminfoFile.maxColors(in: Self.terminfo(colors: 0xFFFF, wide: false)) == 0)
        #expect(TerminfoFile.maxColors(in: Self.terminfo(colors: 0, wide: false, numbers: 5)) == 0)
    }
}
