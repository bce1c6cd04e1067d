import NewsstandKit

/// Own files installed by a command (`subscribe` of a folder or file, `refresh` of one),
/// not by the agent, are held to the cache budget by that command, as the agent holds its
/// installs, not only at the agent's next run.
enum OwnFilesBudget {
    static func keep(_ library: Library) throws {
        let budget = CacheBudget(limit: ((try? Config.load(paths: library.paths)) ?? Config()).cacheLimit)
        let evicted: [CachedIssue]
        do { evicted = try library.cache.enforceBudget(budget) } catch {
            throw CommandFailure("cannot keep the cache within its budget: \(error)")
        }
        guard !evicted.isEmpty else { return }
        let freed = ByteSize.format(evicted.reduce(Int64(0)) { $0 + $1.size })
        print("Removed \(evicted.count) issue(s) to keep the cache within \(ByteSize.format(budget.limit)) (\(freed)): "
            + evicted.map(\.title).joined(separator: ", ") + "; `newsstand download` brings one back.")
    }
}
