import Foundation

/// Puts an issue's content in place in one step: a reader sees the old content or the new,
/// never a mixture, and a failed install leaves the old content untouched.
public enum IssueInstaller {
    /// Installs a downloaded file of any format in `formats` into `contentDirectory` in one
    /// step (staged beside it, opened to verify it, then swapped into place, replacing old
    /// content): a format packaged as a zip (and a file no format
    /// recognises) is extracted safely and opened by what it holds; a format whose issue
    /// is one file has that file placed in the content directory under the format's name
    /// for it (hard-linked where the file system allows, else copied through `storage`).
    ///
    /// With `keepingOtherFiles`, regular files at the top of the old content directory that the
    /// download does not bring (a cover or other plain asset downloaded beside it) are
    /// hard-linked into the new content before the swap, so they survive it.
    ///
    /// Every byte goes through `storage`; when it runs out of room the error's `isOutOfSpace`
    /// is true, the staging directory is gone and the old content is as it was.
    public static func install(download: URL, into contentDirectory: URL, formats: IssueFormats = .shared,
                               limits: ExtractionLimits = .standard, keepingOtherFiles: Bool = false,
                               storage: Storage = SystemStorage()) throws -> IssueContent {
        let file = try DownloadedFile(url: download)
        guard let reader = formats.reader(for: file), case .singleFile(let name) = reader.packaging else {
            return try install(into: contentDirectory, keepingOtherFiles: keepingOtherFiles) { staging in
                try SafeExtractor.extract(archive: download, to: staging, limits: limits, storage: storage)
                return try formats.open(directory: staging)
            }
        }
        guard FileSystem.isPlainFileName(name) else {
            throw ArchiveError(.unsafePath, "the \(reader.format) format names its file '\(ArchiveError.printable(name))', "
                               + "which is not a plain file name")
        }
        return try install(into: contentDirectory, keepingOtherFiles: keepingOtherFiles) { staging in
            guard mkdir(staging.path, 0o755) == 0 else { throw ArchiveError.io("create", staging.path, errno: errno) }
            try FileSystem.place(download, at: staging.appendingPathComponent(name), storage: storage)
            do {
                return try reader.open(ContentTree(root: staging))
            } catch let error as ArchiveError where error.kind == .encrypted {
                // A document locked with a password (a PDF) is whole: it installs, and the
                // reader asks for the password when it is opened.
                return IssueContent(format: reader.format)
            }
        }
    }

    /// Bytes an install of `download` writes at most: a zip's unpacked size, else the
    /// file's own size (when it has to be copied rather than linked).
    public static func installedSize(of download: URL, formats: IssueFormats = .shared,
                                     limits: ExtractionLimits = .standard) throws -> Int64 {
        let file = try DownloadedFile(url: download)
        if let reader = formats.reader(for: file), case .singleFile = reader.packaging {
            var info = stat()
            guard stat(download.path, &info) == 0 else { throw ArchiveError.io("read", download.path, errno: errno) }
            return Int64(info.st_size)
        }
        return try unpackedSize(of: download, limits: limits)
    }

    /// Fills a fresh path beside `contentDirectory` with `fill` (which also opens, and so
    /// verifies, the issue), keeps other files if asked, then swaps it into place. On any
    /// failure the staging path is removed and the old content is as it was.
    private static func install(into contentDirectory: URL, keepingOtherFiles: Bool,
                                fill: (URL) throws -> IssueContent) throws -> IssueContent {
        let target = contentDirectory.standardizedFileURL
        let staging = try FileSystem.unusedPath(beside: target, purpose: "installing")
        do {
            let content = try fill(staging)
            // A comic that would never draw is refused here, with why, rather than installed.
            if content.format == .cbz { try PageCheck.requireOneReadablePage(of: content, in: staging) }
            if keepingOtherFiles { try carryOver(from: target, into: staging) }
            try swapIntoPlace(staging, target)
            return content
        } catch {
            FileSystem.removeTree(staging)
            throw error
        }
    }

    /// The bytes the archive's files take once extracted (from its central directory, after
    /// the same checks extraction makes): what an install needs free on the disk.
    private static func unpackedSize(of archive: URL, limits: ExtractionLimits = .standard) throws -> Int64 {
        let (_, planned) = try SafeExtractor.plan(archive: archive, limits: limits)
        return planned.reduce(0) { $0 + ($1.isDirectory ? 0 : Int64($1.record.uncompressedSize)) }
    }

    private static func carryOver(from old: URL, into staging: URL) throws {
        guard FileSystem.isDirectory(old),
              let names = try? FileManager.default.contentsOfDirectory(atPath: old.path) else { return }
        for name in names where !FileSystem.exists(staging.appendingPathComponent(name)) {
            let source = old.appendingPathComponent(name)
            var info = stat()
            guard lstat(source.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            guard link(source.path, staging.appendingPathComponent(name).path) == 0 else {
                throw ArchiveError.io("keep", name, errno: errno)
            }
        }
    }

    private static func swapIntoPlace(_ staging: URL, _ target: URL) throws {
        guard FileSystem.exists(target) else {
            try FileSystem.renameNoReplace(staging, to: target)
            return
        }
        if FileSystem.exchange(staging, target) {
            FileSystem.removeTree(staging) // now holds the old content
            return
        }
        // No atomic exchange here: move the old content aside first, so a crash between the
        // two renames leaves a leftover for `removeLeftovers`, never a half-written issue.
        let old = try FileSystem.unusedPath(beside: target, purpose: "replaced")
        guard rename(target.path, old.path) == 0 else {
            throw ArchiveError.io("move aside the old content of", target.path, errno: errno)
        }
        do {
            try FileSystem.renameNoReplace(staging, to: target)
        } catch {
            rename(old.path, target.path)
            throw error
        }
        FileSystem.removeTree(old)
    }

    /// Removes what an interrupted extraction or install left beside content directories
    /// (hidden `.NAME.extracting-*`, `.NAME.installing-*`, `.NAME.replaced-*` folders).
    /// Call it when nothing else is installing into `directory`, e.g. when the agent starts.
    @discardableResult
    public static func removeLeftovers(in directory: URL) -> [URL] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var removed: [URL] = []
        for name in names where name.hasPrefix(".") {
            let isLeftover = [".extracting-", ".installing-", ".replaced-"].contains { name.contains($0) }
            guard isLeftover else { continue }
            let url = directory.appendingPathComponent(name)
            FileSystem.removeTree(url)
            removed.append(url)
        }
        return removed
    }
}
