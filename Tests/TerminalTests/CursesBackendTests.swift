import Foundation
import Testing
@preconcurrency import CNcursesw
@testable import Terminal

/// A pseudo-terminal: the backend talks to its slave side, the test reads what was
/// written and types on the master side.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32

    init(width: Int, height: Int) throws {
        var master: Int32 = -1, slave: Int32 = -1
        guard nsc_open_pty(&master, &slave, UInt16(height), UInt16(width)) == 0 else {
            throw TerminalError("no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        self.master = master
        self.slave = slave
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(slave)
        close(master)
    }

    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Everything the program wrote, waiting until it has been quiet for 50 ms.
    func output() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 50) > 0 {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func resize(width: Int, height: Int) {
        _ = nsc_set_window_size(slave, UInt16(height), UInt16(width))
    }
}

/// ncurses keeps one current screen per process: these tests run one at a time.
@Suite(.serialized) struct CursesBackendTests {
    init() {
        // Wide characters need a UTF-8 locale, whatever the machine running the tests uses.
        setenv("LC_ALL", "C.UTF-8", 1)
    }

    func open(_ pty: PseudoTerminal, _ environment: [String: String]) throws -> CursesBackend {
        try CursesBackend(environment: environment, input: pty.slave, output: pty.slave)
    }

    @Test func anUnknownTerminalTypeIsAClearError() throws {
        let pty = try PseudoTerminal(width: 40, height: 10)
        #expect(throws: TerminalError("unknown terminal type 'no-such-terminal': set TERM to a type your terminal supports")) {
            _ = try open(pty, ["TERM": "no-such-terminal"])
        }
        #expect(throws: TerminalError("TERM is not set: set TERM to a type your terminal supports (for example xterm-256color)")) {
            _ = try open(pty, [:])
        }
    }

    @Test func somethingThatIsNotATerminalIsRefused() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(throws: TerminalError.self) {
            _ = try CursesBackend(environment: ["TERM": "xterm-256color"], input: fds[0], output: fds[1])
        }
    }

    @Test func drawsTextInTheNearest256ColoursAndThenOnlyChanges() throws {
        let pty = try PseudoTerminal(width: 40, height: 10)
        let backend = try open(pty, ["TERM": "xterm-256color"])
        defer { backend.restore() }
        #expect(backend.size == (40, 10))
        #expect(backend.capabilities.colors == .palette256)
        #expect(backend.drawingColors == .palette256)
        _ = pty.output()

        var canvas = Canvas(width: 40, height: 10)
        canvas.put("Hello", x: 2, y: 1, style: Style(foreground: .rgb(255, 255, 255), background: .rgb(250, 0, 0), attributes: .bold))
        canvas.put("日本", x: 10, y: 1, style: .plain)
        backend.draw(canvas)
        let first = pty.output()
        #expect(first.contains("Hello"))
        #expect(first.contains("48;5;196m"))   // red background → palette 196
        #expect(first.contains("日本"))
        #expect(backend.lastDraw.cellsWritten == 40 * 10 - 2)   // two continuation cells skipped

        backend.draw(canvas)
        #expect(backend.lastDraw.cellsWritten == 0)
        #expect(!pty.output().contains("Hello"))

        canvas.put("J", x: 2, y: 1, style: Style(foreground: .rgb(255, 255, 255), background: .rgb(250, 0, 0), attributes: .bold))
        backend.draw(canvas)
        #expect(backend.lastDraw.cellsWritten == 1)
        let change = pty.output()
        #expect(change.contains("J"))
        #expect(!change.contains("ello"))
    }

    @Test func keysMouseAndTimeouts() throws {
        let pty = try PseudoTerminal(width: 40, height: 10)
        let backend = try open(pty, ["TERM": "xterm-256color"])
        defer { backend.restore() }
        backend.draw(Canvas(width: 40, height: 10))
        _ = pty.output()

        // Nothing typed: the wait ends at its timeout, not sooner (a loaded machine only makes it
        // later), and ends at all: the bound above is a hang's, not a measure of speed.
        let start = Date()
        #expect(backend.nextEvent(timeout: 0.05) == nil)
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= 0.04 && waited < 30)

        // SGR mouse reports (xterm-256color's kmous): a press at column 3, row 2 (1-based);
        // its release (ignored) read together with a second press and release, which
        // ncurses merges into a click; then the wheel.
        pty.type("\u{1B}[<0;3;2M")
        #expect(backend.nextEvent(timeout: 10) == .mouse(.left, x: 2, y: 1))
        pty.type("\u{1B}[<0;3;2m\u{1B}[<0;7;2M\u{1B}[<0;7;2m")
        #expect(backend.nextEvent(timeout: 10) == .mouse(.left, x: 6, y: 1))
        pty.type("\u{1B}[<64;5;6M\u{1B}[<65;5;6M")
        #expect(backend.nextEvent(timeout: 10) == .mouse(.wheelUp, x: 4, y: 5))
        #expect(backend.nextEvent(timeout: 10) == .mouse(.wheelDown, x: 4, y: 5))

        let typed: [(String, Key)] = [
            ("q", .character("q")), ("\u{1B}OA", .up), ("\u{1B}[6~", .pageDown), ("\u{1B}[1~", .home),
            ("\r", .enter), ("\u{7F}", .backspace), ("\u{3}", .control("c")), ("\u{1B}[Z", .backTab),
            ("\u{1B}OP", .function(1)), ("日", .character("日")),
        ]
        for (bytes, key) in typed {
            pty.type(bytes)
            #expect(backend.nextEvent(timeout: 10) == .key(key), "\(bytes.debugDescription)")
        }
        pty.type("\u{1B}")
        #expect(backend.nextEvent(timeout: 10) == .key(.escape))
    }

    @Test(arguments: ["tmux-256color", "screen-256color", "xterm-256color"])
    func sgrMouseWorksWhateverTerminfoSaysAndPastColumn223(term: String) throws {
        let pty = try PseudoTerminal(width: 300, height: 100)
        let backend = try open(pty, ["TERM": term])
        backend.draw(Canvas(width: 300, height: 100))
        #expect(pty.output().contains("\u{1B}[?1006h"))
        pty.type("\u{1B}[<0;250;90M")
        #expect(backend.nextEvent(timeout: 10) == .mouse(.left, x: 249, y: 89))
        pty.type("\u{1B}[<0;250;90m")
        #expect(backend.nextEvent(timeout: 0.2) == nil)
        pty.type("\u{1B}[<65;300;100M")
        #expect(backend.nextEvent(timeout: 10) == .mouse(.wheelDown, x: 299, y: 99))
        backend.restore()
        #expect(pty.output().contains("\u{1B}[?1006l"))
    }

    @Test func x10MouseReportsStillWorkThroughNcurses() throws {
        let pty = try PseudoTerminal(width: 80, height: 24)
        let backend = try open(pty, ["TERM": "tmux-256color"])
        defer { backend.restore() }
        backend.draw(Canvas(width: 80, height: 24))
        _ = pty.output()
        // ESC [ M, then button + 32, column + 32, row + 32 (1-based): a press at (10, 5).
        pty.type("\u{1B}[M\u{20}\u{2A}\u{25}")
        #expect(backend.nextEvent(timeout: 10) == .mouse(.left, x: 9, y: 4))
    }

    @Test func aResizeArrivesAsAnEventWithTheNewSize() throws {
        let pty = try PseudoTerminal(width: 40, height: 10)
        let backend = try open(pty, ["TERM": "xterm-256color"])
        defer { backend.restore() }
        backend.draw(Canvas(width: 40, height: 10))
        _ = pty.output()
        pty.resize(width: 52, height: 14)
        kill(getpid(), SIGWINCH)
        #expect(backend.nextEvent(timeout: 10) == .resize(width: 52, height: 14))
        #expect(backend.size == (52, 14))
        var canvas = Canvas(width: 52, height: 14)
        canvas.put("far corner", x: 40, y: 12, style: .plain)
        backend.draw(canvas)
        #expect(pty.output().contains("far corner"))
    }

    @Test func restoreLeavesTheAlternateScreenOnceAndStopsDrawing() throws {
        let pty = try PseudoTerminal(width: 40, height: 10)
        let backend = try open(pty, ["TERM": "xterm-256color"])
        backend.draw(Canvas(width: 40, height: 10))
        _ = pty.output()
        backend.restore()
        #expect(pty.output().contains("\u{1B}[?1049l"))
        backend.restore()
        var canvas = Canvas(width: 40, height: 10)
        canvas.put("after", x: 0, y: 0, style: .plain)
        backend.draw(canvas)
        #expect(backend.nextEvent(timeout: 0) == nil)
        #expect(pty.output().isEmpty)
    }

    @Test func noColorDrawsAttributesOnly() throws {
        let pty = try PseudoTerminal(width: 20, height: 4)
        let backend = try open(pty, ["TERM": "xterm-256color", "NO_COLOR": "1", "COLORTERM": "truecolor"])
        defer { backend.restore() }
        #expect(backend.capabilities.colors == .monochrome)
        var canvas = Canvas(width: 20, height: 4)
        canvas.put("Plain", x: 0, y: 0, style: Style(foreground: .rgb(255, 0, 0), background: .rgb(0, 0, 255), attributes: .bold))
        backend.draw(canvas)
        let output = pty.output()
        #expect(output.contains("Plain"))
        #expect(!output.contains("38;5;"))
        #expect(!output.contains("48;5;"))
        #expect(output.contains("\u{1B}[1m") || output.contains("\u{1B}[0;1m"))
    }

    @Test func colortermTruecolorOnA256ColourEntryReportsDirectButDraws256() throws {
        let pty = try PseudoTerminal(width: 20, height: 4)
        let backend = try open(pty, ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        defer { backend.restore() }
        #expect(backend.capabilities.colors == .direct)
        #expect(backend.drawingColors == .palette256)
    }

    @Test func aDirectColourEntryGets24BitColoursAndPairsAreResetWhenFull() throws {
        let terminfo = try TestTerminfo.directEntry(pairs: 64)
        let pty = try PseudoTerminal(width: 10, height: 6)
        let backend = try open(pty, ["TERM": terminfo])
        defer { backend.restore() }
        #expect(backend.drawingColors == .direct)
        _ = pty.output()

        var canvas = Canvas(width: 10, height: 6)
        canvas.put("Ink", x: 0, y: 0, style: Style(foreground: .rgb(0, 0, 0), background: .rgb(0x12, 0x34, 0x56)))
        backend.draw(canvas)
        let output = pty.output()
        #expect(output.contains("48;2;18;52;86m"))
        #expect(output.contains("38;2;1;1;1m"))   // black nudged off palette entry 0

        // 60 cells of distinct colours; then 50 of them in reverse order and 10 new ones.
        // The second frame runs out of the entry's 64 pairs and numbers them afresh, so a
        // cell can keep its pair number while the pair changes colour: ncurses must still
        // resend it, and every colour of the frame must reach the terminal.
        func colour(_ i: Int) -> Style { Style(foreground: .rgb(200, 200, 200), background: .rgb(UInt8(i), 100, 50)) }
        var first = Canvas(width: 10, height: 6)
        var second = Canvas(width: 10, height: 6)
        for i in 0..<60 {
            first[i % 10, i / 10] = Cell(glyph: "x", style: colour(i))
            second[i % 10, i / 10] = Cell(glyph: "x", style: colour(i < 50 ? 59 - i : 100 + i))
        }
        backend.draw(first)
        #expect(!backend.lastDraw.pairsReset)
        _ = pty.output()
        backend.draw(second)
        #expect(backend.lastDraw.pairsReset)
        let output2 = pty.output()
        for i in 0..<60 {
            let red = i < 50 ? 59 - i : 100 + i
            #expect(output2.contains("48;2;\(red);100;50m"), "cell \(i) colour \(red)")
        }
    }
}

