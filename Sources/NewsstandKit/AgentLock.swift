import CSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Exactly one agent per library: an exclusive `flock` on the state directory's lock file,
/// released by the kernel when the process ends, however it ends.
public final class AgentLock {
    private let fd: Int32

    /// Nil when another process holds the lock.
    public init?(path: URL) {
        let fd = open(path.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            return nil
        }
        self.fd = fd
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { write(fd, $0, strlen($0)) }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// True when some process holds the lock right now.
    public static func isHeld(path: URL) -> Bool {
        let fd = open(path.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return true
    }

    /// The process holding the lock (the running agent), as it wrote itself in; nil when none does.
    public static func holder(path: URL) -> pid_t? {
        guard isHeld(path: path), let text = try? String(contentsOf: path, encoding: .utf8) else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Starts `newsstand agent` detached from the terminal (its own session), so it outlives
/// the shelf, the shell and SIGHUP. Output goes to the agent log.
public enum AgentLauncher {
    /// Starts the agent unless one is running. Returns true when one was started.
    @discardableResult
    public static func startIfNeeded(paths: Paths, executable: String? = nil, extraArguments: [String] = []) -> Bool {
        if AgentLock.isHeld(path: paths.agentLock) { return false }
        let program = executable ?? currentExecutable()
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(posixSpawnSetsid | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, paths.agentLog.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the starter's: a pipe a script reads the starter's output through
        // (`newsstand serve --agent | …`) would otherwise stay open as long as the agent lives.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

        let arguments = [program, "agent"] + extraArguments
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, &attributes, &argv, environ)
        // Reaped when it ends, so a long-lived parent (the shelf) keeps no <defunct> child.
        if status == 0 { Thread.detachNewThread { [pid] in var ended: Int32 = 0; _ = waitpid(pid, &ended, 0) } }
        return status == 0
    }

    /// This process's own executable, so the agent is the same build as its parent.
    public static func currentExecutable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// glibc's POSIX_SPAWN_SETSID (spawn.h, since 2.26); its macro does not import into Swift.
private let posixSpawnSetsid: Int32 = 0x80
