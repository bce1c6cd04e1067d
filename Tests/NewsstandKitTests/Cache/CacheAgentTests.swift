import Foundation
import GRDB
import IssueArchive
import TestSupport
import Testing
import ZIPFoundation
@testable import NewsstandKit

/// A library of downloaded issues and an agent that keeps it within a budget.
final class CacheLibrary {
    let temp: TemporaryLibrary
    var library: Library { temp.library }
    /// One archive shared by every issue: each install of it takes the same bytes on disk.
    let archive: URL
    let padding: Data

    init(padding size: Int = 40_000) throws {
        temp = try TemporaryLibrary()
        var generator = SeededBytes(seed: UInt64(size))
        padding = Data((0..<size).map { _ in generator.next() })
        archive = temp.root.appendingPathComponent("issue.zip")
        let zip = try Archive(url: archive, accessMode: .create)
        let files: [(String, Data)] = [
            ("index.html", Data("<html><body><h1>Contents</h1><a href=\"a.html\">A</a></body></html>".utf8)),
            ("a.html", Data("<html><body><h1>Article</h1><p>The tide came in at noon.</p></body></html>".utf8)),
            ("pad.bin", padding),
        ]
        for (path, data) in files {
            // Stored: the archive and its unpacked files are the same size, whatever the bytes.
            try zip.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .none) { position, count in
                data.subdata(in: Int(position)..<Int(position) + count)
            }
        }
    }

    var archiveSize: Int64 { Agent.fileSize(archive) }

    /// A publication with `count` issues named PREFIX1…PREFIXcount, dated day 1…count.
    @discardableResult
    func publication(_ title: String, prefix: String, count: Int) throws -> [NewsstandKit.Issue] {
        let publication = try library.store.save(Publication(feedURL: "file:///feeds/\(prefix).xml", title: title))
        return try (1...count).map { try addIssue("\(prefix)\($0)", day: $0, to: publication) }
    }

    func addIssue(_ name: String, day: Int, to publication: Publication) throws -> NewsstandKit.Issue {
        var issue = try library.store.addIssue(name: name, date: EvictionPolicyTests.day(day), publicationID: publication.id, title: "Issue \(name)")
        issue.contentURL = archive.absoluteString
        issue.contentLength = archiveSize
        issue.coverURL = "file:///covers/\(name).png"
        return try library.store.save(issue)
    }

    func issue(_ name: String) throws -> NewsstandKit.Issue { try #require(try library.store.issue(named: name)) }

    func agent(limit: Int64?, storage: Storage = FixedDisk(free: 100 * ByteSize.gibibyte, total: 200 * ByteSize.gibibyte),
               spaceCheckInterval: TimeInterval = 0.05) throws -> Agent {
        var options = Agent.Options()
        options.retryPolicy = RetryPolicy(maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.02)
        options.cacheLimit = limit
        options.storage = storage
        options.spaceCheckInterval = spaceCheckInterval
        options.progressInterval = 0
        return Agent(library: try Library(paths: library.paths), options: options)
    }

    /// Downloads the issues one after the other (so their download times are in this order).
    func download(_ names: [String], limit: Int64? = ByteSize.gibibyte, storage: Storage? = nil) throws {
        for name in names {
            try library.downloads.enqueue(try issue(name))
            let agent = try storage.map { try self.agent(limit: limit, storage: $0) } ?? self.agent(limit: limit)
            #expect(try agent.run() == .finished)
        }
    }

    func available() throws -> Set<String> { Set(try library.store.issues().filter { $0.status == .available }.map(\.name)) }

    /// Runs `body` until it is true, for up to `seconds`.
    static func wait(_ seconds: TimeInterval = 60, until body: () throws -> Bool) rethrows -> Bool {
        try waitUntil(timeout: seconds, body)
    }
}

/// Deterministic incompressible bytes (xorshift).
struct SeededBytes {
    var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func next() -> UInt8 {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return UInt8(truncatingIfNeeded: state)
    }
}

