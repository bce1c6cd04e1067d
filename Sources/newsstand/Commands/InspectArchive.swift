import ArgumentParser
import Foundation
import IssueArchive
import PDF
import Shelf

/// `newsstand inspect archive FILE [--json|--text]`: what an issue archive holds, read safely
/// into a temporary folder that is removed afterwards.
struct InspectArchive: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Show an issue archive's format, metadata, contents and page or article count."
    )

    enum Output: String, EnumerableFlag {
        case json, text
        static func help(for value: Output) -> ArgumentHelp? {
            value == .json ? "Print the content as JSON, for machines." : "Print the readable text in reading order."
        }
    }

    @Argument(help: "An EPUB, CBZ, zip or PDF file.")
    var file: String

    @Flag(exclusivity: .exclusive)
    var output: Output?

    func run() throws {
        let archive = URL(fileURLWithPath: file)
        if let download = try? DownloadedFile(url: archive), PDFIssueFormat(worker: .shared).recognizes(download) {
            return try inspectPDF(archive)
        }
        let content: IssueContent
        let root: URL
        do { (content, root) = try IssueReader.read(archive: archive) } catch { throw CommandFailure("\(file): \(error)") }
        defer { try? FileManager.default.removeItem(at: root) }
        switch output {
        case .json?: print(try ArchiveReport.json(content))
        case .text?: print(try PlainText.render(directory: root), terminator: "")
        case nil: print(ArchiveReport.summary(content))
        }
    }
}

extension InspectArchive {
    /// A PDF is read through the contained worker, never in this process.
    private func inspectPDF(_ document: URL) throws {
        do {
            let info = try PDFWorker.shared.info(of: document)
            switch output {
            case .json?: print(try PDFReport.json(info))
            case .text?: print(try Self.plainText(of: document), terminator: "")
            case nil: print(PDFReport.summary(info))
            }
        } catch let error as PDFError {
            throw CommandFailure("\(file): \(error)")
        }
    }

    /// What `read --plain` prints for the PDF, read the same way: as an issue of that one file
    /// (linked, or copied, into a folder of its own under its own name).
    private static func plainText(of document: URL) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = document.lastPathComponent
        let inside = folder.appendingPathComponent(!name.hasPrefix(".") && document.pathExtension.lowercased() == "pdf" ? name : PDFIssueFormat.fileName)
        do { try FileManager.default.linkItem(at: document, to: inside) } catch { try FileManager.default.copyItem(at: document, to: inside) }
        return try PlainText.render(directory: folder)
    }
}
