#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Terminal

/// One thing done in the reader and the frame it waits for: its keys are typed one after
/// another (each one's frame drawn), the last is timed until a frame that `done` accepts;
/// then the reader is looked at for `pause` seconds, the run loop turning as it would with
/// no input, before the next step. A step without keys times from its start.
struct ReaderStep {
    var label: String
    var keys: [Key]
    var pause: Double = 0
    var done: (Canvas) -> Bool
}

/// What one step took: to the first frame after its key, and to the frame it waited for
/// (the same when that first frame was already the one).
struct StepTime {
    var firstFrame: Double
    var done: Double
    /// CPU time of the reader and its worker together over the step.
    var cpu: Double
    var timedOut = false
}

/// A terminal that types the steps' keys and times them; while a step waits or pauses,
/// `nextEvent` returns nothing after its timeout, as a terminal with no input does, so the
/// reader's run loop polls for finished pictures at its own pace.
final class ScriptedReaderBackend: TerminalBackend {
    let size: (width: Int, height: Int)
    let colors = TerminalColors.direct
    /// Longest a step may wait for its frame before it counts as timed out.
    static let patience = 30_000.0

    private var steps: [ReaderStep]
    private var current: ReaderStep?
    private var typed = 0
    private var startedAt: Double?
    private var cpuAtStart = 0.0
    /// The CPU time of everything a step's time counts: the reader and its PDF worker.
    let cpu: () -> Double
    private var firstFrameAt: Double?
    private var pauseUntil = 0.0
    private(set) var times: [String: [StepTime]] = [:]
    private(set) var lastFrame: Canvas?

    /// `opening` is the moment the reader was asked to open, for a first step without keys.
    init(width: Int, height: Int, steps: [ReaderStep], opening: (wall: Double, cpu: Double), cpu: @escaping () -> Double) {
        size = (width, height)
        self.steps = steps
        self.cpu = cpu
        if !steps.isEmpty, steps[0].keys.isEmpty {
            current = self.steps.removeFirst()
            (startedAt, cpuAtStart) = (opening.wall, opening.cpu)
        }
    }

    func draw(_ canvas: Canvas) {
        lastFrame = canvas
        guard let step = current, startedAt != nil, typed == step.keys.count else { return }
        let now = milliseconds()
        if firstFrameAt == nil { firstFrameAt = now }
        if step.done(canvas) { finish(step, at: now, timedOut: false) }
    }

    private func finish(_ step: ReaderStep, at now: Double, timedOut: Bool) {
        guard let startedAt else { return }
        times[step.label, default: []].append(StepTime(firstFrame: (firstFrameAt ?? now) - startedAt, done: now - startedAt,
                                                       cpu: cpu() - cpuAtStart, timedOut: timedOut))
        current = nil
        self.startedAt = nil
        firstFrameAt = nil
        pauseUntil = now + step.pause * 1000
    }

    func nextEvent(timeout: Double?) -> Event? {
        let wait = timeout ?? 0.1
        if let step = current {
            if typed < step.keys.count { return type(step) }
            if let startedAt, milliseconds() - startedAt > Self.patience { finish(step, at: milliseconds(), timedOut: true); return nil }
            Thread.sleep(forTimeInterval: wait)
            return nil
        }
        let now = milliseconds()
        if now < pauseUntil {
            Thread.sleep(forTimeInterval: min(wait, (pauseUntil - now) / 1000))
            return nil
        }
        guard !steps.isEmpty else { return .key(.character("Q")) }
        let next = steps.removeFirst()
        current = next
        typed = 0
        if next.keys.isEmpty {
            cpuAtStart = cpu()
            startedAt = milliseconds()
            // Nothing to type: the frame it waits for may be the one already drawn.
            if let lastFrame { draw(lastFrame) }
            return nil
        }
        return type(next)
    }

    /// The step's next key; the clock starts at its last.
    private func type(_ step: ReaderStep) -> Event {
        let key = step.keys[typed]
        typed += 1
        if typed == step.keys.count { cpuAtStart = cpu(); startedAt = milliseconds() }
        return .key(key)
    }

    func restore() {}
    func suspend() {}
}

/// What the reader's frames show.
enum ReaderFrameText {
    /// A page's picture is on screen: half-block cells, and no "Drawing the page…".
    static func showsPagePicture(_ canvas: Canvas) -> Bool {
        let text = canvas.text
        return !text.contains("Drawing the page…") && (text.contains("▀") || text.contains("▄"))
    }

    /// A row of the page (not the title, status or hint bar) holds words (three runs of
    /// letters): reflowed text is laid out. A figure among it may still be drawing, as a
    /// page's picture may in the pages view; that is not waited for.
    static func showsText(_ canvas: Canvas) -> Bool {
        let rows = canvas.text.split(separator: "\n", omittingEmptySubsequences: false)
        return rows.dropFirst().dropLast(2).contains { row in
            row.split(whereSeparator: { !$0.isLetter }).filter { $0.count >= 2 }.count >= 3
        }
    }
}
