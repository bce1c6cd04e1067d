import Foundation

/// When to try a failed transfer again: exponential backoff for retryable errors
/// (network errors, 5xx, 408, 429), the server's `Retry-After` when it sends one.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in a row that may fail before giving up (an attempt that added bytes to
    /// the `.part` file starts the count again, up to 10 × this many attempts in all).
    public var maxAttempts: Int
    /// Delay after the first failure; doubled after each further failure.
    public var baseDelay: TimeInterval
    /// Ceiling of the backoff.
    public var maxDelay: TimeInterval
    /// A `Retry-After` longer than this is not waited for: the error is returned (with its
    /// `retryAfter`) so the caller can schedule the asset for later.
    public var maxRetryAfter: TimeInterval
    /// Each backoff delay is shortened by a random fraction up to this (0…1), so many
    /// clients do not come back at the same instant.
    public var jitter: Double

    public init(maxAttempts: Int, baseDelay: TimeInterval, maxDelay: TimeInterval, maxRetryAfter: TimeInterval = 600, jitter: Double = 0) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maxDelay = max(0, maxDelay)
        self.maxRetryAfter = max(0, maxRetryAfter)
        self.jitter = min(1, max(0, jitter))
    }

    /// 6 attempts: waits of about 1, 2, 4, 8 and 16 s in between.
    public static let standard = RetryPolicy(maxAttempts: 6, baseDelay: 1, maxDelay: 60, maxRetryAfter: 600, jitter: 0.2)

    /// The wait before attempt `attempt + 1` after attempt `attempt` (1-based) failed with
    /// `error`; nil means give up.
    public func delay(afterAttempt attempt: Int, error: TransferError) -> TimeInterval? {
        // A full disk is not retried here: the agent pauses the download until there is room.
        guard error.isRetryable, !error.isCancelled, !error.isOutOfSpace, attempt < maxAttempts else { return nil }
        if let retryAfter = error.retryAfter {
            return retryAfter <= maxRetryAfter ? retryAfter : nil
        }
        let exponent = Double(min(max(attempt - 1, 0), 62))
        let backoff = min(maxDelay, baseDelay * pow(2, exponent))
        return backoff * (1 - jitter * Double.random(in: 0..<1))
    }
}

/// Runs a `Transfer` until it succeeds, fails for good, or is cancelled.
public enum TransferRunner {
    /// Runs with retries per `policy`, waiting between attempts with `sleep` (tests inject
    /// one; nil waits on the transfer itself, so `cancel()` ends the wait at once).
    /// `onValidator` receives each response's validator before its bytes are written;
    /// every retry resumes with the newest one. `onRetry` is told before each wait which
    /// attempt comes next and why the last failed.
    public static func run(
        _ transfer: Transfer,
        validator: TransferValidator?,
        policy: RetryPolicy,
        sleep: ((TimeInterval) -> Void)? = nil,
        onValidator: (TransferValidator) -> Void = { _ in },
        onRetry: (TransferRetry) -> Void = { _ in },
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) throws -> TransferResult {
        // An interactive command's patience may give the transfer up: it is cancelled,
        // and the error says how long it waited for whom.
        NetworkWaits.shared.watch(transfer)
        let result: Result<TransferResult, Error> = Result {
            try attempts(transfer, validator: validator, policy: policy, sleep: sleep, onValidator: onValidator,
                         onRetry: onRetry, progress: progress)
        }
        let gaveUp = NetworkWaits.shared.unwatch(transfer)
        do { return try result.get() } catch let error as TransferError where error.isCancelled {
            guard gaveUp, let patience = NetworkWaits.shared.patience else { throw error }
            let server = NetworkWaits.server(of: transfer.request.url)
            throw TransferError.network("no answer from \(server) in \(Int(patience.rounded())) s", summary: "no answer from the server")
        }
    }

    private static func attempts(
        _ transfer: Transfer,
        validator: TransferValidator?,
        policy: RetryPolicy,
        sleep: ((TimeInterval) -> Void)?,
        onValidator: (TransferValidator) -> Void,
        onRetry: (TransferRetry) -> Void,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) throws -> TransferResult {
        var current = validator
        var failuresInARow = 0
        var attempts = 0
        while true {
            attempts += 1
            let before = partLength(transfer.partFile)
            do {
                return try transfer.run(validator: current, onValidator: { fresh in
                    current = fresh
                    onValidator(fresh)
                }, progress: progress)
            } catch var error as TransferError {
                if partLength(transfer.partFile) > before { failuresInARow = 0 }  // it moved forward
                failuresInARow += 1
                guard attempts < policy.maxAttempts * 10,
                      let wait = policy.delay(afterAttempt: failuresInARow, error: error) else {
                    if attempts > 1 && !error.isCancelled { error.message += " (after \(attempts) attempts)" }
                    throw error
                }
                onRetry(TransferRetry(attempt: failuresInARow + 1, attempts: policy.maxAttempts, reason: error.inPlainWords))
                if let sleep { sleep(wait) } else { transfer.pause(for: wait) }
                if transfer.isCancelled { throw TransferError.cancelled }
            }
        }
    }

    private static func partLength(_ url: URL) -> Int64 {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
