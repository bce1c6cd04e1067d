import Foundation

/// Timing for the shelf benchmarks (`benchmarks/shelf/`, `benchmarks/catalogs/`), on when
/// `NEWSSTAND_FRAME_TIMES` names a file: when the first frame and the first frame with
/// every cover were drawn, how long each key took to reach the screen, for a key that set
/// a fetch going (a catalog page) how long until the frame showing what it fetched and
/// until the last frame its work caused (the page's covers), and the peak memory. Written
/// at exit.
final class FrameTimes {
    private let file: URL
    private let start = DispatchTime.now().uptimeNanoseconds
    private var firstFrame: Double?
    private var coversDrawn: Double?
    private var keyLatencies: [Double] = []
    private var keyDetails: [String] = []
    private var phases: [(String, UInt64)] = []

    init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["NEWSSTAND_FRAME_TIMES"], !path.isEmpty else { return nil }
        file = URL(fileURLWithPath: path)
    }

    static func milliseconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    private var cpuAtFirstFrame: Double?
    private var cpuAtCoversDrawn: Double?

    /// After a frame reached the terminal; `complete` when no cover was still rendering.
    func frameDrawn(complete: Bool) {
        lastFrame = DispatchTime.now().uptimeNanoseconds
        let now = FrameTimes.milliseconds(since: start)
        if firstFrame == nil { firstFrame = now; cpuAtFirstFrame = FrameTimes.processCPU() }
        if complete, coversDrawn == nil { coversDrawn = now; cpuAtCoversDrawn = FrameTimes.processCPU() }
    }

    /// CPU time of the whole process since it started (all threads), in ms: on a busy
    /// machine, what the wall-clock figures would shrink to with cores to spare.
    static func processCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }

    // MARK: A key's fetch

    private var lastFrame: UInt64 = 0
    /// The key whose fetch is under way, and when the frame showing its result was drawn.
    private var work: (key: String, start: UInt64, shown: UInt64?)?
    private var pageLatencies: [Double] = []
    private var settleLatencies: [Double] = []

    /// A key set a fetch going (after it was handled, before its frame). A key that starts
    /// another before the last one settled replaces it: that one is not counted.
    func workStarted(_ key: String, startedAt: UInt64) {
        work = (key, startedAt, nil)
    }

    /// After each turn of the run loop: `fetching` while the screen still waits for the
    /// fetch, `settled` once nothing it set going is left (no fetch queued or running, no
    /// cover rendering). The result was shown by the first frame drawn after the fetch
    /// ended; everything it brought (covers) by the last frame drawn before it settled.
    func workProgress(fetching: Bool, settled: Bool) {
        guard var current = work, lastFrame > current.start else { return }
        if current.shown == nil {
            guard !fetching else { return }
            current.shown = lastFrame
            work = current
        }
        guard settled, let shown = current.shown else { return }
        let page = Double(shown - current.start) / 1_000_000
        let all = Double(lastFrame - current.start) / 1_000_000
        pageLatencies.append(page)
        settleLatencies.append(all)
        keyDetails.append("fetch \(current.key) page=\(FrameTimes.format(page)) settled=\(FrameTimes.format(all))")
        work = nil
    }

    private var note = ""

    /// Something about the current frame worth printing beside its phases.
    func annotate(_ text: String) { note = text }

    /// Marks the end of a phase of the current frame (handle, reload, render, draw).
    func mark(_ phase: String) { phases.append((phase, DispatchTime.now().uptimeNanoseconds)) }

    /// A key's time from being read to its frame being written, with its phases.
    func keyHandled(_ key: String, startedAt: UInt64) {
        keyLatencies.append(FrameTimes.milliseconds(since: startedAt))
        var previous = startedAt
        let parts = phases.map { phase, time -> String in
            defer { previous = time }
            return "\(phase)=\(FrameTimes.format(Double(time - previous) / 1_000_000))"
        }
        keyDetails.append("key \(key) \(FrameTimes.format(keyLatencies.last ?? 0)) " + parts.joined(separator: " ") + " " + note)
        phases.removeAll()
        note = ""
    }

    func discardPhases() { phases.removeAll(); note = "" }

    /// Phases of a frame that was not a key's (the first one, covers arriving).
    func frameDetails(_ label: String, startedAt: UInt64) {
        var previous = startedAt
        let parts = phases.map { phase, time -> String in
            defer { previous = time }
            return "\(phase)=\(FrameTimes.format(Double(time - previous) / 1_000_000))"
        }
        if !parts.isEmpty { keyDetails.append("frame \(label) " + parts.joined(separator: " ") + " " + note) }
        phases.removeAll()
        note = ""
    }

    func write() {
        let sorted = keyLatencies.sorted()
        func percentile(_ p: Double, of values: [Double]? = nil) -> Double {
            let sorted = values?.sorted() ?? sorted
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        let lines = [
            "process_age_at_run_ms \(FrameTimes.format(FrameTimes.processAgeAtStart(start)))",
            "first_frame_ms \(FrameTimes.format(firstFrame ?? -1))",
            "covers_drawn_ms \(FrameTimes.format(coversDrawn ?? -1))",
            "cpu_at_first_frame_ms \(FrameTimes.format(cpuAtFirstFrame ?? -1))",
            "cpu_at_covers_drawn_ms \(FrameTimes.format(cpuAtCoversDrawn ?? -1))",
            "keys \(sorted.count)",
            "key_to_frame_p50_ms \(FrameTimes.format(percentile(0.5)))",
            "key_to_frame_p95_ms \(FrameTimes.format(percentile(0.95)))",
            "key_to_frame_max_ms \(FrameTimes.format(sorted.last ?? 0))",
            "fetches \(pageLatencies.count)",
            "key_to_fetched_p50_ms \(FrameTimes.format(percentile(0.5, of: pageLatencies)))",
            "key_to_fetched_p95_ms \(FrameTimes.format(percentile(0.95, of: pageLatencies)))",
            "key_to_settled_p50_ms \(FrameTimes.format(percentile(0.5, of: settleLatencies)))",
            "key_to_settled_p95_ms \(FrameTimes.format(percentile(0.95, of: settleLatencies)))",
            "peak_rss_mb \(FrameTimes.format(FrameTimes.peakResidentMegabytes()))",
        ]
        try? ((lines + keyDetails).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    }

    private static func format(_ value: Double) -> String { String(format: "%.2f", value) }

    /// VmHWM from /proc/self/status (Linux); 0 where there is none.
    static func peakResidentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes / 1024
    }

    /// How long the process had run when the shelf started (start time from /proc, in
    /// clock ticks of 10 ms), so the first-frame figure can include process start.
    static func processAgeAtStart(_ start: UInt64) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return -1 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Field 22 (starttime) is the 20th after the command name.
        guard fields.count > 19, let ticks = Double(fields[19]) else { return -1 }
        var boot = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        let nowSinceBoot = Double(boot.tv_sec) * 1000 + Double(boot.tv_nsec) / 1_000_000
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return nowSinceBoot - ticks * 1000 / ticksPerSecond - milliseconds(since: start)
    }
}
