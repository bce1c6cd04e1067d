import ArgumentParser
import NewsstandKit

/// `cancel ISSUE` does what the shelf's `x` does on a download under way: the agent stops
/// it, its `.part` goes, and the issue can be downloaded again.
struct Cancel: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancel an issue's download under way; what arrived is thrown away.")

    @Argument(help: "The issue's name (see `newsstand issues`).")
    var issue: String

    func run() throws {
        let library = try Context.writableLibrary()
        let target = try library.issue(matching: issue)
        guard try library.downloads.cancelDownload(target) else {
            throw CommandFailure(target.status == .available ? "\(target.name) is already downloaded: nothing to cancel (`newsstand remove` removes its content)"
                                                             : "\(target.name) is not downloading: nothing to cancel")
        }
        print("Cancelled the download of \(target.name).")
    }
}
