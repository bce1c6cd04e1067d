import ArgumentParser
import Foundation
import NewsstandKit

struct Download: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "download", abstract: "Queue an issue for download; --wait shows progress until done.")

    @Argument(help: "The issue's name (see `newsstand issues`).")
    var issue: String

    @Flag(help: "Wait, showing progress, until the issue is installed or fails.")
    var wait = false

    func run() throws {
        let library = try Context.writableLibrary(noticingResources: true)
        let target = try library.issue(matching: issue)
        if target.status == .available {
            print("\(target.name) is already downloaded.")
            return
        }
        try library.downloads.enqueue(target)
        AgentLauncher.startIfNeeded(paths: library.paths)
        guard wait else {
            print("Queued \(target.name).")
            return
        }
        let display = ProgressDisplay(interactive: isatty(STDOUT_FILENO) == 1)
        while true {
            guard let current = try library.store.issue(id: target.id ?? -1) else { throw CommandFailure("\(target.name) was removed") }
            let download = try library.store.downloads(issueID: current.id ?? -1).last
            switch current.status {
            case .available:
                display.finish("\(current.name): downloaded")
                return
            case .none:
                display.finish(nil)
                if download?.state == .cancelled { throw CommandFailure("\(current.name): the download was cancelled") }
                throw CommandFailure("\(current.name): \(current.lastError ?? download?.lastError ?? "download failed")")
            case .downloading:
                try display.giveUpWhenSilent(name: current.name, download: download)
                display.show(name: current.name, download: download)
                // The agent may have exited between our queueing and its last check.
                AgentLauncher.startIfNeeded(paths: library.paths)
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }
}
