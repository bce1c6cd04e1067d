/// A terminal in memory for tests: events are queued by the test, frames are kept.
///
///     let terminal = MemoryBackend(width: 80, height: 24)
///     terminal.type("jj")
///     terminal.send(.key(.enter))
///     … run the program until `nextEvent` returns nil …
///     #expect(terminal.screen.text(row: 0).contains("Issues"))
public final class MemoryBackend: TerminalBackend {
    public private(set) var size: (width: Int, height: Int)
    /// The last frame drawn (blank before the first).
    public private(set) var screen: Canvas
    /// The last frame's link spans: what a terminal showing OSC 8 is sent as hyperlinks.
    public var links: [LinkSpan] { screen.links }
    /// How many frames were drawn.
    public private(set) var frames = 0
    /// True once `restore()` was called.
    public private(set) var isRestored = false
    public var colors: TerminalColors
    /// How many times the program asked to be suspended.
    public private(set) var suspensions = 0
    /// What `writeDirect` sent, in order, and the rows `redrawRows` named since the last frame.
    public private(set) var written: [UInt8] = []
    public private(set) var redrawnRows: [Range<Int>] = []
    private var queue: [Event] = []
    private var head = 0

    public init(width: Int = 80, height: Int = 24, colors: TerminalColors = .direct) {
        size = (max(0, width), max(0, height))
        screen = Canvas(width: width, height: height)
        self.colors = colors
    }

    /// Events waiting to be read.
    public var pendingEvents: [Event] { Array(queue[head...]) }

    public func send(_ events: Event...) { queue.append(contentsOf: events) }

    public func send(keys: [Key]) { queue.append(contentsOf: keys.map { .key($0) }) }

    /// Queues one key per character: "\n" and "\r" as Enter, "\t" as Tab, other control
    /// characters as Ctrl-letters, everything else as itself.
    public func type(_ text: String) {
        for character in text {
            if let ascii = character.asciiValue, ascii < 32 || ascii == 127 {
                if let key = InputDecoding.key(character: UInt32(ascii)) { queue.append(.key(key)) }
            } else {
                queue.append(.key(.character(character)))
            }
        }
    }

    /// Changes the size and queues the `.resize` a real terminal would deliver.
    public func resize(width: Int, height: Int) {
        size = (max(0, width), max(0, height))
        queue.append(.resize(width: size.width, height: size.height))
    }

    public func draw(_ canvas: Canvas) {
        screen = canvas
        frames += 1
    }

    public func writeDirect(_ bytes: [UInt8]) { written += bytes }

    public func redrawRows(_ rows: Range<Int>) { redrawnRows.append(rows) }

    /// Forgets what was written (a test looks at the next frame's bytes alone).
    public func clearWritten() {
        written = []
        redrawnRows = []
    }

    /// The next queued event, or nil at once when none is left (the timeout is not waited).
    public func nextEvent(timeout: Double?) -> Event? {
        guard head < queue.count else { return nil }
        let event = queue[head]
        head += 1
        if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return event
    }

    public func restore() { isRestored = true }

    public func suspend() { suspensions += 1 }

    /// How many times the terminal was handed over (`handOver`).
    public private(set) var handOvers = 0

    public func handOver(_ work: () -> Void) {
        handOvers += 1
        work()
    }
}
