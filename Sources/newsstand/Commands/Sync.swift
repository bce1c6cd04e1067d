import ArgumentParser
import Foundation
import NewsstandKit

/// `newsstand sync add|list|remove|now`: the servers places are kept in step with.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Keep your places in step with a KOReader sync server (kosync) or calibre's content server.",
        subcommands: [SyncAdd.self, SyncList.self, SyncRemove.self, SyncNow.self],
        defaultSubcommand: SyncList.self)
}

struct SyncAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a sync server: a kosync account is signed in to (or signed up) first; the password goes to the keyring or a file only you can read.")

    @Argument(help: "A one-word name for the server, e.g. kobo.")
    var name: String

    @Argument(help: "The server's address (http or https), e.g. https://sync.koreader.rocks.")
    var url: String

    @Option(help: "kosync (KOReader sync, also Komga, Kavita, Booklore) or calibre.")
    var kind: String = "kosync"

    @Option(help: "The user name on the server.")
    var user: String?

    @Flag(help: "Read the password from standard input (its first line).")
    var passwordStdin = false

    @Flag(help: "Name books by the MD5 of their file name (KOReader's \"filename\" setting) instead of their contents.")
    var byFileName = false

    func run() throws {
        guard let kind = SyncTarget.Kind(rawValue: kind) else { throw ValidationError("--kind is kosync or calibre") }
        guard let target = URL(string: url) else { throw ValidationError("'\(url)' is not a URL") }
        let password = try passwordStdin ? Login.firstLineOfStandardInput() : nil
        let library = try Context.writableLibrary()
        try library.sync.add(name: name, url: target, kind: kind, user: user, password: password,
                             identity: byFileName ? .filename : .binary)
        print("Added \(name) (\(kind.rawValue), \(target.absoluteString)); places are synced on opening and leaving an issue and by `newsstand sync now`.")
    }
}

struct SyncList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the sync servers and how each last went.")

    func run() throws {
        let library = try Context.library()
        let targets = try library.sync.targets()
        guard !targets.isEmpty else { print("No sync servers; add one with `newsstand sync add NAME URL --user U --password-stdin`."); return }
        for target in targets {
            let state = target.refusedAt != nil ? "password refused"
                : target.lastError.map { "waiting: \($0)" } ?? target.lastSyncedAt.map { "synced \($0.formatted(.iso8601))" } ?? "not synced yet"
            print("\(target.name)\t\(target.kind.rawValue)\t\(target.url.absoluteString)\t\(target.user ?? "-")\t\(state)")
        }
        let waiting = try library.store.pendingPlaceCount()
        if waiting > 0 { print("\(waiting) place\(waiting == 1 ? "" : "s") waiting to be sent") }
    }
}

struct SyncRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Forget a sync server and its password.")

    @Argument(help: "The server's name (see `newsstand sync list`).")
    var name: String

    func run() throws {
        try Context.writableLibrary().sync.remove(name: name)
        print("Removed \(name).")
    }
}

struct SyncNow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "now", abstract: "Sync every place with every server now.")

    func run() throws {
        let report = try Context.writableLibrary().sync.sync()
        print("Sent \(report.sent), took \(report.received), offered \(report.offered); \(report.waiting) waiting"
              + (report.unnamed > 0 ? "; \(report.unnamed) without a file to name" : "") + ".")
        for problem in report.problems { printProblem(problem) }
    }
}