/// An agent running on its own thread, as the detached agent process does.
// @unchecked: both properties are `let`s set at init (the agent is Sendable; the semaphore is signalled once by the agent's thread).
final class BackgroundAgent: @unchecked Sendable {
    let agent: Agent
    private let done = DispatchSemaphore(value: 0)
    init(_ agent: Agent) {
        self.agent = agent
        Thread.detachNewThread { [self] in
            _ = try? agent.run()
            done.signal()
        }
    }
    func finished(within seconds: TimeInterval = 60) -> Bool { done.wait(timeout: .now() + seconds) == .success }
    func stop() -> Bool {
        agent.stop()
        return finished()
    }
}

@Suite(.serialized) struct CacheAgentTests {
    // MARK: Eviction after install

    @Test func theAgentEvictsLeastRecentlyReadFirstAfterAnInstall() throws {
        let c = try CacheLibrary()
        for (title, prefix) in [("Alpha", "a"), ("Beta", "b"), ("Gamma", "c")] { try c.publication(title, prefix: prefix, count: 5) }
        let order = (1...5).flatMap { n in ["a\(n)", "b\(n)", "c\(n)"] }
        try c.download(order)
        #expect(try c.available().count == 15)
        let size = try #require(try c.issue("a1").contentSize)
        #expect(size > 40_000)
        #expect(try c.library.cache.cachedIssues().allSatisfy { $0.size == size })

        // Reading history: b1 read lately, a1 being read now; c1 pinned; a2 has a place kept.
        try c.library.store.markOpened(try c.issue("b1"), at: Date().addingTimeInterval(10))
        try c.library.store.markOpened(try c.issue("a1"), at: Date().addingTimeInterval(20))
        try c.library.store.setPinned(try c.issue("c1"), true)
        let place = Locator(resource: "a2.xhtml", progression: 0.5, totalProgression: 0.4, text: .init(block: 7, offset: 0),
                            updated: Date(timeIntervalSince1970: 1_790_000_000))
        try c.library.store.saveLocator(place, for: try c.issue("a2"))

        // A sixth issue of Alpha arrives under a budget 5½ issues too small for all sixteen.
        let alpha = try #require(try c.library.store.publications().first { $0.title == "Alpha" })
        _ = try c.addIssue("a6", day: 6, to: alpha)
        try c.download(["a6"], limit: 16 * size - 11 * size / 2)

        let gone = ["a2", "b2", "c2", "a3", "b3", "c3"]
        #expect(try c.available() == Set(order + ["a6"]).subtracting(gone))
        for name in gone {
            let issue = try c.issue(name)
            #expect(issue.status == .none && issue.evicted, "\(name) should have been evicted")
            #expect(issue.coverURL == "file:///covers/\(name).png")
            #expect(!FileManager.default.fileExists(atPath: c.library.downloads.contentDirectory(for: issue).path))
        }
        #expect(try c.issue("a2").locator == place)
        #expect(try c.issue("a2").locator?.totalProgression == 0.4)
        // The budget holds, and nothing hidden is left behind in the issues folder.
        #expect(try c.library.cache.cachedIssues().reduce(0) { $0 + $1.size } <= 16 * size - 11 * size / 2)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: c.library.paths.issuesDirectory.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test func aPinnedIssueStaysUntilUnpinned() throws {
        let c = try CacheLibrary()
        try c.publication("Alpha", prefix: "a", count: 4)
        try c.download(["a1", "a2", "a3", "a4"])
        try c.library.store.setPinned(try c.issue("a1"), true)
        try c.library.store.setPinned(try c.issue("a2"), true)
        let disk = FixedDisk(free: 100 * ByteSize.gibibyte, total: 200 * ByteSize.gibibyte)
        let evicted = try c.library.cache.enforceBudget(CacheBudget(limit: 0), storage: disk)
        #expect(evicted.map(\.name) == ["a3"])
        #expect(try c.available() == ["a1", "a2", "a4"])
        try c.library.store.setPinned(try c.issue("a1"), false)
        #expect(try c.library.cache.enforceBudget(CacheBudget(limit: 0), storage: disk).map(\.name) == ["a1"])
        #expect(try c.available() == ["a2", "a4"])
    }

