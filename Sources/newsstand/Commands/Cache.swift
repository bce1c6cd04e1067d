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

    @Option(help: ArgumentHelp("Set the budget (cache_limit in config.toml), e.g. 2GB, 500MiB.", valueName: "SIZE"))
    var limit: String?

    @Flag(help: "Remove what is over the budget now, and list what went.")
    var evict = false

    @Flag(help: "Machine-readable output (sizes in bytes).")
    var json = false

    func run() throws {
        let library = try Context.library()
        if limit != nil || evict { try Context.refuseChanges(to: library) }
        if let limit { try CacheLimitSetting.set(limit, paths: library.paths) }
        let config = try Config.load(paths: library.paths)
        let budget = CacheBudget(limit: config.cacheLimit)
        let evicted = evict ? try library.enforceBudget(budget) : nil
        let report = try CacheReport.make(library: library, budget: budget, evicted: evicted)
        print(json ? report.json : report.text)
    }
}
