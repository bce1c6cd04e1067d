import Foundation
import IssueArchive

/// A PDF format standing in for the real one: a file beginning `%PDF-` is one issue file,
/// whose title is the text after the header's first line.
struct StandInPDF: IssueFormatReader {
    var format: IssueFormat { IssueFormat(rawValue: "pdf") }
    var packaging: IssuePackaging { .singleFile(name: "issue.pdf") }
    func recognizes(_ download: DownloadedFile) -> Bool { download.starts(with: "%PDF-") }
    func recognizes(_ files: ContentTree) -> Bool { files.files == ["issue.pdf"] }
    func open(_ files: ContentTree) throws -> IssueContent {
        let text = String(decoding: files.data("issue.pdf") ?? Data(), as: UTF8.self)
        let title = text.split(separator: "\n").dropFirst().first.map(String.init)
        return IssueContent(format: format, metadata: IssueMetadata(title: title, creators: ["A. Printer"]))
    }
}