    @Test func anIssuePinnedOrOpenedAfterThePlanWasMadeStays() throws {
        let c = try CacheLibrary()
        try c.publication("Alpha", prefix: "a", count: 3)
        try c.download(["a1", "a2", "a3"])
        let plan = EvictionPolicy.issuesToEvict(try c.library.cache.cachedIssues(), currentlyReadingID: nil, limit: 0)
        #expect(plan.map(\.name) == ["a1", "a2"])
        try c.library.store.setPinned(try c.issue("a1"), true)        // meanwhile, in the shelf
        try c.library.store.markOpened(try c.issue("a2"), at: c.library.clock.now())
        #expect(try !c.library.cache.evictToSaveSpace(plan[0]))
        #expect(try !c.library.cache.evictToSaveSpace(plan[1]))
        #expect(try c.available() == ["a1", "a2", "a3"])
    }

    @Test func anEvictedIssueDownloadsAgainWithItsPlaceAndReadState() throws {
        let c = try CacheLibrary()
        try c.publication("Alpha", prefix: "a", count: 2)
        try c.download(["a1", "a2"])
        try c.library.store.markOpened(try c.issue("a1"), at: Date(timeIntervalSince1970: 1_700_000_000))
        let place = Locator(resource: "a1.xhtml", progression: 0.1, totalProgression: 0.25, text: .init(block: 3, offset: 12),
                            updated: Date(timeIntervalSince1970: 1_790_000_000))
        try c.library.store.saveLocator(place, for: try c.issue("a1"))
        try c.library.store.markOpened(try c.issue("a2"), at: c.library.clock.now())              // now reading a2: a1 may go
        #expect(try c.library.cache.enforceBudget(CacheBudget(limit: 0), storage: FixedDisk(free: 1 << 40, total: 1 << 41)).map(\.name) == ["a1"])
        #expect(try c.issue("a1").evicted)

        try c.download(["a1"])
        let again = try c.issue("a1")
        #expect(again.status == .available)
        #expect(!again.evicted)
        #expect(!again.unread)                                    // it had been read: no NEW sash again
        #expect(again.locator == place)
        #expect(again.locator?.totalProgression == 0.25)
        #expect(again.contentSize == (try c.issue("a2").contentSize))
        let pad = c.library.downloads.contentDirectory(for: again).appendingPathComponent("pad.bin")
        #expect(try Data(contentsOf: pad) == c.padding)
    }

    @Test func aWatchingAgentKeepsTheDiskReserveBetweenInstalls() throws {
        let c = try CacheLibrary()
        try c.publication("Alpha", prefix: "a", count: 3)
        try c.download(["a1", "a2", "a3"])
        // Something else has filled the disk: 512 MiB free where 1 GiB is kept.
        let agent = try c.agent(limit: ByteSize.gibibyte, storage: FixedDisk(free: 512 * ByteSize.mebibyte, total: 100 * ByteSize.gibibyte))
        var options = agent.options
        options.watch = true
        options.budgetCheckInterval = 0.05
        let running = BackgroundAgent(Agent(library: c.library, options: options))
        #expect(try CacheLibrary.wait { try c.available() == ["a3"] })
        #expect(running.stop())
        #expect(try c.issue("a1").evicted && c.issue("a2").evicted)
    }

    // MARK: newsstand cache

