#if canImport(Glibc)
import Glibc
#endif
import PDF

/// The limits a PDF process sets on itself (`newsstand-pdf` and `newsstand-pdf-draw`), so
/// that whatever a PDF library does with a hostile file ends in that process only.
package enum WorkerLimits {
    /// No core files, the address space the parent chose, and SIGXCPU able to end it.
    package static func limitItself(_ options: WorkerOptions) {
        setLimit(RLIMIT_CORE, 0)
        // A parent's threads may block or ignore signals, and a spawned child inherits that:
        // SIGXCPU must end this process when the CPU limit is reached.
        signal(SIGXCPU, SIG_DFL)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGXCPU)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        setLimit(RLIMIT_AS, options.memoryBytes)
    }

    package static func misbehave(_ fault: Misbehaviour) -> Never {
        switch fault {
        case .spin:
            var counter = 0
            while true { counter = counter &+ Int(getpid()) }
        case .block:
            while true { pause() }
        case .crash:
            abort()
        case .exhaustMemory:
            var blocks: [UnsafeMutableRawPointer] = []
            while true {
                // Address space, not memory: malloc fails at the limit without a page being
                // touched, so the test puts no pressure on the machine.
                guard let block = malloc(64 << 20) else { abort() }
                blocks.append(block)
            }
        }
    }

    /// The next request may use `seconds` more CPU time; past it the kernel sends SIGXCPU,
    /// which ends the worker.
    package static func allowCPU(seconds: Int) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let used = Int(usage.ru_utime.tv_sec) + Int(usage.ru_stime.tv_sec) + 1
        setLimit(RLIMIT_CPU, used + seconds)
    }

    private static func setLimit(_ resource: __rlimit_resource, _ value: Int) {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(resource.rawValue), &limit)
        let wanted = rlim_t(value)
        // RLIM_INFINITY (all ones) does not import as an unsigned constant.
        limit.rlim_cur = limit.rlim_max == rlim_t.max ? wanted : min(wanted, limit.rlim_max)
        setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
    }
}
