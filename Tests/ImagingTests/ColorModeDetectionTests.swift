import Testing
@testable import Imaging

@Suite struct ColorModeDetectionTests {
    @Test(arguments: [
        (["NO_COLOR": "1", "COLORTERM": "truecolor", "TERM": "xterm-256color"], 256, ColorMode.none),
        (["TERM": "dumb", "COLORTERM": "truecolor"], nil, .none),
        (["TERM": "xterm-256color", "COLORTERM": "truecolor"], 256, .truecolor),
        (["TERM": "xterm-256color", "COLORTERM": "24bit"], 256, .truecolor),
        (["TERM": "xterm-direct"], nil, .truecolor),
        (["TERM": "xterm-256color"], 256, .palette256),
        (["TERM": "xterm-256color"], nil, .palette256),
        (["TERM": "tmux-256color", "NO_COLOR": ""], 256, .palette256),
        (["TERM": "xterm"], 8, .palette16),
        (["TERM": "linux"], 8, .palette16),
        (["TERM": "rxvt"], 16, .palette16),
        (["TERM": "vt100"], -1, .none),
        (["TERM": "weird"], 16_777_216, .truecolor),
        ([:], nil, .none),
    ] as [([String: String], Int?, ColorMode)])
    func detection(environment: [String: String], terminfoColors: Int?, expected: ColorMode) {
        #expect(ColorModeDetection.detect(environment: environment, terminfoColors: terminfoColors) == expected)
    }

    @Test func asciiWhenTheLocaleIsNotUTF8() {
        #expect(!ColorModeDetection.prefersASCII(environment: ["LANG": "en_US.UTF-8"]))
        #expect(!ColorModeDetection.prefersASCII(environment: ["LC_ALL": "C.utf8", "LANG": "C"]))
        #expect(!ColorModeDetection.prefersASCII(environment: ["LC_CTYPE": "de_DE.UTF-8", "LANG": "C"]))
        #expect(ColorModeDetection.prefersASCII(environment: ["LC_ALL": "C", "LANG": "en_US.UTF-8"]))
        #expect(ColorModeDetection.prefersASCII(environment: ["LANG": "ja_JP.eucJP"]))
        #expect(ColorModeDetection.prefersASCII(environment: [:]))
    }

    /// A compiled terminfo entry with `colors` as its numeric capability 13.
    static func terminfo(colors: Int, wide: Bool) -> [UInt8] {
        func short(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        let names = Array("t|test\0".utf8)  // 7 bytes: odd, so a pad byte follows the booleans
        var bytes = short(wide ? 0o1036 : 0o432) + short(names.count) + short(2) + short(15) + short(0) + short(0)
        bytes += names + [1, 0]
        if (names.count + 2) % 2 == 1 { bytes.append(0) }
        for index in 0..<15 {
            let value = index == 13 ? colors : 0xFFFF
            bytes += wide ? short(value & 0xFFFF) + short(value >> 16 & 0xFFFF) : short(value)
        }
        return bytes
    }

    @Test func terminfoColoursAreRead() {
        #expect(TerminfoReader.maxColors(in: Self.terminfo(colors: 256, wide: false)) == 256)
        #expect(TerminfoReader.maxColors(in: Self.terminfo(colors: 8, wide: false)) == 8)
        #expect(TerminfoReader.maxColors(in: Self.terminfo(colors: 16_777_216, wide: true)) == 16_777_216)
        #expect(TerminfoReader.maxColors(in: Array(Self.terminfo(colors: 256, wide: false).prefix(20))) == nil)
        #expect(TerminfoReader.maxColors(in: [1, 2, 3]) == nil)
    }
}
