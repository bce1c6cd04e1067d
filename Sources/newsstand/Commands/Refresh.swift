import ArgumentParser
import Foundation
import NewsstandKit

struct Refresh: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Fetch feeds; exits 1 with one line per failed feed.")

    @Argument(help: "One publication (title, id or feed URL); all when omitted.")
    var publication: String?

    func run() throws {
        let library = try Context.writableLibrary(noticingResources: true)
        let targets = try publication.map { [try library.publication(matching: $0)] } ?? library.publications()
        var failed = 0
        for target in targets {
            do {
                let result = try library.refresh(target)
                let removed = result.removed.isEmpty ? "" : "; removed: " + result.removed.map { URL(string: $0)?.lastPathComponent ?? $0 }.joined(separator: ", ")
                print((result.unchanged ? "\(target.title): unchanged" : "\(target.title): \(result.added.count) new issue(s)") + removed)
            } catch {
                failed += 1
                printProblem("\(target.title): \(error)")
            }
        }
        if failed > 0 { throw ExitCode(1) }
    }
}
