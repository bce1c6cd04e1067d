/// The PDF worker's command line (`newsstand-pdf --cpu-seconds N --memory-bytes N
/// [--test-faults]`): the limits the parent chose, which the worker sets on itself.
package struct WorkerOptions: Equatable {
    package var cpuSecondsPerRequest = 10
    package var memoryBytes = 1 << 30
    package var testFaults = false

    package init() {}

    /// Reads what `arguments` wrote; unknown or malformed words keep the defaults, and
    /// limits below a useful minimum are raised to it.
    package init(arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--cpu-seconds": cpuSecondsPerRequest = rest.popFirst().flatMap { Int($0) }.map { max(1, $0) } ?? cpuSecondsPerRequest
            case "--memory-bytes": memoryBytes = rest.popFirst().flatMap { Int($0) }.map { max(64 << 20, $0) } ?? memoryBytes
            case "--test-faults": testFaults = true
            default: continue
            }
        }
    }

    package var arguments: [String] {
        ["--cpu-seconds", String(cpuSecondsPerRequest), "--memory-bytes", String(memoryBytes)] + (testFaults ? ["--test-faults"] : [])
    }
}
