import Foundation

/// Which publication a refresh worker takes next: in the order given, at most `perServer`
/// at a time from one server, and none of a server that has just failed at the network
/// level (refused, silent, unknown): those end at once with that failure, so 28 feeds of
/// a dead server cost one feed's retries, not 28.
// @unchecked: every field is read and written under `lock`.
final class RefreshSchedule: @unchecked Sendable {
    /// What a worker is given: the index of a publication, and, when its server is down,
    /// why (it is then not fetched).
    struct Job {
        var index: Int
        var serverDown: String?
    }

    private let lock = NSCondition()
    private let servers: [String?]
    private let perServer: Int
    private var pending: [Int]
    private var running: [String: Int] = [:]
    private var down: [String: String] = [:]

    /// `servers[i]`: the server publication `i` is fetched from (`host:port`), nil when
    /// it is not fetched over the network.
    init(servers: [String?], perServer: Int) {
        self.servers = servers
        self.perServer = max(1, perServer)
        pending = Array(servers.indices)
    }

    /// The next job, waiting while every pending one's server is busy; nil when none is left.
    func next() -> Job? {
        lock.withLock {
            while true {
                if pending.isEmpty { return nil }
                let position = pending.firstIndex { index in
                    guard let server = servers[index] else { return true }
                    return down[server] != nil || running[server, default: 0] < perServer
                }
                if let position {
                    let index = pending.remove(at: position)
                    guard let server = servers[index] else { return Job(index: index) }
                    if let reason = down[server] { return Job(index: index, serverDown: reason) }
                    running[server, default: 0] += 1
                    return Job(index: index)
                }
                lock.wait()
            }
        }
    }

    /// `job` is done; a failure that says its server did not answer at all marks the server
    /// down for the jobs still pending.
    func finished(_ job: Job, error: Error?) {
        lock.withLock {
            guard let server = servers[job.index] else { return }
            if job.serverDown == nil { running[server, default: 1] -= 1 }
            if let error = error as? TransferError, error.httpStatus == nil, error.isRetryable, !error.isCancelled, !error.isOutOfSpace {
                down[server] = down[server] ?? error.inPlainWords
            }
            lock.broadcast()
        }
    }
}
