import Foundation
import Synchronization
import IssueArchive
import NewsstandKit

/// The one way a request reaches a file: an issue's id, looked up in the library, gives the
/// file. No part of a request's path is ever joined to a folder: a path holds a number or
/// is refused before this is asked. Only installed content is served (`status ==
/// .available`: the agent writes into `.part` files elsewhere and renames a whole install
/// into place), and the file found must be a plain file inside the issues folder (no
/// symlink leads out). EPUB and CBZ issues are installed as their extracted folders, so
/// they are packed once per install into the server's own cache, whole before they are named.
public struct ServedFiles: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case epub, cbz, pdf

        public var mediaType: String {
            switch self {
            case .epub: "application/epub+zip"
            case .cbz: "application/vnd.comicbook+zip"
            case .pdf: "application/pdf"
            }
        }
    }

    /// An issue's file as a device gets it.
    public struct File: Sendable {
        public var url: URL
        public var kind: Kind
    }

    let library: Library
    let formats: IssueFormats
    /// The packed copies of EPUB and CBZ issues (`cache/served`).
    let packedDirectory: URL
    private let kinds = InstallMemo<Kind>()

    public init(library: Library, formats: IssueFormats = .shared) {
        self.library = library
        self.formats = formats
        packedDirectory = library.paths.cache.appendingPathComponent("served", isDirectory: true)
    }

    /// What kind of file the installed issue is served as; nil when it has none (not
    /// installed, or a kind no device takes). Remembered per install.
    public func kind(of issue: Issue) -> Kind? {
        guard issue.status == .available, issue.id != nil else { return nil }
        return kinds.value(for: issue) {
            (try? ContentTree(root: library.paths.contentDirectory(for: issue))).flatMap { tree -> Kind? in
                Kind(rawValue: formats.reader(for: tree).format.rawValue)
            }
        }
    }

    /// What kind of file issue `id` is served as; nil when it is not installed or has none.
    public func kind(issueID id: Int64) throws -> Kind? {
        try library.store.issue(id: id).flatMap(kind(of:))
    }

    /// The file of issue `id` as `kind`, ready to send; nil when the library holds no such file.
    public func file(issueID id: Int64, kind wanted: Kind) throws -> File? {
        guard let issue = try library.store.issue(id: id), kind(of: issue) == wanted else { return nil }
        let directory = library.paths.contentDirectory(for: issue)
        let url: URL
        switch wanted {
        case .pdf:
            guard let file = pdfFile(in: directory) else { return nil }
            url = file
        case .epub, .cbz:
            url = packedURL(of: issue, id: id, kind: wanted)
            if !Self.isPlainFile(url) {
                try FileManager.default.createDirectory(at: packedDirectory, withIntermediateDirectories: true)
                removeOlderCopies(of: id)
                if wanted == .epub { try EPUBExport.write(folder: directory, to: url, replacing: true, formats: formats) }
                else { try FolderZip.write(folder: directory, to: url) }
            }
        }
        guard Self.isPlainFile(url), Self.isInside(url, library.paths.cache) else { return nil }
        return File(url: url, kind: wanted)
    }

    /// The file a device was served for the issue, if it is there already: a PDF's own
    /// file, an EPUB's or CBZ's packed copy once one was asked for (never packed here).
    func servedFile(of issue: Issue) -> URL? {
        guard let id = issue.id, let kind = kind(of: issue) else { return nil }
        let url: URL
        switch kind {
        case .pdf:
            guard let file = pdfFile(in: library.paths.contentDirectory(for: issue)) else { return nil }
            url = file
        case .epub, .cbz:
            url = packedURL(of: issue, id: id, kind: kind)
        }
        return Self.isPlainFile(url) && Self.isInside(url, library.paths.cache) ? url : nil
    }

    /// A PDF issue's one file.
    private func pdfFile(in directory: URL) -> URL? {
        guard let tree = try? ContentTree(root: directory), case .singleFile(let name) = formats.reader(for: tree).packaging else { return nil }
        return directory.appendingPathComponent(name)
    }

    /// Where an EPUB's or CBZ's packed copy of this install lies.
    private func packedURL(of issue: Issue, id: Int64, kind: Kind) -> URL {
        packedDirectory.appendingPathComponent("\(id)-\(Int((issue.downloadedAt ?? issue.date).timeIntervalSince1970)).\(kind.rawValue)")
    }

    /// The picture of an issue's cover: the fetched one in the cover cache, else the picture its
    /// installed content names as its cover. Never a file elsewhere (a `file:` cover a feed names
    /// is not served), and only a picture by its first bytes.
    public func cover(issueID id: Int64) throws -> URL? {
        try library.store.issue(id: id).flatMap(cover(of:))
    }

    /// `cover(issueID:)` of an issue already read (a catalog's 50 entries read the library once).
    func cover(of issue: Issue) -> URL? {
        var candidates: [URL] = []
        if let cover = library.covers.cover(of: issue), cover.page == nil { candidates.append(cover.file) }
        if issue.status == .available, let inside = issue.contentCover, PagePath(inside) == nil {
            candidates.append(library.paths.contentDirectory(for: issue).appendingPathComponent(inside))
        }
        return candidates.first { Self.isPlainFile($0) && Self.isInside($0, library.paths.cache) && Self.imageType(of: $0) != nil }
    }

    /// The media type of a picture file from its first bytes (covers are cached under names without extensions).
    public static func imageType(of file: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 12)) ?? Data())
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if head.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if head.count >= 12, head[8..<12].elementsEqual("WEBP".utf8) { return "image/webp" }
        return nil
    }

    private func removeOlderCopies(of id: Int64) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packedDirectory.path)) ?? []
        for name in names where name.hasPrefix("\(id)-") {
            try? FileManager.default.removeItem(at: packedDirectory.appendingPathComponent(name))
        }
    }

    /// A regular file, not a symlink to one.
    static func isPlainFile(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether the file, every symlink on its way resolved, is inside `folder`.
    static func isInside(_ url: URL, _ folder: URL) -> Bool {
        guard let file = realpath(url.path, nil), let root = realpath(folder.path, nil) else { return false }
        defer { free(file); free(root) }
        return String(cString: file).hasPrefix(String(cString: root) + "/")
    }
}

/// What is known of each install of an issue (its kind of file, its pages), so a page of 50
/// entries lists or opens no issue twice. Keyed by the issue's id and when it was installed.
final class InstallMemo<Value: Sendable>: Sendable {
    private let known = Mutex<[String: Value?]>([:])

    static func key(_ issue: Issue) -> String { "\(issue.id ?? 0)-\(issue.downloadedAt?.timeIntervalSince1970 ?? 0)" }

    /// The value remembered for the install, or `make()`'s, remembered.
    func value(for issue: Issue, _ make: () -> Value?) -> Value? {
        let key = Self.key(issue)
        if let known = known.withLock({ $0[key] }) { return known }
        let value = make()
        known.withLock { $0[key] = value }
        return value
    }
}
