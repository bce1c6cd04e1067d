import Foundation
import Synchronization

/// Passwords the user gave for encrypted documents in this process, by file: every request
/// for that document (its pages drawn, its text read, the issue opened) uses it. Kept in
/// memory only; never written anywhere.
public final class DocumentPasswords: Sendable {
    public static let shared = DocumentPasswords()

    // The reader sets one while renderers read them on their threads.
    private let passwords = Mutex<[String: String]>([:])

    public init() {}

    /// Uses `password` for `document` from now on (nil forgets it).
    public func set(_ password: String?, for document: URL) {
        passwords.withLock { $0[Self.key(document)] = password }
    }

    public func password(for document: URL) -> String? {
        passwords.withLock { $0[Self.key(document)] }
    }

    /// Uses `password` for every PDF inside `folder` (an issue's content: the user gives
    /// one password for the issue); nil forgets it. The documents it applied to.
    @discardableResult
    public func set(_ password: String?, forDocumentsIn folder: URL) -> [URL] {
        let documents = Self.documents(in: folder)
        for document in documents { set(password, for: document) }
        return documents
    }

    /// The PDFs inside a folder, at any depth (hidden files left out).
    public static func documents(in folder: URL) -> [URL] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil,
                                                        options: [.skipsHiddenFiles, .skipsPackageDescendants]) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension.lowercased() == "pdf" }
    }

    private static func key(_ document: URL) -> String { document.standardizedFileURL.resolvingSymlinksInPath().path }
}
