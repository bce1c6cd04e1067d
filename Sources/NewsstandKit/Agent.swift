import Foundation
import IssueArchive
import Logging

/// The download agent: fetches the queue, resumes what was interrupted, installs what
/// finished. One per library (AgentLock); the shelf and `download` start it detached.
// @unchecked: the mutable tables (running, stopRequested, lastSpaceCheck, unrecordedPauses, lastBudgetCheck) change only under `lock`.
public final class Agent: @unchecked Sendable {
    public struct Options: Sendable {
        public var maxConcurrentTransfers = 2
        public var watch = false
        public var retryPolicy = RetryPolicy.standard
        /// How often progress reaches the database (other processes read it from there).
        public var progressInterval: TimeInterval = 0.25
        /// Credentials answered to a 401, by host (config.toml).
        public var config = Config()
        /// The cache budget in bytes; nil reads `cache_limit` from config.toml before each
        /// eviction, so `newsstand cache --limit` reaches a running agent.
        public var cacheLimit: Int64?
        /// Where downloads and installs write, and how free space is measured.
        public var storage: Storage = SystemStorage()
        /// How often a download paused by a full disk looks for room again.
        public var spaceCheckInterval: TimeInterval = 2
        /// How often a watching agent checks the budget and the disk's reserve between
        /// installs (other programs fill disks too).
        public var budgetCheckInterval: TimeInterval = 60
        /// The issue formats installs recognise (tests register stand-ins in their own).
        public var formats: IssueFormats = .shared
        /// What an edition's pictures may take (count, bytes, time).
        public var editionPictures = EditionPictureLimits()
        /// Reads installed issues' text into the search index, beside the transfers; nil
        /// leaves the index to another process.
        public var searchTexts: (any IssueTextSource)?
        public init() {}

        /// Options from the user's config.toml.
        public init(config: Config) {
            self.config = config
            maxConcurrentTransfers = config.maxConcurrentDownloads
        }
    }

    public enum Outcome: Equatable { case finished, alreadyRunning }

    /// An issue whose feed gives no length may not grow past what the installer would
    /// extract anyway (an endless body is cut off here, not when the disk is full).
    public static let maximumDownloadSize: Int64 = 2 << 30

    /// The queue's steps, its files and HTTP access, over the library's store.
    let queue: DownloadQueue
    let services: Services
    let options: Options
    let logger: Logger
    let lock = NSLock()
    private var running: [String: Transfer] = [:]   // asset identifier → transfer
    private var stopRequested = false
    /// Signalled as each transfer ends, so the loop starts the next or exits at once, not on its next tick.
    private let transferEnded = DispatchSemaphore(value: 0)
    var lastSpaceCheck: [String: Date] = [:]  // asset identifier → when it last looked for room
    /// Pauses the full disk kept the library from recording (asset identifier → bytes needed).
    var unrecordedPauses: [String: Int64] = [:]
    var lastBudgetCheck = Date.distantPast

    /// The services the agent uses beside its download queue, as `init(library:)` wires them:
    /// values over the store, never the `Library`.
    struct Services: Sendable {
        /// Evicts what is over the budget, plus the room an install needs (`ContentCache.enforceBudget`).
        let cache: ContentCache
        /// What a watching agent's pushes refresh and queue (`PushDelivery`).
        let push: PushDelivery.Services
    }

    init(queue: DownloadQueue, services: Services, options: Options, logger: Logger) {
        self.queue = queue
        self.services = services
        self.options = options
        self.logger = logger
    }

    /// The agent of `library`: its download queue, its cache budget and its pushes.
    public convenience init(library: Library, options: Options = Options(), logger: Logger = Logger(label: "newsstand.agent")) {
        let services = Services(cache: library.cache,
                                push: PushDelivery.Services(subscriptions: library.subscriptions, downloads: library.downloads))
        self.init(queue: library.downloads, services: services, options: options, logger: logger)
    }

