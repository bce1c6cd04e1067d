/// Keys the program reacts to, decoded from whatever the backend reads.
public enum Key: Hashable, Sendable {
    case character(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)
    case control(Character)   // Ctrl-A … Ctrl-Z as lower-case letters
}

/// What the mouse did: a button pressed, a wheel step, or `leftDrag`, the pointer moved with
/// the left button held (reported where the terminal tracks button motion, mode 1002).
public enum MouseButton: Hashable, Sendable { case left, middle, right, wheelUp, wheelDown, leftDrag }

/// Input and environment changes, delivered to the program's update function.
public enum Event: Hashable, Sendable {
    case key(Key)
    /// A press at a cell (column, row).
    case mouse(MouseButton, x: Int, y: Int)
    case resize(width: Int, height: Int)
}

/// Where a frame goes and where input comes from: ncurses for people, memory for tests.
public protocol TerminalBackend: AnyObject {
    var size: (width: Int, height: Int) { get }
    /// Shows the canvas (only changed cells need to reach the terminal).
    func draw(_ canvas: Canvas)
    /// Waits up to `timeout` seconds (nil: forever) for the next event; nil on timeout.
    func nextEvent(timeout: Double?) -> Event?
    /// Puts the terminal back as it was. Safe to call more than once.
    func restore()
    /// The colours `draw` can show; views choose cover rendering by it.
    var colors: TerminalColors { get }
    /// Hands the terminal to the shell until the program is continued (Ctrl-Z, which raw
    /// mode delivers as a key), then repaints.
    func suspend()
    /// Hands the terminal to `work` (an editor on a note), then repaints: the screen as the
    /// shell had it while `work` runs.
    func handOver(_ work: () -> Void)
    /// Sends bytes ncurses knows nothing of (a picture in pixels) after the last frame,
    /// the cursor and attributes left as ncurses believes them to be.
    func writeDirect(_ bytes: [UInt8])
    /// The next `draw` rewrites these rows whole, changed or not: what a sixel drew over
    /// them goes.
    func redrawRows(_ rows: Range<Int>)
    /// Once, after a frame in which characters the locale cannot show were drawn as a
    /// replacement mark: a sentence saying so for the status line; nil otherwise.
    func takeUnshowableNotice() -> String?
}

extension TerminalBackend {
    public var colors: TerminalColors { .direct }
    public func suspend() {}
    public func handOver(_ work: () -> Void) { work() }
    public func writeDirect(_ bytes: [UInt8]) {}
    public func redrawRows(_ rows: Range<Int>) {}
    public func takeUnshowableNotice() -> String? { nil }
}
