import Foundation
import Testing
@testable import NewsstandKit

@Suite struct EvictionPolicyTests {
    static func day(_ n: Int) -> Date { Date(timeIntervalSince1970: 1_780_000_000 + Double(n) * 86_400) }

    static func issue(_ id: Int64, publication: Int64? = 1, date: Int, size: Int64 = 100, opened: Int? = nil,
                      downloaded: Int? = nil, pinned: Bool = false) -> CachedIssue {
        CachedIssue(id: id, name: "issue-\(id)", publicationID: publication, date: day(date), size: size,
                    lastOpenedAt: opened.map(day), downloadedAt: downloaded.map(day), pinned: pinned)
    }

    // MARK: Every combination of a small library

    /// The rule for "used less recently", restated from the issue: never used before used,
    /// earlier use before later, then the older issue, the larger, the lower id.
    static func usedLessRecently(_ a: CachedIssue, _ b: CachedIssue) -> Bool {
        // Last use: the later of opening and downloading.
        let x = [a.lastOpenedAt, a.downloadedAt].compactMap { $0 }.max()
        let y = [b.lastOpenedAt, b.downloadedAt].compactMap { $0 }.max()
        if (x == nil) != (y == nil) { return x == nil }
        if let x, let y, x != y { return x < y }
        if a.date != b.date { return a.date < b.date }
        if a.size != b.size { return a.size > b.size }
        return a.id < b.id
    }

    /// Four issues, two publications (1 and 2 in one, 3 and 4 in the other; higher id is
    /// newer), each absent or present with a use of never / opened on day 2 after a download
    /// on day 1 / downloaded again on day 3 after being read on day 1, pinned or not; each of
    /// them (or none) being read; three budgets: 36,015 cases.
    @Test func everySmallLibraryFollowsTheRules() {
        let sizes: [Int64] = [100, 200, 150, 300]
        let publicationOf: [Int64] = [10, 10, 20, 20]
        // State of one issue: nil = not downloaded; else (last use, pinned).
        // (opened, downloaded, pinned)
        var states: [(Int?, Int?, Bool)?] = [nil]
        for use in [(nil, nil), (2, 1), (1, 3)] as [(Int?, Int?)] {
            for pinned in [false, true] { states.append((use.0, use.1, pinned)) }
        }
        var checked = 0
        var evictions = 0
        for code in 0..<(states.count * states.count * states.count * states.count) {
            var remainder = code
            var cached: [CachedIssue] = []
            for index in 0..<4 {
                let state = states[remainder % states.count]
                remainder /= states.count
                guard let (opened, downloaded, pinned) = state else { continue }
                let id = Int64(index + 1)
                cached.append(Self.issue(id, publication: publicationOf[index], date: index + 1, size: sizes[index],
                                         opened: opened, downloaded: downloaded, pinned: pinned))
            }
            for current in [nil, 1, 2, 3, 4] as [Int64?] {
                for limit in [0, 250, 500] as [Int64] {
                    let evicted = EvictionPolicy.issuesToEvict(cached, currentlyReadingID: current, limit: limit)
                    Self.check(evicted, cached: cached, current: current, limit: limit)
                    checked += 1
                    evictions += evicted.count
                }
            }
        }
        #expect(checked == 7 * 7 * 7 * 7 * 5 * 3)
        #expect(evictions > 10_000)  // the rules were exercised, not just vacuously true
    }

