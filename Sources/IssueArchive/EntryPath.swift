/// An entry name turned into path components that can only ever name something inside the
/// destination, or the reason it cannot be.
enum EntryPath {
    /// A directory entry that names the root itself (`./`) yields no components.
    static func components(of name: String, isDirectory: Bool = false, maxDepth: Int) throws -> [String] {
        if name.isEmpty { throw ArchiveError.unsafePath(name, "has an empty name") }
        if name.unicodeScalars.contains("\0") { throw ArchiveError.unsafePath(name, "contains a NUL byte") }
        if name.contains("\\") { throw ArchiveError.unsafePath(name, "contains a backslash") }
        if name.hasPrefix("/") { throw ArchiveError.unsafePath(name, "has an absolute path") }
        let scalars = Array(name.unicodeScalars.prefix(2))
        if scalars.count == 2, scalars[1] == ":", scalars[0].isASCII, scalars[0].properties.isAlphabetic {
            throw ArchiveError.unsafePath(name, "starts with a drive letter")
        }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw ArchiveError.unsafePath(name, "contains a control character")
        }
        var parts: [String] = []
        for part in name.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { throw ArchiveError.unsafePath(name, "escapes the destination") }
            if part.utf8.count > 255 { throw ArchiveError.unsafePath(name, "has a name longer than 255 bytes") }
            parts.append(String(part))
        }
        if parts.isEmpty && !isDirectory { throw ArchiveError.unsafePath(name, "has an empty name") }
        if parts.count > maxDepth { throw ArchiveError.unsafePath(name, "is nested more than \(maxDepth) folders deep") }
        return parts
    }
}
