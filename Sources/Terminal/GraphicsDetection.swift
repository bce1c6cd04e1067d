/// Which picture protocol a terminal speaks and how large its cells are, decided from its
/// replies to `GraphicsQuery` (the environment is only a hint: it is inherited through
/// ssh, tmux and `su`, and says nothing about the terminal really in front of the user).
public struct GraphicsDetection: Sendable, Equatable {
    public var graphics: GraphicsProtocol
    /// One cell in pixels, when the terminal or the window size says.
    public var cellPixels: PixelSize?
    /// Inside tmux: whether pictures must be wrapped in its passthrough.
    public var throughTmux: Bool
    /// Something the user should be told once (tmux's passthrough is off).
    public var advice: String?
    /// The terminal was asked and had not answered everything (DA1 last) in time: its
    /// late replies may still arrive as input (`LateReplies`).
    public var repliesMayFollow = false
    /// kitty draws pictures where placeholder cells (U+10EEEE) name them (kitty 0.28 and
    /// later, by XTVERSION): pictures as text, which tmux scrolls and clips right.
    public var unicodePlaceholders = false
    /// The largest sixel picture the terminal said it draws (`GraphicsQuery.sixelLimit`).
    public var sixelLimit: PixelSize?

    /// xterm's default `maxGraphicSize`: assumed when a sixel terminal does not say.
    public static let assumedSixelLimit = PixelSize(width: 1000, height: 1000)

    /// The largest sixel picture to send: the terminal's word, else `assumedSixelLimit`.
    public var largestSixel: PixelSize { sixelLimit ?? Self.assumedSixelLimit }

    public init(graphics: GraphicsProtocol, cellPixels: PixelSize? = nil, throughTmux: Bool = false, advice: String? = nil) {
        self.graphics = graphics
        self.cellPixels = cellPixels
        self.throughTmux = throughTmux
        self.advice = advice
    }

    /// What nothing was asked of: half blocks, the window's cell size if it has one.
    public static func halfBlocks(window: TerminalWindow?, advice: String? = nil) -> GraphicsDetection {
        GraphicsDetection(graphics: .halfBlocks, cellPixels: window?.cellPixels, advice: advice)
    }

    /// Whether to ask at all: not on a dumb terminal (pipes, editors' shells), and not
    /// inside tmux when its passthrough is off (tmux's own answers would be about tmux).
    public static func shouldAsk(environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        return !term.isEmpty && term != "dumb"
    }

    /// The protocol the replies show: kitty's graphics when it answered OK; iTerm2's inline
    /// images for iTerm2 and WezTerm (by XTVERSION, or `TERM_PROGRAM` when XTVERSION is
    /// silent but the terminal answered DA1); sixel when DA1 lists attribute 4; else half
    /// blocks. The cell size: `CSI 16 t`, else the `CSI 14 t` area over the window's
    /// cells, else the window's own pixel size.
    public static func decide(replies: TerminalReplies, environment: [String: String], window: TerminalWindow?,
                              throughTmux: Bool = false) -> GraphicsDetection {
        let version = (replies.version ?? "").lowercased()
        let program = (environment["TERM_PROGRAM"] ?? "").lowercased()
        let iterm = version.hasPrefix("iterm2") || version.hasPrefix("wezterm")
            || (replies.version == nil && replies.isComplete && (program == "iterm.app" || program == "wezterm"))
        let graphics: GraphicsProtocol = replies.kittyGraphics ? .kitty : iterm ? .iterm2 : replies.sixel ? .sixel : .halfBlocks
        var cell = replies.cellPixels
        if cell == nil, let area = replies.windowPixels, let window, window.columns > 0, window.rows > 0,
           area.width >= window.columns, area.height >= window.rows {
            cell = PixelSize(width: area.width / window.columns, height: area.height / window.rows)
        }
        var detection = GraphicsDetection(graphics: graphics, cellPixels: cell ?? window?.cellPixels, throughTmux: throughTmux)
        detection.unicodePlaceholders = graphics == .kitty && supportsUnicodePlaceholders(version: replies.version)
        return detection
    }

    /// Whether XTVERSION names kitty 0.28 or later ("kitty(0.28.0)"), the first with
    /// Unicode placeholders (0.26.5, Debian 12's, has none).
    public static func supportsUnicodePlaceholders(version: String?) -> Bool {
        guard let version, version.hasPrefix("kitty("), version.hasSuffix(")") else { return false }
        let numbers = version.dropFirst(6).dropLast().split(separator: ".").map { Int($0) }
        guard numbers.count >= 2, let major = numbers[0], let minor = numbers[1] else { return false }
        return (major, minor) >= (0, 28)
    }
}

extension GraphicsDetection {
    /// How long a terminal may take to answer: kitty's first byte came after about 4 ms
    /// under Xvfb, ssh adds its round trip.
    public static let defaultTimeout = 150

    /// Asks this process's terminal (once, before any screen is taken) and decides. Costs
    /// at most `timeoutMilliseconds` on a terminal that answers nothing, nothing when
    /// standard input or output is not a terminal.
    public static func current(environment: [String: String] = TerminalCapabilities.currentEnvironment,
                               window: TerminalWindow? = TerminalWindow.current(),
                               timeoutMilliseconds: Int = defaultTimeout) -> GraphicsDetection {
        guard shouldAsk(environment: environment), TerminalQuery.isTerminal else { return halfBlocks(window: window) }
        let inTmux = !(environment["TMUX"] ?? "").isEmpty
        if inTmux && !TmuxPassthrough.isAllowed() {
            return halfBlocks(window: window, advice: TmuxPassthrough.clientsDrawPictures() ? TmuxPassthrough.advice : nil)
        }
        let answer = TerminalQuery.ask(GraphicsQuery.batch(throughTmux: inTmux), timeoutMilliseconds: timeoutMilliseconds) {
            TerminalReplies.parse($0).isComplete
        }
        let replies = TerminalReplies.parse(answer)
        var detection = decide(replies: replies, environment: environment, window: window, throughTmux: inTmux)
        detection.repliesMayFollow = !replies.isComplete
        if detection.graphics == .sixel && replies.isComplete {
            let question = inTmux ? TmuxPassthrough.wrap(GraphicsQuery.sixelLimit) : GraphicsQuery.sixelLimit
            let limit = TerminalReplies.parse(TerminalQuery.ask(question, timeoutMilliseconds: timeoutMilliseconds) {
                TerminalReplies.parse($0).isComplete
            })
            detection.sixelLimit = limit.sixelLimit
            detection.repliesMayFollow = !limit.isComplete
        }
        return detection
    }
}
