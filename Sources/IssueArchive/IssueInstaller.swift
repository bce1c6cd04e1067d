import Foundation

/// Puts an issue's content in place in one step: a reader sees the old content or the new,
/// never a mixture, and a failed install leaves the old content untouched.
public enum IssueInstaller {
    /// Extract + open + verify into a temp dir beside `contentDirectory`, then atomically swap it
    /// into place (replacing an old one). Returns the content.
    public static func install(archive: URL, into contentDirectory: URL,
                               limits: ExtractionLimits = .standard) throws -> IssueContent {
        let target = contentDirectory.standardizedFileURL
        let staging = try FileSystem.unusedPath(beside: target, purpose: "installing")
        do {
            try SafeExtractor.extract(archive: archive, to: staging, limits: limits)
            let content = try IssueReader.open(directory: staging)
            try swapIntoPlace(staging, target)
            return content
        } catch {
            FileSystem.removeTree(staging)
            throw error
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
