import ArgumentParser
import Foundation
import NewsstandKit

struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Deliver a push by hand (as if from the feed's channel); without a publication, show push status.")

    @Argument(help: "The publication (title, id or feed URL). Omit it to list channels, throttles and alerts.")
    var publication: String?

    @Option(help: #"The payload, e.g. '{"aps":{"alert":"…"}}' (default: {"aps":{"content-available":1}})."#)
    var payload: String?

    func run() throws {
        let library = try Context.libraryNoticingResources()
        guard let publication else {
            print(try PushStatus.lines(library: library, now: Date()).joined(separator: "\n"))
            return
        }
        try Context.refuseChanges(to: library)
        let config = try Config.load(paths: library.paths)
        let target = try library.store.publication(matching: publication)
        let message = try payload.map(PushPayload.parse) ?? .newContent
        let report = PushDelivery(library: library, config: config).deliver(message, to: target)
        for line in report.lines { print("\(target.title): \(line)") }
        if case .queued? = report.autoDownload { AgentLauncher.startIfNeeded(paths: library.paths) }
        if let problem = report.refreshError { throw CommandFailure("\(target.title): refresh failed: \(problem)") }
    }
}
