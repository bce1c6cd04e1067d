import ArgumentParser
import Foundation
import Imaging
import IssueArchive
import NewsstandKit
import Shelf

struct Read: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "read", abstract: "Open an issue, or any EPUB, CBZ, PDF or zip file, in the reader; --plain prints its text.")

    @Argument(help: "The issue's name, or the path of an EPUB, CBZ, PDF or zip file (it joins \"My files\", and its place is kept).")
    var issue: String

    @Flag(help: "Print the text in reading order to standard output (a PDF's pages reflowed, page by page).")
    var plain = false

    @Option(help: "The password of an encrypted PDF issue (kept in memory only, never stored).")
    var password: String?

    @OptionGroup var screen: ScreenOptions

    func run() throws {
        let library = try Context.libraryNoticingResources()
        let target = try Self.issue(issue, in: library)
        guard target.status == .available else { throw LibraryError.notDownloaded(target.name) }
        if let password { DocumentPasswords.shared.set(password, forDocumentsIn: library.downloads.contentDirectory(for: target)) }
        if plain {
            do {
                print(try PlainText.render(directory: library.downloads.contentDirectory(for: target)), terminator: "")
            } catch let error as ArchiveError where error.kind == .encrypted {
                throw CommandFailure("cannot read \(target.name): \(error) (give it with --password)")
            } catch { throw CommandFailure("cannot read \(target.name): \(error)") }
            // Recording that it was opened is a nicety: a full disk must not make reading fail.
            if library.store.diskFull == nil { try? library.store.markOpened(target, at: library.clock.now()) }
            return
        }
        try ShelfLauncher.run(screen, openIssue: target.name)
    }

    /// An issue by name, or a file of a format the reader reads, taken into the library.
    static func issue(_ text: String, in library: Library) throws -> Issue {
        let file = URL(fileURLWithPath: text).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard Library.localIssueExtensions.contains(file.pathExtension.lowercased()),
              FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return try library.issue(matching: text)
        }
        try Context.refuseChanges(to: library)
        do { return try library.subscriptions.issue(readingFile: file) } catch { throw CommandFailure("cannot read \(file.path): \(error)") }
    }
}