extension CursesBackendTests {
    /// kitty's placeholder cells (a picture as text): U+10EEEE with its row's, column's and
    /// id's diacritics in one cell, the id in the foreground colour, as the terminal needs them.
    static let placeholderCells = ["\u{10EEEE}\u{0305}\u{0305}\u{06E1}", "\u{10EEEE}\u{0305}\u{030D}\u{06E1}",
                                   "\u{10EEEE}\u{030D}\u{1D244}\u{06E1}"]

    static func placeholderFrame(_ foreground: Color) -> Canvas {
        var canvas = Canvas(width: 10, height: 4)
        for (x, glyph) in placeholderCells.enumerated() { canvas[2 + x, 1] = Cell(glyph: glyph, style: Style(foreground: foreground)) }
        canvas.put("ok", x: 0, y: 2, style: .plain)
        return canvas
    }

    @Test func placeholderCellsReachA256ColourTerminalWithTheirMarksAndTheirIdsIndex() throws {
        let pty = try PseudoTerminal(width: 10, height: 4)
        let backend = try open(pty, ["TERM": "xterm-256color"])
        defer { backend.restore() }
        _ = pty.output()
        backend.draw(Self.placeholderFrame(.indexed(16)))
        let output = pty.output()
        #expect(output.contains("38;5;16m" + Self.placeholderCells.joined()), "\(output.debugDescription)")
    }

