import FileWrites
import Foundation

/// Packs an installed EPUB (its extracted folder, as `IssueInstaller` left it) back into one
/// `.epub` file for another reader: `mimetype` first and stored, as the OCF container rules
/// require, then every other file of the folder. The file is written beside its destination,
/// read back and opened as an EPUB before it is renamed into place, so a reader of the
/// destination never sees half a book, and an existing file is replaced only when asked.
public enum EPUBExport {
    public static let mimetype = "application/epub+zip"

    /// Writes `folder` as an EPUB at `file`; returns how many files it holds.
    @discardableResult
    public static func write(folder: URL, to file: URL, replacing: Bool, formats: IssueFormats = .shared) throws -> Int {
        let file = file.standardizedFileURL
        if !replacing, FileSystem.exists(file) { throw exists(file) }
        let tree = try ContentTree(root: folder.standardizedFileURL)
        do {
            // Checked above, but another program may have made it since: never replaced unasked.
            try AtomicFile.write(to: file, replacing: replacing, purpose: "exporting") { staging in
                try pack(tree, into: staging)
                try check(staging, holds: tree, for: file, formats: formats)
            }
        } catch let error as FileWriteError {
            throw error.kind == .destinationExists ? exists(file) : ArchiveError.io(error.operation, error.path, errno: error.errno)
        }
        return tree.files.filter { $0 != "mimetype" }.count + 1
    }

    private static func exists(_ file: URL) -> ArchiveError {
        ArchiveError(.destinationExists, "'\(file.path)' already exists (give --force to replace it)")
    }

    private static func pack(_ tree: ContentTree, into url: URL) throws {
        let archive = try ZipWriter(url: url)
        // The container's own signature, whatever the folder holds under that name.
        try archive.add("mimetype", Data(mimetype.utf8), compressed: false)
        for path in tree.files where path != "mimetype" {
            let source = tree.root.appendingPathComponent(path)
            let data: Data
            do { data = try Data(contentsOf: source) } catch {
                throw ArchiveError.io("read", source.path, errno: errno == 0 ? EIO : errno)
            }
            // Pictures are compressed already; text is not.
            let compressed = !["png", "jpg", "jpeg", "gif", "webp"].contains((path as NSString).pathExtension.lowercased())
            try archive.add(path, data, compressed: compressed)
        }
        try archive.finish()
    }

    /// Reads the written file back as a reader would: its zip whole and safe, `mimetype`
    /// first and stored, every file of the folder in it, and the book opening as an EPUB.
    private static func check(_ written: URL, holds tree: ContentTree, for file: URL, formats: IssueFormats) throws {
        let (_, entries) = try SafeExtractor.plan(archive: written, limits: .standard)
        guard let first = entries.first?.record, first.name == "mimetype", first.method == 0 else {
            throw ArchiveError(.inconsistent, "the EPUB written for '\(file.path)' does not begin with a stored mimetype")
        }
        let names = Set(entries.map(\.record.name))
        if let missing = tree.files.first(where: { !names.contains($0) }) {
            throw ArchiveError(.inconsistent, "the EPUB written for '\(file.path)' lacks '\(ArchiveError.printable(missing))'")
        }
        let opened = try FileSystem.makeStagingDirectory(beside: written, purpose: "checking")
        defer { FileSystem.removeTree(opened) }
        _ = try SafeExtractor.extractContents(of: written, into: opened, limits: .standard, storage: SystemStorage())
        let content = try formats.open(directory: opened)
        guard content.format == .epub else {
            throw ArchiveError(.wrongFormat, "the folder exported is a \(content.format) issue, not an EPUB")
        }
    }
}
