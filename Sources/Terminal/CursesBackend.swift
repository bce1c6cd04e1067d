import Foundation
@preconcurrency import CNcursesw

/// Why the terminal could not be opened, in words a user can act on.
public struct TerminalError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Copies canvases to a real terminal through ncurses and reads its keys, mouse and
/// resizes.
///
/// Colour: `capabilities.colors` is what the terminal can show; `drawingColors` is what this
/// backend sends. They differ in one case: `COLORTERM=truecolor` on a 256-colour terminfo
/// entry (xterm-256color). ncurses can only send 24-bit colour through a `-direct` entry
/// (`TERM=xterm-direct`, from the ncurses-term package), so there the backend draws in
/// the 256-colour palette while `capabilities` still tells other code (such as `render`,
/// which writes its own escape sequences) that the terminal takes 24-bit colour. Views
/// that draw into this backend choose their colours by `drawingColors` (also `colors`).
///
/// Input runs in raw mode: Ctrl-C arrives as `.key(.control("c"))` for the program to
/// handle, and Ctrl-Z as `.key(.control("z"))` (call `suspend()`). Mouse: presses and
/// wheel steps, read as SGR reports on every terminal type; a press and its release that
/// arrive in one read may reach ncurses as one click, which counts as the press.
///
/// Not thread-safe: draw and read events from one thread. `restore()` may also be called
/// by the signal handlers (see `installSignalHandlers`).
public final class CursesBackend: TerminalBackend {
    /// What the terminal shows; `prefersASCII` there is the C library's locale (set by `init`).
    public let capabilities: TerminalCapabilities
    public let drawingColors: TerminalColors
    /// The terminfo entry in use (`TERM`, or its `-direct` sibling when 24-bit colour was forced).
    public let terminalType: String

    private let screen: OpaquePointer
    private var ownedFiles: [UnsafeMutablePointer<FILE>] = []
    private let outputFile: UnsafeMutablePointer<FILE>
    private var restored = false
    /// What a character the locale cannot show is drawn as: U+FFFD in a UTF-8 locale, else
    /// `?` (a C locale has neither Japanese nor U+FFFD).
    private var replacement: wchar_t { capabilities.prefersASCII ? 0x3F : 0xFFFD }
    /// Whether a character was replaced because the locale cannot show it, and whether
    /// the user was told (`takeUnshowableNotice`).
    private var replacedUnshowable = false
    private var toldUnshowable = false

    /// Said once when the locale could not show some characters.
    public static let unshowableNotice = "This locale cannot show some characters (drawn as ?): set LANG to a UTF-8 locale such as C.UTF-8"
    private var sgrMouse = false
    private var mapper: ColorMapper
    /// Pair numbers by (foreground << 32 | background) colour number. Pairs are handed
    /// out in order; when all are taken the table starts again from 1 (alloc_pair's own
    /// recycling in ncurses 6.4 fails or reuses pairs the frame still needs).
    private var pairs: [UInt64: Int32] = [:]
    private var nextPair: Int32 = 1
    private var pairLimit: Int32 = 0
    private var lastFrame: Canvas?
    /// The last frame's blank cells under its pictures (`blanksUnderPictures`).
    private var lastUnderPictures: Set<Int> = []
    private let inputDescriptor: Int32
    /// Replies to detection's batch that may still arrive, and until when (monotonic ms).
    private var lateReplies: LateReplies?
    private var lateRepliesDeadline = 0
    /// Whether the canvas's link spans are sent as OSC 8 hyperlinks (`Hyperlinks.supported`,
    /// in a UTF-8 locale).
    public let showsHyperlinks: Bool
    /// The spans last sent as hyperlinks, and whether the terminal may have lost them
    /// since (rows redrawn whole, the screen repainted).
    private var linksSent: [LinkSpan] = []
    private var linksLost = false
    /// What the last `draw` cost: for benchmarks and for finding slow frames.
    public private(set) var lastDraw = DrawStatistics()