    static func check(_ evicted: [CachedIssue], cached: [CachedIssue], current: Int64?, limit: Int64) {
        let ids = Set(evicted.map(\.id))
        #expect(ids.count == evicted.count, "an issue listed twice")
        // The newest downloaded issue of each publication, by date.
        var newest: [Int64?: CachedIssue] = [:]
        for issue in cached where newest[issue.publicationID].map({ $0.date < issue.date }) ?? true {
            newest[issue.publicationID] = issue
        }
        let protected = Set(cached.filter { $0.id == current || $0.pinned || newest[$0.publicationID]?.id == $0.id }.map(\.id))
        let candidates = cached.filter { !protected.contains($0.id) }
        for issue in evicted {
            #expect(cached.contains(issue), "evicted \(issue.name), which is not downloaded")
            #expect(!protected.contains(issue.id), "evicted protected \(issue.name) (current \(String(describing: current)))")
        }
        // In order: least recently used first.
        for (a, b) in zip(evicted, evicted.dropFirst()) {
            #expect(usedLessRecently(a, b), "\(a.name) before \(b.name) is out of order")
        }
        // Nothing kept was used less recently than something evicted.
        for kept in candidates where !ids.contains(kept.id) {
            for gone in evicted { #expect(!usedLessRecently(kept, gone), "kept \(kept.name) but evicted \(gone.name)") }
        }
        // Enough, and no more than needed.
        let total = cached.reduce(Int64(0)) { $0 + $1.size }
        let freed = evicted.reduce(Int64(0)) { $0 + $1.size }
        let need = total - limit
        if need <= 0 {
            #expect(evicted.isEmpty)
        } else {
            #expect(freed >= need || evicted.count == candidates.count)
            if let last = evicted.last { #expect(freed - last.size < need, "evicted more than needed") }
        }
    }

    // MARK: Each rule on its own

    @Test func leastRecentlyReadGoesFirstAndTheRestStays() {
        let cached = [
            Self.issue(1, date: 1, opened: 9, downloaded: 1),
            Self.issue(2, date: 2, opened: 3, downloaded: 2),
            Self.issue(3, date: 3, downloaded: 5),
            Self.issue(4, date: 4, downloaded: 6),   // newest: stays
        ]
        let order = EvictionPolicy.evictionOrder(cached, currentlyReadingID: nil).map(\.id)
        #expect(order == [2, 3, 1])
        #expect(EvictionPolicy.issuesToEvict(cached, currentlyReadingID: nil, limit: 250).map(\.id) == [2, 3])
        #expect(EvictionPolicy.issuesToEvict(cached, currentlyReadingID: nil, limit: 300).map(\.id) == [2])
        #expect(EvictionPolicy.issuesToEvict(cached, currentlyReadingID: nil, limit: 400).isEmpty)
    }

    @Test func aFreshDownloadCountsAsRecentUseEvenIfReadLongAgo() {
        // Issue 1 was read on day 1 but downloaded again on day 8: it was just fetched on purpose.
        let cached = [Self.issue(1, date: 1, opened: 1, downloaded: 8), Self.issue(2, date: 2, downloaded: 4),
                      Self.issue(3, date: 3, downloaded: 9)]
        #expect(EvictionPolicy.evictionOrder(cached, currentlyReadingID: nil).map(\.id) == [2, 1])
    }

    @Test func neverTheIssueBeingReadNorAPinnedOneNorTheNewestOfAPublication() {
        let cached = [
            Self.issue(1, publication: 1, date: 1, downloaded: 1),
            Self.issue(2, publication: 1, date: 2, downloaded: 2, pinned: true),
            Self.issue(3, publication: 1, date: 3, downloaded: 3),
            Self.issue(4, publication: 2, date: 1, downloaded: 4),
            Self.issue(5, publication: 2, date: 2, downloaded: 5),   // newest of 2
            Self.issue(6, publication: 1, date: 9, downloaded: 0),   // newest of 1, downloaded first
        ]
        let evicted = EvictionPolicy.issuesToEvict(cached, currentlyReadingID: 3, limit: 0)
        #expect(evicted.map(\.id) == [1, 4])
        #expect(EvictionPolicy.protection(of: cached[1], among: cached, currentlyReadingID: 3) == .pinned)
        #expect(EvictionPolicy.protection(of: cached[2], among: cached, currentlyReadingID: 3) == .currentlyReading)
        #expect(EvictionPolicy.protection(of: cached[4], among: cached, currentlyReadingID: 3) == .newestOfPublication)
        #expect(EvictionPolicy.protection(of: cached[5], among: cached, currentlyReadingID: 3) == .newestOfPublication)
        #expect(EvictionPolicy.protection(of: cached[0], among: cached, currentlyReadingID: 3) == nil)
    }

    @Test func issuesWithoutAPublicationKeepTheirNewest() {
        let cached = [Self.issue(1, publication: nil, date: 1, downloaded: 1), Self.issue(2, publication: nil, date: 2, downloaded: 2)]
        #expect(EvictionPolicy.issuesToEvict(cached, currentlyReadingID: nil, limit: 0).map(\.id) == [1])
    }

    @Test func theDiskReserveFreesMoreThanTheBudgetAlone() {
        let cached = (1...5).map { Self.issue(Int64($0), date: $0, downloaded: $0) }
        #expect(EvictionPolicy.issuesToEvict(cached, currentlyReadingID: nil, limit: 10_000).isEmpty)
        #expect(EvictionPolicy.issuesToEvict(cached, currentlyReadingID: nil, limit: 10_000, bytesToFree: 150).map(\.id) == [1, 2])
        // Over the budget by 100 and short on disk by 250: the larger need wins.
        #expect(EvictionPolicy.issuesToEvict(cached, currentlyReadingID: nil, limit: 400, bytesToFree: 250).map(\.id) == [1, 2, 3])
    }

    @Test func tiesGoToTheOlderIssueThenTheLargerThenTheLowerID() {
        let cached = [
            Self.issue(5, date: 3, size: 10, downloaded: 1), Self.issue(4, date: 2, size: 10, downloaded: 1),
            Self.issue(3, date: 2, size: 90, downloaded: 1), Self.issue(2, date: 2, size: 90, downloaded: 1),
            Self.issue(1, date: 9, downloaded: 9),
        ]
        #expect(EvictionPolicy.evictionOrder(cached, currentlyReadingID: nil).map(\.id) == [2, 3, 4, 5])
    }

    @Test func onlyProtectedIssuesOverBudgetMeansNothingGoes() {
        let cached = [Self.issue(1, date: 1, size: 5_000, pinned: true), Self.issue(2, date: 2, size: 5_000)]
        #expect(EvictionPolicy.issuesToEvict(cached, currentlyReadingID: nil, limit: 100).isEmpty)
    }
}

@Suite struct ByteSizeTests {
    @Test func sizesAsPeopleWriteThem() throws {
        #expect(try ByteSize.parse("2GB") == 2_000_000_000)
        #expect(try ByteSize.parse("2 GiB") == 2 * 1024 * 1024 * 1024)
        #expect(try ByteSize.parse("500 MiB") == 500 * 1024 * 1024)
        #expect(try ByteSize.parse("1.5G") == 1_610_612_736)
        #expect(try ByteSize.parse("750mb") == 750_000_000)
        #expect(try ByteSize.parse("64k") == 65_536)
        #expect(try ByteSize.parse("123456") == 123_456)
        #expect(try ByteSize.parse(" 0 ") == 0)
        for bad in ["", "GB", "-1GB", "2 parsecs", "1.2.3G", "9e30", "99999999999 TB"] {
            #expect(throws: ByteSizeError.self, "\(bad)") { try ByteSize.parse(bad) }
        }
    }

    @Test func shownSizesCanBeTypedBack() throws {
        #expect(ByteSize.format(2 * ByteSize.gibibyte) == "2 GiB")
        #expect(ByteSize.format(1_610_612_736) == "1.5 GiB")
        #expect(ByteSize.format(900 * 1024) == "900 KiB")
        #expect(ByteSize.format(12) == "12 B")
        #expect(try ByteSize.parse(ByteSize.format(1_610_612_736)) == 1_610_612_736)
    }

    @Test func theConfigReadsCacheLimitAndRefusesNonsense() throws {
        #expect(try Config.parse("", file: "c").cacheLimit == CacheBudget.defaultLimit)
        #expect(try Config.parse("cache_limit = \"500 MiB\"", file: "c").cacheLimit == 500 * 1024 * 1024)
        #expect(try Config.parse("cache_limit = 1000000", file: "c").cacheLimit == 1_000_000)
        let error = try #require(throws: ConfigError.self) { try Config.parse("cache_limit = \"lots\"", file: "/x/config.toml") }
        #expect(error.description.contains("/x/config.toml: cache_limit: 'lots' is not a size"))
        #expect(throws: ConfigError.self) { try Config.parse("cache_limit = -5", file: "c") }
        #expect(throws: ConfigError.self) { try Config.parse("cache_limit = true", file: "c") }
    }

    @Test func settingTheLimitKeepsTheRestOfTheConfigFile() throws {
        let temp = try TemporaryLibrary()
        let paths = temp.library.paths
        let original = """
            # my settings
            max_concurrent_downloads = 3

            [credentials."news.example.com"]
            user = "reader"
            password = "secret"
            """
        try Data(original.utf8).write(to: paths.configFile)
        chmod(paths.configFile.path, 0o600)
        #expect(try CacheLimitSetting.set("750MB", paths: paths) == 750_000_000)
        var text = try String(contentsOf: paths.configFile, encoding: .utf8)
        #expect(text == """
            # my settings
            max_concurrent_downloads = 3
            cache_limit = "750MB"

            [credentials."news.example.com"]
            user = "reader"
            password = "secret"

            """)
        try CacheLimitSetting.set("1GiB", paths: paths)
        text = try String(contentsOf: paths.configFile, encoding: .utf8)
        #expect(text.components(separatedBy: "cache_limit").count == 2)
        let config = try Config.load(paths: paths)
        #expect(config.cacheLimit == ByteSize.gibibyte)
        #expect(config.maxConcurrentDownloads == 3)
        #expect(config.credentials["news.example.com"] == .basic(user: "reader", password: "secret"))
        let mode = try FileManager.default.attributesOfItem(atPath: paths.configFile.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        // A bad size leaves the file alone.
        #expect(throws: ByteSizeError.self) { try CacheLimitSetting.set("big", paths: paths) }
        #expect(try String(contentsOf: paths.configFile, encoding: .utf8) == text)
    }

    @Test func settingTheLimitCreatesTheConfigFile() throws {
        let temp = try TemporaryLibrary()
        try CacheLimitSetting.set("10 MiB", paths: temp.library.paths)
        #expect(try String(contentsOf: temp.library.paths.configFile, encoding: .utf8) == "cache_limit = \"10 MiB\"\n")
    }
}
