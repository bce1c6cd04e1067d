import ArgumentParser
import Foundation
import NewsstandKit

struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show the space downloaded issues take, per publication, against the budget and the free disk.",
        discussion: """
            Issue content is a cache: when it grows past cache_limit, or the disk's free space falls \
            under its reserve (1 GiB, or 5% of a disk under 20 GiB), the least recently read issues are \
            removed first — never the one being read, the newest of a publication, or a pinned one. \
            A removed issue keeps its place in the library and can be downloaded again.
            """)

    /// Under this, a budget holds hardly an issue: it is allowed, and warned about.
    static let smallestSensibleLimit: Int64 = 1 << 20

    @Option(help: ArgumentHelp("Set the budget (cache_limit in config.toml), e.g. 2GB, 500MiB.", valueName: "SIZE"))
    var limit: String?

    @Flag(help: "Remove what is over the budget now, and list what went.")
    var evict = false

    @Flag(help: "Machine-readable output (sizes in bytes).")
    var json = false

    /// A limit that is no size, or nothing, is refused before anything is written.
    func validate() throws {
        guard let limit else { return }
        let bytes: Int64
        do { bytes = try ByteSize.parse(limit) } catch { throw ValidationError("--limit: \(error)") }
        if bytes <= 0 {
            throw ValidationError("--limit must be more than 0, e.g. 2GB: a budget of nothing would remove every issue it may")
        }
    }

    func run() throws {
        let library = try Context.library()
        if limit != nil || evict { try Context.refuseChanges(to: library) }
        let newLimit = try limit.map { try CacheLimitSetting.set($0, paths: library.paths) }
        let config = try Config.load(paths: library.paths)
        let budget = CacheBudget(limit: config.cacheLimit)
        let evicted = evict ? try library.cache.enforceBudget(budget) : nil
        var report = try CacheReport.make(library: library, budget: budget, evicted: evicted)
        if json {
            print(report.json)
        } else if evicted != nil, report.used > report.limit {
            // Still over: the report's "nothing to remove" would read as "within budget".
            let protected = try ProtectedIssues.lines(library: library, used: report.used, limit: report.limit)
            if evicted?.isEmpty == true { report.evicted = nil }
            print(evicted?.isEmpty == true ? protected + "\n\n" + report.text : report.text + "\n\n" + protected)
        } else {
            print(report.text)
        }
        if let newLimit, newLimit < Self.smallestSensibleLimit {
            fflush(nil)   // standard output (all streams: `stdout` is a C global): the warning after the report, also when both go to one file
            printProblem("warning: a cache limit of \(ByteSize.format(newLimit)) holds hardly an issue: "
                + "only protected issues (being read, the newest of each publication, pinned) will stay downloaded")
        }
    }
}

/// Why what is left in a cache over its budget stays: each issue and what protects it.
enum ProtectedIssues {
    static func lines(library: Library, used: Int64, limit: Int64) throws -> String {
        let cached = try library.cache.cachedIssues()
        let reading = library.store.currentlyReadingIssue()?.id
        let titles = try library.store.publicationTitles()
        var lines = ["The cache is over its budget (\(ByteSize.format(used)) of \(ByteSize.format(limit))), "
            + "but what is left is protected and stays:"]
        for issue in cached {
            guard let protection = EvictionPolicy.protection(of: issue, among: cached, currentlyReadingID: reading) else { continue }
            let publication = issue.publicationID.flatMap { titles[$0] } ?? "no publication"
            lines.append("  \(issue.title) (\(publication), \(ByteSize.format(issue.size))): \(protection.rawValue)")
        }
        return lines.joined(separator: "\n")
    }
}
