import Foundation

/// The files of an extracted issue as relative paths, without the debris archivers leave:
/// `__MACOSX/`, AppleDouble `._name` files, hidden files and folders.
public struct ContentTree {
    public let root: URL
    /// Relative paths with `/` separators, in natural order.
    public let files: [String]
    private let exact: Set<String>
    private let lookup: [String: String]

    public init(root: URL) throws {
        self.root = root
        guard FileSystem.isDirectory(root) else {
            throw ArchiveError(.invalidContent, "'\(root.path)' is not a folder of issue content")
        }
        var found: [String] = []
        ContentTree.walk(root, prefix: "", depth: 0, into: &found)
        files = NaturalOrder.sorted(found)
        exact = Set(found)
        var lookup: [String: String] = [:]
        for file in files { lookup[file.lowercased()] = lookup[file.lowercased()] ?? file }
        self.lookup = lookup
    }

    static func isIgnored(_ component: String) -> Bool {
        component.hasPrefix(".") || component == "__MACOSX" || component == "Thumbs.db" || component == "desktop.ini"
    }

    private static func walk(_ directory: URL, prefix: String, depth: Int, into found: inout [String]) {
        guard depth < 64, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where !isIgnored(name) {
            let url = directory.appendingPathComponent(name)
            var info = stat()
            guard lstat(url.path, &info) == 0 else { continue }
            let relative = prefix.isEmpty ? name : prefix + "/" + name
            switch info.st_mode & S_IFMT {
            case S_IFDIR: walk(url, prefix: relative, depth: depth + 1, into: &found)
            case S_IFREG: found.append(relative)
            default: continue // links and devices are not content
            }
        }
    }

    public func contains(_ path: String) -> Bool { lookup[path.lowercased()] != nil }

    /// The path as it exists on disk: exact, else the only case-insensitive match
    /// (books written on case-insensitive file systems often get the case of links wrong).
    func existing(_ path: String) -> String? {
        if exact.contains(path) { return path }
        return lookup[path.lowercased()]
    }

    /// The first `limit` bytes of a file of the issue.
    public func data(_ path: String, limit: Int = 16 << 20) -> Data? {
        let url = root.appendingPathComponent(path)
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: limit)
    }
}

/// Media types by file extension, for the files of an issue.
public enum MediaType {
    private static let byExtension: [String: String] = [
        "xhtml": "application/xhtml+xml", "xht": "application/xhtml+xml", "html": "text/html", "htm": "text/html",
        "md": "text/markdown", "markdown": "text/markdown", "txt": "text/plain", "text": "text/plain",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "jpe": "image/jpeg", "png": "image/png", "gif": "image/gif",
        "webp": "image/webp", "bmp": "image/bmp", "svg": "image/svg+xml", "avif": "image/avif", "jxl": "image/jxl",
        "tif": "image/tiff", "tiff": "image/tiff",
        "css": "text/css", "xml": "application/xml", "ncx": "application/x-dtbncx+xml", "opf": "application/oebps-package+xml",
        "json": "application/json", "pdf": "application/pdf", "ttf": "font/ttf", "otf": "font/otf", "woff": "font/woff",
        "woff2": "font/woff2", "js": "text/javascript", "mp3": "audio/mpeg", "mp4": "video/mp4", "smil": "application/smil+xml",
    ]

    public static func of(_ path: String) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        return byExtension[ext] ?? "application/octet-stream"
    }

    public static func isImage(_ path: String) -> Bool { of(path).hasPrefix("image/") }

    public static func isDocument(_ type: String) -> Bool {
        ["application/xhtml+xml", "text/html", "text/markdown", "text/plain"].contains(type)
    }
}