    public struct DrawStatistics: Sendable, Equatable {
        /// Cells handed to ncurses (unchanged cells are skipped).
        public var cellsWritten = 0
        /// Colour pairs created during the frame.
        public var pairsAllocated = 0
        /// True when every pair was taken, so pairs were numbered afresh and the whole
        /// frame copied again.
        public var pairsReset = false
        /// Seconds spent copying cells into ncurses, and in `doupdate` writing to the terminal.
        public var copySeconds = 0.0
        public var updateSeconds = 0.0
        public init() {}
    }

    /// Opens the terminal named by `TERM` on standard input and output.
    /// - Parameters:
    ///   - colors: forces a colour mode, never richer than the terminfo entry allows, except
    ///     that `.direct` on a 256-colour entry switches to its `-direct` sibling when one is
    ///     installed (`xterm-256color` → `xterm-direct`): the user asked for 24-bit colour.
    ///   - input, output: file descriptors of the terminal (a pty in tests, `/dev/tty` when
    ///     standard output is a pipe).
    ///   - expectingLateReplies: detection gave up before the terminal answered it all:
    ///     replies arriving within `lateRepliesMilliseconds` are taken out of the input.
    ///   - hyperlinks: `off` never sends the canvas's links as OSC 8 hyperlinks.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                colors forced: TerminalColors? = nil, hyperlinks: Hyperlinks.Choice = .auto,
                input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO,
                expectingLateReplies: Bool = false, lateRepliesMilliseconds: Int = 2000) throws {
        setlocale(LC_ALL, "")
        guard let term = environment["TERM"], !term.isEmpty else {
            throw TerminalError("TERM is not set: set TERM to a type your terminal supports (for example xterm-256color)")
        }
        guard isatty(input) == 1, isatty(output) == 1 else {
            throw TerminalError(input == STDIN_FILENO && output == STDOUT_FILENO
                ? "standard input and output must be a terminal to open the shelf"
                : "the input and output given are not a terminal")
        }
        var opened: [UnsafeMutablePointer<FILE>] = []
        func file(_ descriptor: Int32, _ mode: String, standard: UnsafeMutablePointer<FILE>, _ number: Int32) -> UnsafeMutablePointer<FILE>? {
            if descriptor == number { return standard }
            guard let handle = fdopen(dup(descriptor), mode) else { return nil }
            opened.append(handle)
            return handle
        }
        guard let inFile = file(input, "r", standard: stdin, STDIN_FILENO),
              let outFile = file(output, "w", standard: stdout, STDOUT_FILENO) else {
            opened.forEach { fclose($0) }
            throw TerminalError("cannot open the terminal: \(String(cString: strerror(errno)))")
        }
        // Asked for 24-bit colour on a 256-colour entry: use its -direct sibling if installed.
        var entry = term
        if forced == .direct, let direct = Self.directColorEntry(for: term) { entry = direct }
        // newterm, unlike initscr, returns nil for an unknown type instead of exiting.
        guard let screen = newterm(entry, outFile, inFile) else {
            opened.forEach { fclose($0) }
            throw TerminalError("unknown terminal type '\(term)': set TERM to a type your terminal supports")
        }
        ownedFiles = opened
        outputFile = outFile
        inputDescriptor = input
        if expectingLateReplies {
            lateReplies = LateReplies()
            lateRepliesDeadline = TerminalQuery.milliseconds() + lateRepliesMilliseconds
        }
        self.screen = screen
        terminalType = entry

        raw()
        noecho()
        nonl()
        let window = nsc_stdscr()
        keypad(window, true)
        intrflush(window, false)
        leaveok(window, true)
        curs_set(0)
        set_escdelay(25)

        var terminfoColors = 0
        if has_colors() {
            start_color()
            use_default_colors()
            terminfoColors = Int(nsc_colors())
        }
        capabilities = TerminalCapabilities.detect(environment: environment, terminfoColors: terminfoColors,
                                                   window: TerminalWindow.current(output),
                                                   localeIsUTF8: nsc_is_utf8_locale() != 0)
        showsHyperlinks = !capabilities.prefersASCII && Hyperlinks.supported(environment: environment, choice: hyperlinks)
        let drawable = TerminalColors.fromTerminfo(colors: terminfoColors)
        var drawing = capabilities.colors.poorer(drawable)
        if let forced { drawing = forced.poorer(drawable) }
        drawingColors = drawing
        mapper = ColorMapper(colors: drawing, basicColors: terminfoColors >= 16 ? 16 : 8)
        pairLimit = has_colors() ? nsc_color_pairs() : 0

        mouseinterval(0)
        mousemask(InputDecoding.mouseMask, nil)
        Self.defineCommonKeys()
        // ncurses reads SGR (1006) mouse reports only when terminfo says so: xterm-256color
        // does, tmux-256color and screen-256color do not, and their X10 reports cannot
        // name a column past 223. So where terminfo has an xterm-style mouse, ask for SGR
        // reports and read them here (define_key replaces xterm-256color's own binding of
        // the prefix to KEY_MOUSE).
        sgrMouse = has_mouse()
        if sgrMouse {
            define_key(InputDecoding.sgrMousePrefix, InputDecoding.sgrMouseKeyCode)
            writeToTerminal(InputDecoding.sgrMouseOn)
        }

        CursesBackend.register(self)
    }

    /// `xterm-direct` for `xterm-256color`, `tmux-direct` for `tmux-256color`…: the entry of
    /// the same terminal with 24-bit colour (ncurses-term installs them), if there is one
    /// and `term` itself has fewer colours. Their colour sequences use the ITU form
    /// `38:2::r:g:b`, which xterm, tmux, VTE, kitty and most current terminals read.
    static func directColorEntry(for term: String) -> String? {
        guard nsc_terminfo_colors(term) < 1 << 24 else { return nil }
        var base = term
        for suffix in ["-256color", "-88color", "-16color", "-color"] where base.hasSuffix(suffix) {
            base.removeLast(suffix.count)
            break
        }
        let candidate = base + "-direct"
        return nsc_terminfo_colors(candidate) >= 1 << 24 ? candidate : nil
    }

    /// Home and End are sent differently by xterm, rxvt, tmux and the Linux console; a
    /// terminfo entry knows only one form. Teach ncurses the others it does not already know.
    private static func defineCommonKeys() {
        let extra: [(String, Int32)] = [
            ("\u{1B}[1~", KEY_HOME), ("\u{1B}[7~", KEY_HOME), ("\u{1B}[H", KEY_HOME), ("\u{1B}OH", KEY_HOME),
            ("\u{1B}[4~", KEY_END), ("\u{1B}[8~", KEY_END), ("\u{1B}[F", KEY_END), ("\u{1B}OF", KEY_END),
        ]
        for (sequence, code) in extra where key_defined(sequence) == 0 { define_key(sequence, code) }
    }

    deinit {
        restore()
        delscreen(screen)
        ownedFiles.forEach { fclose($0) }
    }

    public var size: (width: Int, height: Int) {
        let window = nsc_stdscr()
        return (Int(getmaxx(window)), Int(getmaxy(window)))
    }

    public var colors: TerminalColors { drawingColors }

    public func draw(_ canvas: Canvas) {
        guard !restored else { return }
        lastDraw = DrawStatistics()
        let start = DispatchTime.now().uptimeNanoseconds
        let sameShape = lastFrame.map { $0.width == canvas.width && $0.height == canvas.height } ?? false
        if !sameShape { werase(nsc_stdscr()) }
        let underPictures = Self.blanksUnderPictures(canvas)
        if !copy(canvas, underPictures: underPictures, skippingUnchanged: sameShape, stopWhenPairsRunOut: true) {
            // Every pair is taken: number them afresh for this frame and copy it all again.
            // Redefining a pair makes ncurses resend the cells that still show it.
            pairs.removeAll(keepingCapacity: true)
            nextPair = 1
            lastDraw.pairsReset = true
            _ = copy(canvas, underPictures: underPictures, skippingUnchanged: false, stopWhenPairsRunOut: false)
        }
        lastFrame = canvas
        lastUnderPictures = underPictures
        if showsHyperlinks { redrawRowsOfLinksGone(canvas.links) }
        wnoutrefresh(nsc_stdscr())
        let copied = DispatchTime.now().uptimeNanoseconds
        doupdate()
        if showsHyperlinks { sendLinks(of: canvas) }
        lastDraw.copySeconds = Double(copied - start) / 1e9
        lastDraw.updateSeconds = Double(DispatchTime.now().uptimeNanoseconds - copied) / 1e9
    }

    /// A link sent earlier that this frame no longer has stays on its cells until they are
    /// written again: its rows are redrawn whole.
    private func redrawRowsOfLinksGone(_ links: [LinkSpan]) {
        guard !linksSent.isEmpty, linksSent != links else { return }
        let kept = Set(links)
        for row in Set(linksSent.filter { !kept.contains($0) }.map(\.y)) where row < size.height {
            wredrawln(nsc_stdscr(), Int32(row), 1)
        }
    }

    /// After ncurses has written the frame: its links, again whenever a cell was written
    /// (ncurses may have written over one) or they changed.
    private func sendLinks(of canvas: Canvas) {
        guard lastDraw.cellsWritten > 0 || linksLost || canvas.links != linksSent else { return }
        linksSent = canvas.links
        linksLost = false
        writeDirect(Hyperlinks.sequence(for: canvas.links, in: canvas, size: size, mapper: &mapper,
                                        showable: { nsc_wcwidth($0.value) >= 1 }))
    }

    /// Copies the canvas into ncurses' screen, the cells `underPictures` as invisible blanks;
    /// false if it ran out of colour pairs (or, when told not to stop, draws the rest in
    /// default colours).
    private func copy(_ canvas: Canvas, underPictures: Set<Int>, skippingUnchanged: Bool, stopWhenPairsRunOut: Bool) -> Bool {
        let (width, height) = size
        let window = nsc_stdscr()
        var cell = cchar_t()
        var text = [wchar_t](repeating: 0, count: Int(CCHARW_MAX) + 1)
        var lastStyle: Style?
        var attributes: attr_t = 0
        var pair: Int32 = 0
        let previous = skippingUnchanged ? lastFrame : nil
        for y in 0..<min(height, canvas.height) {
            for x in 0..<min(width, canvas.width) {
                var current = canvas[x, y]
                if current.isContinuation {
                    // ncurses fills this column itself after a character the C library
                    // calls wide; after one it calls narrow, blank it so nothing stale shows.
                    guard x > 0, nsc_wcwidth(Self.firstScalar(canvas[x - 1, y].glyph)) < 2 else { continue }
                    current.glyph = " "
                } else if let previous, previous[x, y] == current,
                          underPictures.contains(y * canvas.width + x) == lastUnderPictures.contains(y * canvas.width + x) {
                    continue
                }
                if current.style != lastStyle {
                    attributes = Self.attributes(mapper.attributes(for: current.style))
                    if let number = self.pair(current.style) {
                        pair = number
                    } else if stopWhenPairsRunOut {
                        return false
                    } else {
                        pair = 0
                    }
                    lastStyle = current.style
                }
                var count = 0
                for scalar in current.glyph.unicodeScalars where count < Int(CCHARW_MAX) {
                    // The last guard against text that would reach the terminal as control
                    // sequences or reorder what follows: views clean text before this.
                    if Self.isNeverSent(scalar) { continue }
                    text[count] = wchar_t(bitPattern: scalar.value)
                    count += 1
                }
                if count == 0 || nsc_wcwidth(UInt32(bitPattern: text[0])) < 1 {
                    // Unshowable (a C locale's Japanese): one mark; a wide character's
                    // second column is blanked above, so widths stay as laid out.
                    if count > 0 && capabilities.prefersASCII { replacedUnshowable = true }
                    text[0] = count == 0 ? 0x20 : replacement
                    count = max(count, 1)
                }
                text[count] = 0
                let attributes = underPictures.contains(y * canvas.width + x) ? attributes | nsc_a_invis() : attributes
                if nsc_setcchar(&cell, text, attributes, pair) == ERR {
                    // More marks than a cell holds, or a sequence ncurses refuses: keep the base.
                    text[1] = 0
                    if nsc_setcchar(&cell, text, attributes, pair) == ERR {
                        text[0] = 0x3F
                        _ = nsc_setcchar(&cell, text, attributes, pair)
                    }
                }
                mvwadd_wch(window, Int32(y), Int32(x), &cell)
                lastDraw.cellsWritten += 1
            }
        }
        return true
    }

    /// The blank cells under the canvas's pictures (by index), written as invisible blanks.
    /// sixel's and iTerm2's pixels are in the cells, and xterm takes them from every cell an
    /// erase reaches; ncurses erases a row's blanks with the row around them (EL, EL 1, ED)
    /// and repeats a blank with ECH, which cut the top row off covers whenever the rest of
    /// the row changed. An invisible blank looks the same but is no blank to ncurses, so it
    /// is only ever written when the cell itself changes. (kitty's placeholder cells are text.)
    static func blanksUnderPictures(_ canvas: Canvas) -> Set<Int> {
        var cells: Set<Int> = []
        for placement in canvas.pictures {
            for y in placement.rect.y..<placement.rect.maxY {
                for x in placement.rect.x..<placement.rect.maxX where canvas[x, y].glyph == " " { cells.insert(y * canvas.width + x) }
            }
        }
        return cells
    }

    public func takeUnshowableNotice() -> String? {
        guard replacedUnshowable, !toldUnshowable else { return nil }
        toldUnshowable = true
        return Self.unshowableNotice
    }

    private static func firstScalar(_ glyph: String) -> UInt32 {
        glyph.unicodeScalars.first?.value ?? 0x20
    }

    /// C0 and C1 controls, DEL, and the bidirectional embedding, override and isolate marks.
    static func isNeverSent(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static let attributeTable: [attr_t] = (0..<64).map { bits in
        let a = Attributes(rawValue: UInt8(bits))
        var value = nsc_a_normal()
        if a.contains(.bold) { value |= nsc_a_bold() }
        if a.contains(.dim) { value |= nsc_a_dim() }
        if a.contains(.italic) { value |= nsc_a_italic() }
        if a.contains(.underline) { value |= nsc_a_underline() }
        if a.contains(.reverse) { value |= nsc_a_reverse() }
        return value   // ncurses has no strike-through attribute
    }

    private static func attributes(_ a: Attributes) -> attr_t { attributeTable[Int(a.rawValue & 63)] }

    /// The pair for a style's colours; nil when every pair is taken.
    private func pair(_ style: Style) -> Int32? {
        let (foreground, background) = mapper.indices(for: style)
        if foreground == -1 && background == -1 { return 0 }
        let key = UInt64(UInt32(bitPattern: foreground)) << 32 | UInt64(UInt32(bitPattern: background))
        if let known = pairs[key] { return known }
        guard nextPair < pairLimit else { return nil }
        let number = nextPair
        // A colour the terminal cannot show (the mapper never makes one) falls back to the default.
        guard init_extended_pair(number, foreground, background) == OK else { return 0 }
        nextPair += 1
        lastDraw.pairsAllocated += 1
        pairs[key] = number
        return number
    }

    public func nextEvent(timeout: Double?) -> Event? {
        guard !restored else { return nil }
        let window = nsc_stdscr()
        let deadline = timeout.map { Date().addingTimeInterval(max(0, $0)) }
        if lateReplies != nil, !swallowLateReplies(until: deadline) { return nil }
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                milliseconds = Int32(max(0, min(Double(Int32.max), (deadline.timeIntervalSinceNow * 1000).rounded(.up))))
            }
            wtimeout(window, milliseconds)
            var value: wint_t = 0
            errno = 0
            let result = wget_wch(window, &value)
            if result == ERR {
                // Interrupted by a signal with time left: keep waiting; otherwise a timeout.
                if errno == EINTR, deadline.map({ $0.timeIntervalSinceNow > 0 }) ?? true { continue }
                return nil
            }
            if result == nsc_key_code_yes() {
                let code = Int32(bitPattern: value)
                if code == KEY_RESIZE {
                    lastFrame = nil
                    let (width, height) = size
                    return .resize(width: width, height: height)
                }
                if code == InputDecoding.sgrMouseKeyCode {
                    if let event = readSGRMouseReport() { return event }
                } else if code == KEY_MOUSE {
                    var report = MEVENT()
                    if getmouse(&report) == OK, let button = InputDecoding.mouseButton(state: report.bstate) {
                        return .mouse(button, x: Int(report.x), y: Int(report.y))
                    }
                } else if let key = InputDecoding.key(code: code) {
                    return .key(key)
                }
            } else if let key = InputDecoding.key(character: UInt32(value)) {
                return .key(key)
            }
            if let deadline, deadline.timeIntervalSinceNow <= 0 { return nil }
        }
    }

    /// How long the rest of a reply may take after its first bytes: a terminal writes a
    /// reply at once, so an Escape with nothing behind it for this long is a key.
    static let replyRestMilliseconds = 100

    /// While detection's late replies may come: reads the input here, drops the replies and
    /// hands the rest (keys) to ncurses. False when `deadline` passed with no key.
    private func swallowLateReplies(until deadline: Date?) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while var filter = lateReplies {
            let left = lateRepliesDeadline - TerminalQuery.milliseconds()
            var wait = left
            if let deadline { wait = min(wait, Int((deadline.timeIntervalSinceNow * 1000).rounded(.up))) }
            var keys: [UInt8] = []
            if left <= 0 {
                keys = filter.flush()
                lateReplies = nil
            } else {
                // Bytes held as a reply's start (an Escape) wait only for the reply's rest.
                let holding = filter.isHolding && Self.replyRestMilliseconds < wait
                var descriptor = pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, Int32(max(0, holding ? Self.replyRestMilliseconds : wait)))
                if ready < 0, errno == EINTR { continue }
                if ready > 0 {
                    let count = read(inputDescriptor, &buffer, buffer.count)
                    if count > 0 { keys = filter.take(buffer[0..<count]) }
                } else if ready == 0, holding {
                    keys = filter.flush()
                }
                if filter.isFinished { keys += filter.flush() }
                lateReplies = filter.isFinished ? nil : filter
            }
            // ncurses' ungetch puts a byte in front of the others: the last first.
            for byte in keys.reversed() { ungetch(Int32(byte)) }
            if !keys.isEmpty { return true }
            if let deadline, deadline.timeIntervalSinceNow <= 0, lateReplies != nil { return false }
        }
        return true
    }

    /// The rest of an SGR mouse report after its `ESC [ <` prefix: `Cb ; Cx ; Cy` and
    /// `M` (press) or `m` (release). The bytes arrive together, so a short wait suffices.
    private func readSGRMouseReport() -> Event? {
        let window = nsc_stdscr()
        wtimeout(window, 50)
        var parameters = ""
        while parameters.count < 24 {
            var value: wint_t = 0
            guard wget_wch(window, &value) == OK, let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
            if scalar == "M" || scalar == "m" {
                return InputDecoding.sgrMouse(parameters: parameters, release: scalar == "m")
            }
            guard scalar == ";" || ("0"..."9").contains(scalar) else { return nil }
            parameters.unicodeScalars.append(scalar)
        }
        return nil
    }

    /// Bytes for the terminal that ncurses does not know about, after what it has queued.
    private func writeToTerminal(_ text: String) {
        writeDirect(Array(text.utf8))
    }

    /// After what ncurses has queued, all of it (a picture is hundreds of kilobytes and the
    /// terminal may take it in pieces).
    public func writeDirect(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        fflush(outputFile)
        let descriptor = fileno(outputFile)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += written
            }
        }
    }

    public func redrawRows(_ rows: Range<Int>) {
        guard !restored, !rows.isEmpty else { return }
        wredrawln(nsc_stdscr(), Int32(rows.lowerBound), Int32(rows.count))
        linksLost = true
    }

    public func restore() {
        guard !restored else { return }
        restored = true
        if sgrMouse { writeToTerminal(InputDecoding.sgrMouseOff) }
        endwin()
        fflush(outputFile)
    }

    /// Stops the program as Ctrl-Z would in a cooked terminal (raw mode delivers Ctrl-Z as
    /// a key): the terminal is restored, the shell takes over, and on `fg` the screen is
    /// repainted. Returns after the program is continued.
    public func suspend() {
        handOver { kill(getpid(), SIGSTOP) }
    }

    /// The terminal as the shell has it while `work` runs (an editor), then repainted.
    public func handOver(_ work: () -> Void) {
        guard !restored else { return }
        if sgrMouse { writeToTerminal(InputDecoding.sgrMouseOff) }
        endwin()
        fflush(outputFile)
        work()
        // Back: repaint everything, the shell or the editor has drawn over the screen.
        clearok(nsc_curscr(), true)
        lastFrame = nil
        linksLost = true
        doupdate()
        if sgrMouse { writeToTerminal(InputDecoding.sgrMouseOn) }
    }

    // MARK: signals

    // `lock` guards the three below: set by `register` and `installSignalHandlers`, read by the
    // signal thread. Not a Mutex: the backend, which is not Sendable, could not be put in one.
    private static let lock = NSLock()
    private nonisolated(unsafe) static weak var active: CursesBackend?
    private nonisolated(unsafe) static var cleanup: (() -> Void)?
    private nonisolated(unsafe) static var forwarding = false

    private static func register(_ backend: CursesBackend) {
        lock.lock()
        active = backend
        let installed = forwarding
        lock.unlock()
        if !installed { installSignalHandlers(restore: {}) }
    }

    /// On SIGINT, SIGTERM, SIGHUP or SIGQUIT: restore the open terminal, run `restore`
    /// (save what must be saved), then exit with status 128 + the signal number. The work
    /// runs on a thread of its own, never inside the signal handler. Calling this again
    /// replaces `restore`. A `CursesBackend` installs this (with nothing extra to do) when
    /// it opens, so the terminal is restored even if the program never calls it.
    public static func installSignalHandlers(restore: @escaping () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        cleanup = restore
        guard !forwarding else { return }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        forwarding = true
        let readEnd = fds[0], writeEnd = fds[1]
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { _ = nsc_forward_signal(signal, writeEnd) }
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let n = read(readEnd, &byte, 1)
                if n == 1 { break }
                if n < 0, errno == EINTR { continue }
                return
            }
            lock.lock()
            let backend = active
            let work = cleanup
            lock.unlock()
            backend?.restore()
            work?()
            _exit(128 + Int32(byte))
        }
        thread.name = "newsstand-signals"
        thread.start()
    }
}

extension TerminalColors {
    /// The poorer of two modes (direct > palette256 > palette16 > monochrome).
    func poorer(_ other: TerminalColors) -> TerminalColors {
        let order: [TerminalColors] = [.monochrome, .palette16, .palette256, .direct]
        let a = order.firstIndex(of: self) ?? 0, b = order.firstIndex(of: other) ?? 0
        return order[min(a, b)]
    }
}