    /// Runs until the queue is empty (or forever with `watch`).
    public func run() throws -> Outcome {
        guard let agentLock = AgentLock(path: queue.paths.agentLock) else { return .alreadyRunning }
        defer { withExtendedLifetime(agentLock) {} }
        logger.info("agent started (pid \(getpid()))")
        // A killed install leaves a staging directory beside the content: clear it.
        for leftover in IssueInstaller.removeLeftovers(in: queue.paths.issuesDirectory) {
            logger.info("removed an unfinished install: \(leftover.lastPathComponent)")
        }
        let removed = try queue.removeOrphanedPartials()
        if removed > 0 { logger.info("removed \(removed) partial file(s) of cancelled downloads") }

        // With --watch: push channels held open and the other feeds polled (Push/PushWatcher).
        let watcher = options.watch ? PushWatcher(delivery: PushDelivery(store: queue.store, services: services.push,
                                                                           paths: queue.paths, config: options.config),
                                                  pollInterval: options.config.pollInterval, logger: logger) : nil
        watcher?.start()
        defer { watcher?.stop() }
        let group = DispatchGroup()
        let search = options.searchTexts.map { SearchCatchUp(SearchIndex(store: queue.store, downloads: queue).indexer(texts: $0)) }
        let places = PlaceSyncSchedule(sync: PlaceSync(store: queue.store, paths: queue.paths, clock: .system))  // Sync/
        while true {
            if isStopRequested { break }
            if libraryIsGone {
                logger.warning("the library's database \(queue.store.writer.path) is gone: stopping")
                stop()
                break
            }
            search?.requestIfMarked(group: group, logger: logger)
            places.requestIfDue(group: group, logger: logger)
            stopCancelledTransfers()
            let pending = try queue.pendingDownloads()
            let startable = pending.filter { asset in lock.withLock { running[asset.identifier] == nil } }
            for asset in startable where activeCount < options.maxConcurrentTransfers && hasRoom(for: asset) {
                start(asset, group: group)
            }
            // While the index catches up, downloads queued meanwhile are still taken up.
            if activeCount == 0 && startable.isEmpty && search?.isRunning != true {
                if !options.watch { break }
            }
            if options.watch { enforceBudgetIfDue() }
            _ = transferEnded.wait(timeout: .now() + 0.2)
        }
        group.wait()
        logger.info("agent idle, exiting")
        return .finished
    }

    public func stop() { lock.withLock { stopRequested = true; running.values.forEach { $0.cancel() } } }

    private var isStopRequested: Bool { lock.withLock { stopRequested } }

    /// The library was removed under the agent (its folder deleted): what it would fetch has
    /// nowhere to go, and an agent with `--watch` would otherwise run on forever.
    /// (A library in memory, a unit test's, is never gone.)
    private var libraryIsGone: Bool {
        let path = queue.store.writer.path
        return path.hasPrefix("/") && access(path, F_OK) != 0 && errno == ENOENT
    }

    /// A download cancelled from another process (the shelf's `x`, `newsstand cancel`) is
    /// seen here, through the library, and its transfer stopped, even between attempts.
    private func stopCancelledTransfers() {
        let transfers = lock.withLock { running }
        guard let cancelled = try? queue.cancelledDownloads(among: Array(transfers.keys)) else { return }
        for identifier in cancelled { transfers[identifier]?.cancel() }
    }

    private var activeCount: Int { lock.withLock { running.count } }

    /// The length a download must have. A feed's length is only a hint (RSS enclosures
    /// often say 0, 1 or an old size, and the server's own framing already catches a cut
    /// transfer); it binds only beside a SHA-256, where the publisher vouches for the file.
    static func bindingLength(of issue: Issue?) -> Int64? {
        guard let issue, issue.sha256 != nil else { return nil }
        return issue.contentLength
    }

    private func start(_ asset: AssetDownload, group: DispatchGroup) {
        guard let url = URL(string: asset.url) else {
            try? queue.fail(asset, reason: "'\(asset.url)' is not a URL")
            return
        }
        let issue = try? queue.issue(id: asset.issueId)
        let headers = (try? JSONSerialization.jsonObject(with: Data(asset.headers.utf8)) as? [String: String]) ?? [:]
        // config.toml's credentials first, then what the user signed in with (the access's lookup).
        let transfer = queue.access.transfer(url, headers: headers, into: queue.partialFile(for: asset),
                                               expectedLength: Agent.bindingLength(of: issue), expectedSHA256: issue?.sha256,
                                               credentials: options.config.credentials(for: url), storage: options.storage,
                                               maximumLength: Agent.maximumDownloadSize)
        lock.withLock { running[asset.identifier] = transfer }
        group.enter()
        Thread.detachNewThread { [self] in
            defer {
                lock.withLock { running[asset.identifier] = nil }
                group.leave()
                transferEnded.signal()
            }
            perform(asset, transfer: transfer)
        }
    }

