import Foundation

/// Why a PDF or one of its pages could not be read, in words a user can act on.
public struct PDFError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    public enum Kind: String, Equatable, Sendable, Codable {
        /// The document is encrypted and no password was given.
        case needsPassword
        /// The password given does not open it.
        case wrongPassword
        /// Not a PDF, or one too damaged to open.
        case unreadable
        /// A page number the document does not have.
        case noSuchPage
        /// A page the document counts but cannot give (its page tree loops or is cut): the
        /// other pages can still be read.
        case unreadablePage
        /// The PDF library failed on this page (it crashed, or ran out of its memory limit).
        case crashed
        /// The PDF library took longer than its CPU or wall-clock limit.
        case tookTooLong
        /// The worker process could not be started or talked to.
        case workerUnavailable
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

extension PDFError {
    /// How a message names the PDF at `url`: its file name, or "the file" for an issue's
    /// `issue.pdf`, a name the library gave it, not the user (who named the issue or their
    /// own file, which the caller's message names).
    public static func naming(_ url: URL) -> String {
        url.lastPathComponent == PDFIssueFormat.fileName ? "the file" : url.lastPathComponent
    }
}
