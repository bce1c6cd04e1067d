import FileWrites
import Foundation

/// Packs an installed comic (its extracted folder, as `IssueInstaller` left it) back into one
/// zip, a `.cbz` another reader opens: every file of the folder, pictures stored as they are.
/// Written beside `file` and renamed into place, so a reader of `file` never sees half of it.
public enum FolderZip {
    @discardableResult
    public static func write(folder: URL, to file: URL) throws -> Int {
        let tree = try ContentTree(root: folder.standardizedFileURL)
        do {
            try AtomicFile.write(to: file, replacing: true, purpose: "packing") { staging in
                let archive = try ZipWriter(url: staging)
                for path in tree.files {
                    let source = tree.root.appendingPathComponent(path)
                    guard let data = try? Data(contentsOf: source) else { throw ArchiveError.io("read", source.path, errno: errno == 0 ? EIO : errno) }
                    try archive.add(path, data, compressed: !MediaType.isImage(path))
                }
                try archive.finish()
            }
        } catch let error as FileWriteError {
            throw ArchiveError.io(error.operation, error.path, errno: error.errno)
        }
        return tree.files.count
    }
}
