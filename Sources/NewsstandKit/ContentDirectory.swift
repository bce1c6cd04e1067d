import Foundation

extension Paths {
    /// The issue's content directory (inside the cache; it may not exist yet).
    public func contentDirectory(for issue: Issue) -> URL {
        issuesDirectory.appendingPathComponent(ContentDirectoryName.make(issueID: issue.id ?? 0, name: issue.name), isDirectory: true)
    }
}

/// Turns any issue name (slashes, `..`, NUL, emoji, 300 characters) into one safe
/// directory name. The row id makes it unique; the readable slug helps a person browsing
/// the cache.
enum ContentDirectoryName {
    static func make(issueID: Int64, name: String) -> String {
        var slug = ""
        for scalar in name.unicodeScalars {
            if slug.count >= 40 { break }
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) {
                slug.unicodeScalars.append(scalar)
            } else if scalar == "-" || scalar == "_" || scalar == "." || scalar == " " {
                if !slug.isEmpty, slug.last != "-" { slug.append("-") }
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? "issue-\(issueID)" : "\(issueID)-\(slug)"
    }
}