    @Test func placeholderCellsReachADirectColourTerminalWithTheirMarksAndTheirIdsColour() throws {
        let terminfo = try TestTerminfo.directEntry(pairs: 64)
        let pty = try PseudoTerminal(width: 10, height: 4)
        let backend = try open(pty, ["TERM": terminfo])
        defer { backend.restore() }
        _ = pty.output()
        backend.draw(Self.placeholderFrame(.rgb(0x53, 0x00, 0x01)))
        let output = pty.output()
        #expect(output.contains("38;2;83;0;1m" + Self.placeholderCells.joined()), "\(output.debugDescription)")
    }

    @Test func forcingDirectColourSwitchesToTheDirectSiblingEntry() throws {
        let (plain, direct) = try TestTerminfo.siblings()
        #expect(CursesBackend.directColorEntry(for: plain) == direct)
        #expect(CursesBackend.directColorEntry(for: direct) == nil)
        #expect(CursesBackend.directColorEntry(for: "vt100") == nil)

        let pty = try PseudoTerminal(width: 20, height: 4)
        let forced = try CursesBackend(environment: ["TERM": plain], colors: .direct, input: pty.slave, output: pty.slave)
        #expect(forced.terminalType == direct)
        #expect(forced.drawingColors == .direct)
        var canvas = Canvas(width: 20, height: 4)
        canvas.put("deep", x: 0, y: 0, style: Style(foreground: .rgb(0xee, 0xdd, 0xcc), background: .rgb(0x11, 0x22, 0x33)))
        forced.draw(canvas)
        #expect(pty.output().contains("48;2;17;34;51m"))
        forced.restore()

        // COLORTERM alone does not switch entries: it only reports what the terminal can do.
        let pty2 = try PseudoTerminal(width: 20, height: 4)
        let auto = try CursesBackend(environment: ["TERM": plain, "COLORTERM": "truecolor"], input: pty2.slave, output: pty2.slave)
        #expect(auto.terminalType == plain)
        #expect(auto.capabilities.colors == .direct)
        #expect(auto.drawingColors == .palette256)
        auto.restore()
    }
}