    private func perform(_ asset: AssetDownload, transfer: Transfer) {
        do {
            try queue.markActive(asset)
            let file: URL
            var ownsFile = true
            if DownloadQueue.userInfo(of: asset)["inPlace"] as? Bool == true, let source = URL(string: asset.url), source.isFileURL {
                // The user's own file: installed from where it is, never copied into a .part.
                logger.info("installing \(source.path) where it is")
                file = source
                ownsFile = false
            } else if URL(string: asset.url)?.scheme == Library.editionScheme {
                file = try builtEdition(asset)
            } else {
                file = try transferred(asset, transfer: transfer)
            }
            if queue.wasCancelled(asset) { throw TransferError.cancelled }
            guard let issue = try queue.issue(id: asset.issueId) else {
                if ownsFile { try? FileManager.default.removeItem(at: file) }
                return
            }
            try makeRoom(toInstall: file, for: asset)
            try install(file, for: asset, issue: issue)
            let completed = try queue.finish(asset)
            // The .part goes only once the library knows: until then a retry installs it again.
            if ownsFile { try? FileManager.default.removeItem(at: file) }
            if let completed {
                logger.info("issue '\(completed.name)' is ready")
                _ = try? queue.recordContentSize(of: completed)
                enforceBudget()
            }
        } catch {
            if (try? queue.issue(id: asset.issueId)) == nil {
                logger.info("download of \(asset.url) cancelled: its issue was removed")
                try? FileManager.default.removeItem(at: queue.partialFile(for: asset))
                return
            }
            if queue.wasCancelled(asset) {
                logger.info("download of \(asset.url) cancelled")
                discardCancelled(asset)
                return
            }
            if isStopRequested { return }  // left active: the next agent resumes it
            if let needed = bytesNeeded(after: error, asset: asset) {
                let free = options.storage.freeBytes(in: queue.paths.issuesDirectory).map { ", \(ByteSize.format($0)) is" } ?? ""
                let reason = "paused: the disk is full (\(ByteSize.format(needed)) must be free\(free)); it goes on by itself when there is room"
                logger.error("download of \(asset.url) \(reason)")
                pause(asset, needed: needed, reason: reason)
                return
            }
            let reason = "\(error)"
            logger.error("download of \(asset.url) failed: \(reason)")
            try? queue.fail(asset, reason: reason)
        }
    }

    /// The asset's bytes, fetched into its `.part` (resumed from what it holds).
    private func transferred(_ asset: AssetDownload, transfer: Transfer) throws -> URL {
        // What the .part holds, not what the library last heard: a pause the library
        // could not record (its disk full too) still resumes from the kept bytes.
        let kept = ((try? FileManager.default.attributesOfItem(atPath: transfer.partFile.path))?[.size] as? NSNumber)?.int64Value ?? 0
        logger.info("downloading \(asset.url) (resume from \(kept) bytes)")
        let reporter = ProgressReporter(queue: queue, asset: asset, transfer: transfer, interval: options.progressInterval)
        let validator = TransferValidator(etag: asset.etag, lastModified: asset.lastModified)
        let result = try TransferRunner.run(
            transfer, validator: validator, policy: options.retryPolicy,
            onValidator: { [queue] v in try? queue.recordValidator(asset, etag: v.etag, lastModified: v.lastModified) },
            onRetry: { [queue] retry in try? queue.recordRetry(asset, retry) },
            progress: { reporter.report($0) })
        reporter.flush(written: result.bytes)
        return result.file
    }

    /// An edition is built, not fetched: its articles and pictures become an EPUB in the
    /// asset's `.part`, installed from there like a downloaded one. What the build fetches
    /// is kept in its work area, so a build interrupted (the agent stopped or killed) goes
    /// on where it was; the `.part` is written whole or not at all, so one that is there is done.
    private func builtEdition(_ asset: AssetDownload) throws -> URL {
        guard let issue = try queue.issue(id: asset.issueId) else { throw TransferError.cancelled }
        let file = queue.partialFile(for: asset)
        let work = EditionWorkArea(paths: queue.paths, asset: asset)
        if FileManager.default.fileExists(atPath: file.path) {
            work.remove()
            return file
        }
        logger.info("building edition '\(issue.name)'")
        var builder = queue.editionBuilder
        builder.limits = options.editionPictures
        builder.workArea = work
        builder.shouldStop = { [self] in isStopRequested || queue.wasCancelled(asset) }
        let reporter = BuildProgressReporter(queue: queue, asset: asset, interval: options.progressInterval)
        builder.progress = { reporter.report($0) }
        // What was done stays on the tile also when the build stops halfway.
        defer { reporter.flush() }
        do { try builder.build(issue, into: file) } catch is EditionBuildStopped {
            throw queue.wasCancelled(asset) ? TransferError.cancelled : EditionBuildStopped()
        }
        work.remove()
        return file
    }

