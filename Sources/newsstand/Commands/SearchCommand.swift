import ArgumentParser
import Foundation
import NewsstandKit
import Shelf

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search every issue: the text of those downloaded, the titles, authors and summaries of all.",
        discussion: """
            Words must all be there; harbo* finds words that begin so; "equinox tide" finds the words in a row; \
            -word leaves out what has it; in:tide keeps to a publication (as --publication). Accents are folded; Chinese, Japanese and Thai are found without spaces.
            """)

    /// `-word` is a word to leave out, not an option: unrecognized options are taken as words.
    @Argument(parsing: .allUnrecognized, help: "What to search for (-word: leave out what has it).")
    var query: [String] = []

    @Flag(help: "Machine-readable output.")
    var json = false

    @Option(help: "Only this publication's issues (its title, or part of it).")
    var publication: String?

    @Option(help: "At most this many issues.")
    var limit = 20

    @Flag(help: "Index every issue again first (the text of evicted issues is kept).")
    var rebuild = false

    /// For benchmarks/search/run.py: the query run this many times more in this process,
    /// each one's milliseconds on stderr (`find-ms: …`), the Swift path timed without the
    /// process's start.
    @Option(help: .hidden)
    var timeRuns = 0

    func validate() throws {
        if query.isEmpty && !rebuild { throw ValidationError("give a word to search for") }
        if limit < 1 { throw ValidationError("--limit must be at least 1, not \(limit)") }
    }

    /// What the agent has not indexed yet (issues added while no agent ran, an upgrade),
    /// indexed now: before a search, and before `serve` answers searches.
    static func catchUp(_ library: Library) throws {
        guard library.store.diskFull == nil, try library.search.pendingCount() > 0 else { return }
        try library.search.indexer(texts: IssueSearchTexts()).catchUp()
    }

    func run() throws {
        // Read-only unless there is indexing to do first: nothing written as it opens or closes.
        var library = try rebuild ? Context.library() : Library.forReading(paths: Paths())
        if library.store.isReadOnly, library.store.diskFull == nil, try library.search.pendingCount() > 0 {
            library = try Context.library()
        }
        let texts = IssueSearchTexts()
        if rebuild {
            try Context.refuseChanges(to: library)
            let line = StatusLine()
            let indexed = try library.search.rebuild(texts: texts) { done, left in
                line.text = "indexing: \(done) issue(s), \(left) to go"
            }
            line.stop()
            printProblem("search index rebuilt: \(indexed) issue(s)")
        } else {
            try Self.catchUp(library)
        }
        guard !query.isEmpty else { return }
        let parsed: SearchQuery
        do { parsed = try SearchQuery(query.joined(separator: " ")) } catch { throw CommandFailure("cannot search: \(error)") }
        let results = try library.search.find(parsed, publication: publication, issues: limit)
        if timeRuns > 0 {
            let times = try (0..<timeRuns).map { _ in
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try library.search.find(parsed, publication: publication, issues: limit)
                return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            }
            printProblem("find-ms: " + times.map { String(format: "%.3f", $0) }.joined(separator: " "))
        }
        if json {
            print(try SearchReport.json(results))
        } else {
            print(SearchReport.text(results, marks: isatty(STDOUT_FILENO) == 1 ? .terminal : .brackets), terminator: "")
        }
    }
}