/// Compiles terminfo entries into a temporary directory with `tic` (ncurses-bin, always
/// installed), so the tests do not depend on the ncurses-term package.
enum TestTerminfo {
    nonisolated(unsafe) private static var compiled: Set<String> = []
    private static let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("newsstand-terminfo-\(getpid())")

    /// An xterm with 24-bit colour and `pairs` colour pairs.
    static func directEntry(pairs: Int) throws -> String {
        let name = "nstest-direct-\(pairs)"
        try compile(name: name, capabilities: directCapabilities(pairs: pairs))
        return name
    }

    /// A 256-colour entry and its -direct sibling, as ncurses-term ships for xterm and tmux.
    static func siblings() throws -> (plain: String, direct: String) {
        try compile(name: "nstest-256color", capabilities: [])
        try compile(name: "nstest-direct", capabilities: directCapabilities(pairs: 0x10000))
        return ("nstest-256color", "nstest-direct")
    }

    private static func directCapabilities(pairs: Int) -> [String] {
        func set(_ prefix: String, _ extended: String) -> String {
            "\(prefix)=\\E[%?%p1%{8}%<%t\(prefix == "setaf" ? 3 : 4)%p1%d%e\(extended);2;"
                + "%p1%{65536}%/%d;%p1%{256}%/%{255}%&%d;%p1%{255}%&%d%;m"
        }
        return ["colors#0x1000000", "pairs#\(pairs)", "RGB", set("setaf", "38"), set("setab", "48")]
    }

    private static func compile(name: String, capabilities: [String]) throws {
        if compiled.contains(name) { return }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let source = directory.appendingPathComponent("\(name).src")
        let lines = ["\(name)|test terminal \(name),"] + (capabilities + ["use=xterm-256color"]).map { "\t\($0)," }
        try (lines.joined(separator: "\n") + "\n").write(to: source, atomically: true, encoding: .utf8)
        let tic = Process()
        tic.executableURL = URL(fileURLWithPath: "/usr/bin/tic")
        tic.arguments = ["-x", "-o", directory.path, source.path]
        try tic.run()
        tic.waitUntilExit()
        guard tic.terminationStatus == 0 else { throw TerminalError("tic failed on \(source.path)") }
        setenv("TERMINFO", directory.path, 1)
        compiled.insert(name)
    }
}

