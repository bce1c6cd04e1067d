import ArgumentParser
import Foundation
import IssueArchive
import NewsstandKit

/// `export ISSUE FILE.epub`: an edition, or any EPUB issue, as one EPUB file another reader
/// opens. Both are installed as an EPUB's extracted folder, so exporting packs that folder
/// back (see `EPUBExport`); other kinds of issue are not converted.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write an edition or an EPUB issue as an EPUB file, pictures and cover included.",
        discussion: "The issue must be downloaded (for an edition: built, with `newsstand download ISSUE --wait`).")

    @Argument(help: "The issue's name.")
    var issue: String

    @Argument(help: "The EPUB file to write.")
    var file: String

    @Flag(help: "Replace FILE if it exists.")
    var force = false

    func run() throws {
        let library = try Context.library()
        let target = try library.issue(matching: issue)
        guard target.status == .available else { throw LibraryError.notDownloaded(target.name) }
        let folder = library.downloads.contentDirectory(for: target)
        let destination = URL(fileURLWithPath: file)
        do {
            let format = IssueFormats.shared.reader(for: try ContentTree(root: folder)).format
            guard format == .epub else {
                throw CommandFailure("\(target.name) is a \(format.description.uppercased()) issue: only editions and EPUB issues export to EPUB")
            }
            let files = try EPUBExport.write(folder: folder, to: destination, replacing: force)
            print("Exported \(target.name) to \(destination.path) (\(files) files).")
        } catch let error as ArchiveError {
            throw CommandFailure("cannot export \(target.name): \(error)")
        }
    }
}
