import ArgumentParser
import Foundation
import NewsstandKit
import Synchronization

struct Refresh: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Fetch feeds; exits 1 with one line per failed feed.")

    @Argument(help: "One publication (title, id or feed URL); all when omitted.")
    var publication: String?

    /// The feeds are fetched a few at a time (`Subscriptions.refresh(_:done:)`); their lines come
    /// in the order of the publications, each as soon as those before it are done, under a
    /// live "refreshing 12/28…" on a terminal.
    func run() throws {
        let library = try Context.writableLibrary(noticingResources: true)
        let targets = try publication.map { [try library.store.publication(matching: $0)] } ?? library.store.publications()
        let report = RefreshReport(targets: targets, status: StatusLine.current)
        library.subscriptions.refresh(targets) { index, result in report.done(index, result) }
        if report.failed > 0 { throw ExitCode(1) }
    }
}

/// What `refresh` says: one line a publication, in order, and how many are done so far.
final class RefreshReport: Sendable {
    private struct State {
        var results: [Result<Library.SyncResult, Error>?]
        var printed = 0
        var finished = 0
        var failed = 0
    }

    private let targets: [Publication]
    private let status: StatusLine?
    private let state: Mutex<State>

    init(targets: [Publication], status: StatusLine?) {
        self.targets = targets
        self.status = status
        state = Mutex(State(results: Array(repeating: nil, count: targets.count)))
        status?.text = targets.count > 1 ? "refreshing 0/\(targets.count)…" : ""
    }

    var failed: Int { state.withLock { $0.failed } }

    func done(_ index: Int, _ result: Result<Library.SyncResult, Error>) {
        state.withLock { state in
            state.results[index] = result
            state.finished += 1
            if case .failure = result { state.failed += 1 }
            if case let .success(refreshed) = result, refreshed.budget?.problem != nil { state.failed += 1 }
            if targets.count > 1 { status?.text = "refreshing \(state.finished)/\(targets.count)…" }
            while state.printed < targets.count, let ready = state.results[state.printed] {
                say(targets[state.printed], ready)
                state.printed += 1
            }
            if state.printed == targets.count { status?.text = "" }
        }
    }

    private func say(_ target: Publication, _ result: Result<Library.SyncResult, Error>) {
        // Ctrl-C: the feeds cut short are not failures to report; the command ends with 130.
        guard !NetworkWaits.shared.interrupted else { return }
        switch result {
        case let .success(result):
            let removed = result.removed.isEmpty ? "" : "; removed: " + result.removed.map { URL(string: $0)?.lastPathComponent ?? $0 }.joined(separator: ", ")
            StatusLine.print((result.unchanged ? "\(target.title): unchanged" : "\(target.title): \(result.added.count) new issue(s)") + removed)
            // A folder of one's own installs its new files as it is refreshed, held to the budget then.
            if let line = result.budget?.line { StatusLine.print(line) }
            if let problem = result.budget?.problem { printProblem("\(target.title): \(problem)") }
        case let .failure(error):
            if let status { status.printing { printProblem("\(target.title): \(error)") } } else { printProblem("\(target.title): \(error)") }
        }
    }
}
