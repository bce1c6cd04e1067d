import Foundation
import Synchronization

/// The requests of this process as someone at a terminal meets them: which wait for a
/// server's answer (a command shows "waiting for 127.0.0.1:8799… 3 s"), how long an
/// interactive command waits for an answer before it gives a request up (`patience`,
/// set by the command; nil in the agent, whose transfers keep their own, longer
/// timeouts), and Ctrl-C, which cancels every request at once (`interruptAll`).
///
/// `TransferRunner.run` registers each transfer it runs; the transfer says when an attempt
/// starts waiting and when the server answered.
public final class NetworkWaits: Sendable {
    public static let shared = NetworkWaits()

    /// A request waiting for its answer: the server (`host:port`) and since when.
    public struct Wait: Sendable, Equatable {
        public var server: String
        public var since: Date
    }

    private struct Entry {
        var transfer: Transfer
        var server: String
        /// When the current attempt began to wait for its answer; nil while none does.
        var waitingSince: Date?
        /// A 2xx came: the body arrives at its own pace, and patience no longer applies.
        var answered = false
        var gaveUp = false
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var patience: TimeInterval?
        var interrupted = false
        var onChange: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    init() {}

    /// The most a request of an interactive command waits for its server's answer, retries
    /// included; nil: no limit beyond the transfer's own timeouts.
    public var patience: TimeInterval? {
        get { state.withLock { $0.patience } }
        set { state.withLock { $0.patience = newValue } }
    }

    /// Called (on the transfer's thread) whenever a request starts or stops waiting, so a
    /// line that shows the waits is cleared before the command prints what came.
    public var onChange: (@Sendable () -> Void)? {
        get { state.withLock { $0.onChange } }
        set { state.withLock { $0.onChange = newValue } }
    }

    /// True once `interruptAll` ran: every request since is cancelled as it starts.
    public var interrupted: Bool { state.withLock { $0.interrupted } }

    /// The request that has waited longest for its answer, if any waits now.
    public var longest: Wait? {
        state.withLock { state in
            state.entries.values.compactMap { entry in entry.waitingSince.map { Wait(server: entry.server, since: $0) } }
                .min { $0.since < $1.since }
        }
    }

    /// Cancels every request now and every one started later (Ctrl-C); false when none ran.
    @discardableResult
    public func interruptAll() -> Bool {
        let transfers = state.withLock { state in
            state.interrupted = true
            return state.entries.values.map(\.transfer)
        }
        for transfer in transfers { transfer.cancel() }
        return !transfers.isEmpty
    }

    /// The server a URL names, as the waiting line says it: `host:port`.
    public static func server(of url: URL) -> String {
        let host = url.host ?? url.absoluteString
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return "\(host):\(port)"
    }

    /// Registers `transfer` for the time `TransferRunner` runs it; with patience set, gives
    /// it up (cancels it, `gaveUp` says so) when no answer came in that time.
    func watch(_ transfer: Transfer) {
        let key = ObjectIdentifier(transfer)
        let (patience, interrupted) = state.withLock { state in
            state.entries[key] = Entry(transfer: transfer, server: Self.server(of: transfer.request.url))
            return (state.patience, state.interrupted)
        }
        if interrupted { transfer.cancel(); return }
        guard let patience else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + patience) { [weak self, weak transfer] in
            guard let self, let transfer else { return }
            let giveUp = self.state.withLock { state in
                guard var entry = state.entries[key], entry.transfer === transfer, !entry.answered else { return false }
                entry.gaveUp = true
                state.entries[key] = entry
                return true
            }
            if giveUp { transfer.cancel() }
        }
    }

    /// Ends `transfer`'s registration; true when patience gave it up.
    func unwatch(_ transfer: Transfer) -> Bool {
        state.withLock { state in
            state.entries.removeValue(forKey: ObjectIdentifier(transfer))?.gaveUp ?? false
        }
    }

    /// An attempt of `transfer` sends its request to `url` and waits for the answer.
    func waiting(_ transfer: Transfer, on url: URL) {
        update(transfer) { entry in
            entry.server = Self.server(of: url)
            entry.waitingSince = Date()
        }
    }

    /// The server answered `transfer`'s attempt with `status`.
    func heard(_ transfer: Transfer, status: Int) {
        update(transfer) { entry in
            entry.waitingSince = nil
            if (200...299).contains(status) { entry.answered = true }
        }
    }

    /// The attempt ended, answered or not.
    func attemptEnded(_ transfer: Transfer) {
        update(transfer) { $0.waitingSince = nil }
    }

    private func update(_ transfer: Transfer, _ change: (inout Entry) -> Void) {
        let onChange = state.withLock { state -> (@Sendable () -> Void)? in
            let key = ObjectIdentifier(transfer)
            guard var entry = state.entries[key], entry.transfer === transfer else { return nil }
            change(&entry)
            state.entries[key] = entry
            return state.onChange
        }
        onChange?()
    }
}
