import ArgumentParser
import NewsstandKit

/// `set PUBLICATION --editions … --full-text`: a publication's settings changed after
/// subscribing, without fetching its feed. Editions built, being built or opened stay as they are.
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change a publication's settings: how its articles make editions, full text.",
        discussion: "Editions not yet built or opened are made again under the new schedule; the others never change.")

    @Argument(help: "The publication's title, id or feed URL.")
    var publication: String

    @Option(help: ArgumentHelp(EditionsOption.help))
    var editions: String?

    @Flag(inversion: .prefixedNo, help: "Read each article from its web page when the feed gives only a summary.")
    var fullText: Bool?

    func validate() throws {
        guard editions != nil || fullText != nil else { throw ValidationError("say what to set: --editions SCHEDULE, --full-text or --no-full-text") }
    }

    func run() throws {
        let library = try Context.writableLibrary()
        let target = try library.store.publication(matching: publication)
        var changes: [String] = []
        if let schedule = try EditionsOption.schedule(editions) {
            let made = try library.subscriptions.setEditionSchedule(schedule, for: target)
            changes.append("editions \(schedule)" + (made.isEmpty ? "" : " (\(made.count) edition(s) not yet read made again)"))
        }
        if let fullText {
            try library.store.setFullText(fullText, for: target)
            changes.append("full text \(fullText ? "on" : "off")")
        }
        print("\(target.title): \(changes.joined(separator: ", ")).")
    }
}