    @Test func theCacheReportShowsUsePerPublicationTheBudgetAndTheDisk() throws {
        let c = try CacheLibrary()
        try c.publication("Tidewater", prefix: "t", count: 3)
        try c.publication("Courier", prefix: "c", count: 2)
        try c.download(["t1", "t2", "t3", "c2"])
        try c.library.store.setPinned(try c.issue("t1"), true)
        let size = try #require(try c.issue("t1").contentSize)
        let disk = FixedDisk(free: 3 * ByteSize.gibibyte, total: 40 * ByteSize.gibibyte)
        let budget = CacheBudget(limit: 2 * ByteSize.gibibyte)

        let report = try CacheReport.make(library: c.library, budget: budget, storage: disk)
        #expect(report.used == 4 * size)
        #expect(report.publications.map(\.title) == ["Tidewater", "Courier"])
        #expect(report.text == """
            publication  issues  size
            Tidewater         3  \(ByteSize.format(3 * size))  (1 pinned)
            Courier           1  \(ByteSize.format(size))

            cache: \(ByteSize.format(4 * size)) of 2 GiB (0%)
            disk: 3 GiB free of 40 GiB; keeps 1 GiB free
            """)
        let decoded = try JSONDecoder().decode(CacheReport.self, from: Data(report.json.utf8))
        #expect(decoded == report)
        #expect(report.json.contains("\"limit\" : 2147483648"))

        // --evict under a budget of two issues: only t2 may go (t1 is pinned, t3 and c2 are
        // the newest of their publications), so the cache stays over budget.
        let evicted = try c.library.cache.enforceBudget(CacheBudget(limit: 2 * size), storage: disk)
        let after = try CacheReport.make(library: c.library, budget: CacheBudget(limit: 2 * size), storage: disk, evicted: evicted)
        #expect(after.evicted?.map(\.name) == ["t2"])
        #expect(after.text.hasPrefix("Removed 1 issue to save space (\(ByteSize.format(size))):\n  Issue t2 (Tidewater, \(ByteSize.format(size)))\n"))
        #expect(after.text.contains("cache: \(ByteSize.format(3 * size)) of \(ByteSize.format(2 * size)) (150%)"))
        let nothing = try CacheReport.make(library: c.library, budget: CacheBudget(limit: 2 * size), storage: disk,
                                           evicted: try c.library.cache.enforceBudget(CacheBudget(limit: 2 * size), storage: disk))
        #expect(nothing.text.hasPrefix("Nothing to remove"))
    }

    @Test func pageTextsAReaderKeptBesideAnIssueCountInItsSizeAndAreShownApart() throws {
        let c = try CacheLibrary()
        try c.publication("Alpha", prefix: "a", count: 2)
        try c.download(["a1", "a2"])
        let size = try #require(try c.issue("a1").contentSize)
        // Written by a reader after the install was measured: beside a PDF, and beside one in a folder of the issue.
        let content = c.library.downloads.contentDirectory(for: try c.issue("a1"))
        try Data(count: 5_000).write(to: KeptBeside.pageTexts(of: content.appendingPathComponent("issue.pdf")))
        try FileManager.default.createDirectory(at: content.appendingPathComponent("part"), withIntermediateDirectories: true)
        try Data(count: 1_000).write(to: KeptBeside.pageTexts(of: content.appendingPathComponent("part/two.pdf")))
        #expect(ContentCache.measureContent(at: content) == size)

        let disk = FixedDisk(free: 3 * ByteSize.gibibyte, total: 40 * ByteSize.gibibyte)
        let report = try CacheReport.make(library: c.library, budget: CacheBudget(limit: 2 * ByteSize.gibibyte), storage: disk)
        #expect(report.used == 2 * size + 6_000)
        #expect(report.keptTexts == 6_000)
        #expect(report.publications.map(\.bytes) == [2 * size + 6_000])
        #expect(report.text.contains("""
            cache: \(ByteSize.format(2 * size + 6_000)) of 2 GiB (0%)
              of which page texts kept for search: \(ByteSize.format(6_000))
            """), "\(report.text)")
        // A budget that holds both downloads but not the texts as well: the older issue goes.
        let evicted = try c.library.cache.enforceBudget(CacheBudget(limit: 2 * size + 1_000), storage: disk)
        #expect(evicted.map(\.name) == ["a1"])
        #expect(try CacheReport.make(library: c.library, budget: CacheBudget(limit: 2 * size), storage: disk).keptTexts == 0)
    }

    @Test func sizesInstalledBeforeTheyWereKeptAreMeasuredOnce() throws {
        let c = try CacheLibrary()
        try c.publication("Alpha", prefix: "a", count: 1)
        try c.download(["a1"])
        let measured = try #require(try c.issue("a1").contentSize)
        #expect(measured == ContentCache.measureContent(at: c.library.downloads.contentDirectory(for: try c.issue("a1"))))
        var issue = try c.issue("a1")
        issue.contentSize = nil
        try c.library.store.save(issue)
        #expect(try c.library.cache.cachedIssues().first?.size == measured)
        #expect(try c.issue("a1").contentSize == measured)
    }

    // MARK: A full disk

    @Test func aFullDiskPausesTheDownloadKeepsItsBytesAndGoesOnWhenThereIsRoom() throws {
        let c = try CacheLibrary(padding: 600_000)
        try c.publication("Alpha", prefix: "a", count: 1)
        let disk = SmallDisk(root: c.library.paths.cache, capacity: 300_000)
        try c.library.downloads.enqueue(try c.issue("a1"))
        let running = BackgroundAgent(try c.agent(limit: ByteSize.gibibyte, storage: disk))

        let asset = { try #require(try c.library.store.downloads(issueID: try c.issue("a1").id ?? 0).last) }
        #expect(try CacheLibrary.wait { try asset().waitingForSpace != nil })
        let paused = try asset()
        #expect(paused.state == .queued)
        #expect(paused.lastError?.contains("the disk is full") == true)
        #expect(try c.issue("a1").status == .downloading)
        let part = c.library.downloads.partialFile(for: paused)
        let kept = Agent.fileSize(part)
        #expect(kept > 0 && kept <= 300_000)
        #expect(paused.waitingForSpace == c.archiveSize - kept)
        #expect(try Data(contentsOf: part) == (try Data(contentsOf: c.archive)).prefix(Int(kept)))  // a true prefix
        #expect(!FileManager.default.fileExists(atPath: c.library.downloads.contentDirectory(for: try c.issue("a1")).path))
        let report = try CacheReport.make(library: c.library, budget: CacheBudget(), storage: disk)
        #expect(report.paused.map(\.name) == ["a1"])
        #expect(report.partial == kept)
        #expect(report.text.contains("partial downloads: \(ByteSize.format(kept))"))
        #expect(report.text.contains("waiting for space: Issue a1"))

        // Still paused after looking for room three more times: it waits, it does not spin
        // through failures (counted in looks, not in seconds).
        let refusals = disk.refusals
        let checks = disk.spaceChecks
        #expect(CacheLibrary.wait { disk.spaceChecks >= checks + 3 })
        #expect(disk.refusals == refusals)
        let writtenBefore = disk.bytesWritten
        disk.capacity = 5_000_000
        #expect(running.finished())
        let done = try c.issue("a1")
        #expect(done.status == .available)
        #expect(done.lastError == nil)
        #expect(try asset().waitingForSpace == nil && asset().lastError == nil)
        #expect(try Data(contentsOf: c.library.downloads.contentDirectory(for: done).appendingPathComponent("pad.bin")) == c.padding)
        #expect(!FileManager.default.fileExists(atPath: part.path))
        // Resumed from the kept bytes: only the rest of the download, then the install.
        let unpacked = try IssueInstaller.installedSize(of: c.archive)
        #expect(disk.bytesWritten - writtenBefore == (c.archiveSize - kept) + unpacked)
    }

    @Test func noRoomToInstallPausesWithTheCompleteDownloadKept() throws {
        let c = try CacheLibrary(padding: 600_000)
        try c.publication("Alpha", prefix: "a", count: 1)
        let disk = SmallDisk(root: c.library.paths.cache, capacity: c.archiveSize + 100_000)
        try c.library.downloads.enqueue(try c.issue("a1"))
        let running = BackgroundAgent(try c.agent(limit: ByteSize.gibibyte, storage: disk))
        let asset = { try #require(try c.library.store.downloads(issueID: try c.issue("a1").id ?? 0).last) }
        #expect(try CacheLibrary.wait { try asset().waitingForSpace != nil })
        let part = c.library.downloads.partialFile(for: try asset())
        #expect(try Data(contentsOf: part) == Data(contentsOf: c.archive))
        #expect(try FileManager.default.contentsOfDirectory(atPath: c.library.paths.issuesDirectory.path).isEmpty)
        let unpacked = try IssueInstaller.installedSize(of: c.archive)
        #expect(try asset().waitingForSpace == unpacked)
        let free = try #require(disk.freeBytes(in: c.library.paths.issuesDirectory))
        #expect(try asset().lastError == "paused: the disk is full (\(ByteSize.format(unpacked)) must be free, \(ByteSize.format(free)) is); it goes on by itself when there is room")

        disk.capacity = 5_000_000
        #expect(running.finished())
        #expect(try c.issue("a1").status == .available)
        #expect(!FileManager.default.fileExists(atPath: part.path))
    }

    @Test func aDiskFullInTheMiddleOfAnInstallLeavesNothingHalfWritten() throws {
        let c = try CacheLibrary(padding: 600_000)
        try c.publication("Alpha", prefix: "a", count: 1)
        // The disk says it has room, but something else fills it: the extraction meets ENOSPC.
        let disk = SmallDisk(root: c.library.paths.cache, capacity: c.archiveSize + 300_000)
        disk.overstatement = 10_000_000
        try c.library.downloads.enqueue(try c.issue("a1"))
        let running = BackgroundAgent(try c.agent(limit: ByteSize.gibibyte, storage: disk, spaceCheckInterval: 3600))
        let asset = { try #require(try c.library.store.downloads(issueID: try c.issue("a1").id ?? 0).last) }
        #expect(try CacheLibrary.wait { try asset().waitingForSpace != nil })
        #expect(running.stop())
        #expect(disk.refusals > 0)
        #expect(try asset().lastError?.contains("the disk is full") == true)
        // No half-extracted issue anywhere, no staging folder, and the download is intact.
        #expect(try FileManager.default.contentsOfDirectory(atPath: c.library.paths.issuesDirectory.path).isEmpty)
        #expect(try Data(contentsOf: c.library.downloads.partialFile(for: try asset())) == Data(contentsOf: c.archive))
        #expect(try c.issue("a1").status == .downloading)

        // Room again: the next agent installs it.
        disk.overstatement = 0
        disk.capacity = 5_000_000
        #expect(try c.agent(limit: ByteSize.gibibyte, storage: disk).run() == .finished)
        let done = try c.issue("a1")
        #expect(done.status == .available)
        #expect(try Data(contentsOf: c.library.downloads.contentDirectory(for: done).appendingPathComponent("pad.bin")) == c.padding)
    }

    @Test func aFullDiskMakesRoomByEvictingTheLeastRecentlyReadIssue() throws {
        let c = try CacheLibrary(padding: 300_000)
        try c.publication("Alpha", prefix: "a", count: 3)
        let disk = SmallDisk(root: c.library.paths.cache, capacity: 50_000_000)
        try c.download(["a1", "a2"], storage: disk)
        let size = try #require(try c.issue("a1").contentSize)
        // Room for the download and a little more, not for its install too.
        disk.capacity = 2 * size + c.archiveSize + size / 2
        try c.download(["a3"], storage: disk)
        #expect(try c.issue("a3").status == .available)
        #expect(try c.issue("a1").evicted)                        // the least recently used went
        let asset = try #require(try c.library.store.downloads(issueID: try c.issue("a3").id ?? 0).last)
        #expect(asset.attempts == 1)                              // never paused
        #expect(disk.refusals == 0)
    }
}

@Suite struct CacheMigrationTests {
    @Test func aVersionOneLibraryGainsSizesAndKeepsItsIssues() throws {
        let temp = try TemporaryLibrary()
        let paths = temp.library.paths
        let database = paths.data.appendingPathComponent("old.sqlite")
        // A library as version 1 left it: one downloaded issue, no size column yet.
        let queue = try DatabaseQueue(path: database.path)
        try Library.migrator.migrate(queue, upTo: "v1: publications, issues, asset downloads, settings")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO issue(name, date, title, status, unread) VALUES ('old-1', ?, 'Old One', 'available', 1)",
                           arguments: [Date()])
        }
        #expect(try queue.read { db in try db.columns(in: "issue").map(\.name) }.contains("contentSize") == false)
        try Library.migrator.migrate(queue)
        let issue = try #require(try queue.read { db in try NewsstandKit.Issue.fetchOne(db, sql: "SELECT * FROM issue WHERE name = 'old-1'") })
        #expect(issue.status == .available && issue.unread && issue.contentSize == nil)
        #expect(try queue.read { db in try db.columns(in: "assetDownload").map(\.name) }.contains("waitingForSpace"))
        #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }.contains { $0.hasPrefix("v2-cache:") })
    }
}
