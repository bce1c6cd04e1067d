import Foundation
import Synchronization

/// Whether tmux shows the pane this process runs in: after `Ctrl-b c` or a switch to
/// another window, pictures kitty placed for the pane stay over the other window, and tmux
/// drops whatever a pane that is not shown passes through, so the pane cannot take them
/// away itself. Asked of tmux (`display -p` with one format for all it needs, tmux spawned
/// by its path with arguments, no shell) every `interval` on its own queue while
/// `watch(true)`; the run loop takes each change with `takeChange` and never waits for
/// tmux. `writeToClients` hands bytes to the terminals of the clients attached to the
/// pane's session, past tmux.
public final class TmuxPaneWatch: Sendable {
    public let pane: String
    public let interval: Double
    /// The tmux executable, found on `PATH` once.
    public let tmux: String
    /// The environment tmux is run in (`TMUX` names its server).
    private let environment: [String]
    private let queue = DispatchQueue(label: "newsstand.tmux-pane-watch")
    private struct State {
        var watching = false
        var polling = false
        var shown = true
        var change: Bool?
    }
    private let state = Mutex(State())

    /// Inside tmux (`TMUX` and `TMUX_PANE` set, tmux on `PATH`); nil elsewhere. Once a
    /// second: a window left shows our pictures over the new one for at most that long,
    /// and each look costs a tmux process (every 0.5 s, through `env` and Foundation's
    /// `Process`, the idle shelf woke ~31 times a second; now ~8, benchmarks/HISTORY.md:
    /// "The tmux pane watch at idle").
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment, interval: Double = 1) {
        guard environment["TMUX"]?.isEmpty == false, let pane = environment["TMUX_PANE"], !pane.isEmpty,
              let tmux = Self.executable(named: "tmux", searching: environment["PATH"] ?? Self.defaultPath) else { return nil }
        self.pane = pane
        self.interval = interval
        self.tmux = tmux
        self.environment = environment.map { "\($0.key)=\($0.value)" }
    }

    /// Where a program is looked for when the environment names no `PATH`.
    static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

    /// The first executable file `name` in the folders of `path` (colon-separated).
    static func executable(named name: String, searching path: String) -> String? {
        path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// What tmux is asked: the pane's window current, clients on its session, the window
    /// zoomed, the pane the window's active one.
    public static let format = "#{window_active} #{session_attached} #{window_zoomed_flag} #{pane_active}"

    /// Whether the pane is shown, from `tmux display -p format`: its window is the session's
    /// current one, a client has the session, and no other pane of the window is zoomed
    /// over it. nil when the output is not that (tmux could not be asked).
    public static func isShown(displayOutput: String) -> Bool? {
        let numbers = displayOutput.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard numbers.count == 4 else { return nil }
        return numbers[0] == 1 && numbers[1] > 0 && (numbers[2] == 0 || numbers[3] == 1)
    }

    /// Starts or stops asking (the app watches while it has pictures on screen or hidden).
    public func watch(_ on: Bool) {
        let start = state.withLock { state -> Bool in
            state.watching = on
            guard on, !state.polling else { return false }
            state.polling = true
            return true
        }
        if start { queue.asyncAfter(deadline: .now() + interval) { self.poll() } }
    }

    /// The pane's new state when it changed since the last call, else nil.
    public func takeChange() -> Bool? {
        state.withLock { state in
            defer { state.change = nil }
            return state.change
        }
    }

    private func poll() {
        guard state.withLock({ $0.watching }) else {
            state.withLock { $0.polling = false }
            return
        }
        if let shown = Self.isShown(displayOutput: ask()) {
            state.withLock { state in
                if state.shown != shown {
                    state.shown = shown
                    state.change = shown
                }
            }
        }
        queue.asyncAfter(deadline: .now() + interval) { self.poll() }
    }

    /// What tmux says of the pane (`format`).
    func ask() -> String {
        run(["display", "-p", "-t", pane, Self.format])
    }

    /// Writes `bytes` to the terminal of every client attached to the pane's session (their
    /// ttys, as `tmux list-clients` names them), on the watch's queue.
    public func writeToClients(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        queue.async { [self] in
            let ttys = run(["list-clients", "-t", pane, "-F", "#{client_tty}"]).split(separator: "\n").map(String.init)
            for tty in ttys where tty.hasPrefix("/dev/") {
                let fd = open(tty, O_WRONLY | O_NOCTTY | O_NONBLOCK)
                guard fd >= 0 else { continue }
                _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
        }
    }

    /// What `tmux ARGUMENTS` prints; "" when it cannot be run. Spawned straight from its
    /// path with its output on a socket pair (Glibc imports no `pipe2`), read to its end and reaped: no `env`, no shell, and
    /// none of Foundation's `Process` machinery (its wait polls a run loop).
    func run(_ arguments: [String]) -> String {
        var ends: [Int32] = [0, 0]
        // Close-on-exec from the start: a child another thread spawns meanwhile must not keep
        // the pipe open (the read would wait for it to end).
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else { return "" }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The watch's thread may block signals the child should not inherit blocked.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        _ = Self.addCloseFrom.map { $0(&actions, 3) }
        var argv: [UnsafeMutablePointer<CChar>?] = ([tmux] + arguments).map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tmux, &actions, &attributes, &argv, &envp)
        close(ends[1])
        defer { close(ends[0]) }
        guard spawned == 0 else { return "" }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count > 0 { output += buffer[0..<count]; continue }
            if count < 0, errno == EINTR { continue }
            break
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which Swift's Glibc does
    /// not import: looked up at run time, so tmux inherits no file of ours (the library's
    /// database, a lock). Without it (an older glibc) tmux gets them for the few
    /// milliseconds it runs.
    private static let addCloseFrom: AddCloseFrom? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()
}