    /// Nothing of a cancelled download stays: its `.part`, and content an install finished
    /// just as the cancel came (unless the issue is downloaded: its other content stays).
    private func discardCancelled(_ asset: AssetDownload) {
        try? FileManager.default.removeItem(at: queue.partialFile(for: asset))
        EditionWorkArea(paths: queue.paths, asset: asset).remove()
        if let issue = try? queue.issue(id: asset.issueId), issue.status != .available {
            try? FileManager.default.removeItem(at: queue.contentDirectory(for: issue))
        }
    }

    private func install(_ file: URL, for asset: AssetDownload, issue: Issue) throws {
        let destination = queue.contentDirectory(for: issue)
        switch asset.kind {
        case .archive:
            // KOReader names the file as downloaded, which an EPUB or comic no longer is once unpacked.
            let document = try? DownloadedDocument(file: file, fileName: URL(string: asset.url)?.lastPathComponent ?? file.lastPathComponent)
            do {
                let content = try IssueInstaller.install(download: file, into: destination, formats: options.formats,
                                                         keepingOtherFiles: true, storage: options.storage)
                _ = try? queue.recordDetails(of: content, for: issue)
                if let document { try? queue.store.recordDownloadedDocument(document, for: issue) }
            } catch let error as ArchiveError where error.isOutOfSpace {
                throw error
            } catch {
                throw DownloadError(message: "cannot install the issue: \(error)")
            }
        case .file:
            let info = DownloadQueue.userInfo(of: asset)
            let name = (info["fileName"] as? String).map { ($0 as NSString).lastPathComponent } ?? URL(string: asset.url)?.lastPathComponent ?? "asset"
            guard !name.isEmpty, name != ".", name != ".." else { throw DownloadError(message: "asset has no usable file name") }
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            let target = destination.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.moveItem(at: file, to: target)
        }
    }
}

/// Writes progress to the library a few times a second, and notices when the issue
/// was removed meanwhile (then the transfer is cancelled).
// @unchecked: the throttle's state (lastWrite, lastBytes, lastTime, speed) is read and written only under `lock`.
final class ProgressReporter: @unchecked Sendable {
    let queue: DownloadQueue
    let asset: AssetDownload
    let transfer: Transfer
    let interval: TimeInterval
    private let lock = NSLock()
    private var lastWrite = Date.distantPast
    private var lastBytes: Int64 = 0
    private var lastTime: Date
    private var speed: Double?

    init(queue: DownloadQueue, asset: AssetDownload, transfer: Transfer, interval: TimeInterval) {
        self.queue = queue; self.asset = asset; self.transfer = transfer; self.interval = interval
        lastBytes = asset.bytesWritten
        lastTime = queue.clock.now()
    }

    func report(_ progress: TransferProgress) {
        let now = queue.clock.now()
        let due: Bool = lock.withLock {
            guard now.timeIntervalSince(lastWrite) >= interval else { return false }
            let elapsed = now.timeIntervalSince(lastTime)
            if elapsed > 0, progress.bytesWritten >= lastBytes {
                let instant = Double(progress.bytesWritten - lastBytes) / elapsed
                speed = speed.map { 0.7 * $0 + 0.3 * instant } ?? instant
            }
            lastBytes = progress.bytesWritten
            lastTime = now
            lastWrite = now
            return true
        }
        guard due else { return }
        if (try? queue.issue(id: asset.issueId)) == nil {
            transfer.cancel()
            return
        }
        try? queue.recordProgress(asset, written: progress.bytesWritten, expected: progress.bytesExpected, bytesPerSecond: lock.withLock { speed })
    }

    func flush(written: Int64) {
        try? queue.recordProgress(asset, written: written, expected: written, bytesPerSecond: nil)
    }
}

/// Writes an edition build's progress to the library a few times a second (and its last state at once).
// @unchecked: `lastWrite` and `latest` are read and written only under `lock`.
final class BuildProgressReporter: @unchecked Sendable {
    let queue: DownloadQueue
    let asset: AssetDownload
    let interval: TimeInterval
    private let lock = NSLock()
    private var lastWrite = Date.distantPast
    private var latest: EditionBuildProgress?

    init(queue: DownloadQueue, asset: AssetDownload, interval: TimeInterval) {
        self.queue = queue; self.asset = asset; self.interval = interval
    }

    func report(_ progress: EditionBuildProgress) {
        let now = queue.clock.now()
        let due: Bool = lock.withLock {
            latest = progress
            guard now.timeIntervalSince(lastWrite) >= interval else { return false }
            lastWrite = now
            return true
        }
        if due { try? queue.recordBuildProgress(asset, progress) }
    }

    func flush() {
        if let latest = lock.withLock({ latest }) { try? queue.recordBuildProgress(asset, latest) }
    }
}
