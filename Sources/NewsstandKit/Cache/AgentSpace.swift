import Foundation
import GRDB
import IssueArchive

/// The agent's side of the storage budget: evict after each install, make room before an
/// install, pause a download when the disk is full and go on when there is room.
extension Agent {
    /// The budget now (config.toml is read again each time unless the options fix it).
    var currentBudget: CacheBudget {
        if let limit = options.cacheLimit { return CacheBudget(limit: limit) }
        let config = (try? Config.load(paths: queue.paths)) ?? options.config
        return CacheBudget(limit: config.cacheLimit)
    }

    /// Evicts what is over the budget or eats into the disk's reserve; logs what went.
    @discardableResult
    func enforceBudget(room: Int64 = 0) -> [CachedIssue] {
        do {
            let evicted = try services.cache.enforceBudget(currentBudget, storage: options.storage, room: room)
            for issue in evicted {
                logger.info("removed '\(issue.name)' (\(ByteSize.format(issue.size))) to save space")
            }
            return evicted
        } catch {
            logger.error("cannot apply the cache budget: \(error)")
            return []
        }
    }

    /// For a watching agent: the budget checked every `budgetCheckInterval`, installs or not.
    func enforceBudgetIfDue() {
        let now = queue.clock.now()
        let due: Bool = lock.withLock {
            guard now.timeIntervalSince(lastBudgetCheck) >= options.budgetCheckInterval else { return false }
            lastBudgetCheck = now
            return true
        }
        if due { enforceBudget() }
    }

    /// Before an install: the archive's files need room. Evicts to make it, and throws an
    /// out-of-space error when there still is not enough (the download then pauses).
    func makeRoom(toInstall archive: URL, for asset: AssetDownload) throws {
        guard asset.kind == .archive, let needed = try? IssueInstaller.installedSize(of: archive, formats: options.formats) else { return }
        let directory = queue.paths.issuesDirectory
        guard let free = options.storage.freeBytes(in: directory), free < needed else { return }
        enforceBudget(room: needed)
        if let after = options.storage.freeBytes(in: directory), after < needed {
            throw OutOfSpace(needed: needed)
        }
    }

    /// When `error` means the disk is full: the bytes that must be free for the asset to go
    /// on (what is left to download, or the unpacked size of the archive to install).
    func bytesNeeded(after error: Error, asset: AssetDownload) -> Int64? {
        if let shortfall = error as? OutOfSpace { return max(1, shortfall.needed) }
        if let archive = error as? ArchiveError, archive.isOutOfSpace {
            let file = queue.partialFile(for: asset)
            return max(1, (try? IssueInstaller.installedSize(of: file, formats: options.formats)) ?? Self.fileSize(file))
        }
        // The library's own file could not grow: nothing else can be written either.
        if let database = error as? DatabaseError, database.resultCode == .SQLITE_FULL { return ByteSize.mebibyte }
        guard let transfer = error as? TransferError, transfer.isOutOfSpace else { return nil }
        let current = (try? queue.download(identifier: asset.identifier)) ?? asset
        let expected = current.bytesExpected ?? (try? queue.issue(id: asset.issueId))?.contentLength
        let onDisk = Self.fileSize(queue.partialFile(for: asset))
        return expected.map { max(1, $0 - onDisk) } ?? ByteSize.mebibyte
    }

    /// Whether an asset may start: always, unless it waits for disk space; then it looks
    /// (every `spaceCheckInterval`) whether eviction or the user made enough room.
    func hasRoom(for asset: AssetDownload) -> Bool {
        let unrecorded = lock.withLock { unrecordedPauses[asset.identifier] }
        guard let needed = asset.waitingForSpace ?? unrecorded else { return true }
        let now = queue.clock.now()
        let due: Bool = lock.withLock {
            if let last = lastSpaceCheck[asset.identifier], now.timeIntervalSince(last) < options.spaceCheckInterval { return false }
            lastSpaceCheck[asset.identifier] = now
            return true
        }
        guard due else { return false }
        let directory = queue.paths.issuesDirectory
        var room = (options.storage.freeBytes(in: directory) ?? 0) >= needed
        if !room {
            enforceBudget(room: needed)
            room = (options.storage.freeBytes(in: directory) ?? 0) >= needed
        }
        if room { lock.withLock { unrecordedPauses[asset.identifier] = nil } }
        return room
    }

    /// Records the pause in the library (its tile and `newsstand cache` show `reason`); when
    /// the disk is too full even for that, the agent remembers it, so it does not retry in a
    /// loop but waits for room all the same.
    func pause(_ asset: AssetDownload, needed: Int64, reason: String) {
        // The first look for room comes one interval later: no tight loop of failing attempts.
        lock.withLock { lastSpaceCheck[asset.identifier] = queue.clock.now() }
        do {
            try queue.waitForSpace(asset, needed: needed, reason: reason)
        } catch {
            logger.error("cannot record the pause (\(error)); waiting for room")
            lock.withLock { unrecordedPauses[asset.identifier] = needed }
        }
    }

    static func fileSize(_ url: URL) -> Int64 {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int64(info.st_size) : 0
    }
}

/// Not enough room on the disk for what comes next, even after evicting what may go.
struct OutOfSpace: Error, CustomStringConvertible {
    /// Bytes that must be free.
    var needed: Int64
    var description: String { "the disk is full: \(ByteSize.format(needed)) must be free" }
}