extension CursesBackendTests {
    @Test func controlAndBidiCharactersNeverReachTheTerminal() throws {
        let pty = try PseudoTerminal(width: 20, height: 3)
        let backend = try open(pty, ["TERM": "xterm-256color"])
        defer { backend.restore() }
        _ = pty.output()
        var canvas = Canvas(width: 20, height: 3)
        // Set directly, past Canvas.put's own filter, as a careless view might.
        for (x, glyph) in ["\u{1B}", "\u{9B}", "\u{202E}", "\u{07}", "a\u{2066}"].enumerated() {
            canvas[x, 0] = Cell(glyph: glyph)
        }
        canvas.put("safe", x: 8, y: 0, style: .plain)
        backend.draw(canvas)
        let output = pty.output()
        #expect(output.contains("safe"))
        for scalar: Unicode.Scalar in ["\u{9B}", "\u{202E}", "\u{2066}", "\u{07}"] {
            #expect(!output.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16))")
        }
        #expect(!output.contains("\u{1B}\u{1B}"))
    }
}

extension CursesBackendTests {
    @Test func aTerminalWithoutAMouseIsNotSentMouseModes() throws {
        let pty = try PseudoTerminal(width: 80, height: 24)
        let backend = try open(pty, ["TERM": "vt100"])
        backend.draw(Canvas(width: 80, height: 24))
        backend.restore()
        #expect(!pty.output().contains("\u{1B}[?1006"))
    }
}

extension CursesBackendTests {
    /// `TERM=xterm` has 8 colours, and xterm shows bold black as grey: the page's bold
    /// text is sent black and not bold; bold in another colour stays bold.
    @Test func anEightColourTerminalGetsBoldBlackAsPlainBlack() throws {
        let pty = try PseudoTerminal(width: 30, height: 4)
        let backend = try open(pty, ["TERM": "xterm"])
        defer { backend.restore() }
        #expect(backend.capabilities.colors == .palette16)
        _ = pty.output()
        let paper = Color.rgb(0xf4, 0xec, 0xdc)
        var canvas = Canvas(width: 30, height: 4)
        canvas.put("Strong", x: 0, y: 0, style: Style(foreground: .rgb(0x2a, 0x22, 0x1a), background: paper, attributes: .bold))
        backend.draw(canvas)
        let page = pty.output()
        #expect(page.contains("Strong") && page.contains("\u{1B}[30m") && page.contains("\u{1B}[47m"))
        #expect(!page.contains("\u{1B}[1m") && !page.contains(";1m"), "\(page.debugDescription)")
        canvas.put("Title", x: 0, y: 1, style: Style(foreground: .rgb(0xee, 0xe6, 0xd8), background: .rgb(0x2b, 0x24, 0x1f), attributes: .bold))
        backend.draw(canvas)
        let title = pty.output()
        #expect(title.contains("Title") && (title.contains("\u{1B}[1m") || title.contains(";1m")), "\(title.debugDescription)")
    }
}

extension CursesBackendTests {
    /// `LANG=C`: Japanese cannot be shown. Each character becomes one `?` in its first
    /// column (its second stays blank), so what follows stays in its column, and the
    /// backend says so once.
    @Test func aCLocaleDrawsAMarkForEachCharacterItCannotShowAndSaysSoOnce() throws {
        setenv("LC_ALL", "C", 1)
        defer { setenv("LC_ALL", "C.UTF-8", 1) }
        let pty = try PseudoTerminal(width: 20, height: 3)
        let backend = try open(pty, ["TERM": "xterm-256color"])
        defer { backend.restore() }
        #expect(backend.capabilities.prefersASCII)
        _ = pty.output()
        var canvas = Canvas(width: 20, height: 3)
        canvas.put("ok", x: 0, y: 0, style: .plain)
        backend.draw(canvas)
        #expect(backend.takeUnshowableNotice() == nil)
        _ = pty.output()
        canvas.put("日本語 ok", x: 0, y: 1, style: .plain)
        backend.draw(canvas)
        let output = pty.output()
        #expect(output.contains("? ? ?  ok"), "\(output.debugDescription)")
        #expect(!output.unicodeScalars.contains { $0.value > 0x7F }, "\(output.debugDescription)")
        #expect(backend.takeUnshowableNotice() == CursesBackend.unshowableNotice)
        canvas.put("語", x: 0, y: 2, style: .plain)
        backend.draw(canvas)
        #expect(backend.takeUnshowableNotice() == nil)
    }
}
