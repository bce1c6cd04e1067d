import Foundation

/// Links inside a book: relative references resolved against the document that contains
/// them, always ending up as a path relative to the content root, or nowhere.
enum BookPath {
    /// Joins `href` (as written in `document`, percent-encoded, maybe with a fragment) onto the
    /// folder of `document`, or onto the root when it starts with `/`. Returns nil for
    /// external links and for anything leaving the root.
    static func resolve(_ href: String, from document: String) -> String? {
        let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        if let colon = trimmed.firstIndex(of: ":"),
           trimmed[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
           !trimmed[..<colon].contains("/") {
            return nil // a scheme: http:, mailto:, data:, ...
        }
        var reference = Substring(trimmed)
        var fragment = ""
        if let hash = reference.firstIndex(of: "#") {
            fragment = String(reference[hash...])
            reference = reference[..<hash]
        }
        if let query = reference.firstIndex(of: "?") { reference = reference[..<query] }
        let decoded = String(reference).removingPercentEncoding ?? String(reference)
        if decoded.isEmpty { return fragment.isEmpty ? nil : document + fragment }
        // `//host/…` names another server; `/media/x.jpg` starts at the container's root.
        if decoded.hasPrefix("//") { return nil }
        var parts = document.split(separator: "/").map(String.init)
        if !parts.isEmpty { parts.removeLast() }
        if decoded.hasPrefix("/") { parts = [] }
        guard let joined = normalize(parts + decoded.split(separator: "/", omittingEmptySubsequences: true).map(String.init)) else {
            return nil
        }
        return joined + fragment
    }

    /// A root-relative path without `.` and `..`, or nil if it climbs out of the root.
    static func normalize(_ parts: [String]) -> String? {
        var out: [String] = []
        for part in parts {
            switch part {
            case "", ".": continue
            case "..":
                if out.isEmpty { return nil }
                out.removeLast()
            default:
                if part.contains("\0") || part.contains("\\") { return nil }
                out.append(part)
            }
        }
        return out.isEmpty ? nil : out.joined(separator: "/")
    }

    static func withoutFragment(_ path: String) -> String {
        if let hash = path.firstIndex(of: "#") { return String(path[..<hash]) }
        return path
    }
}

extension IssueReader {
    /// Where a link written in `document` leads inside the book: a root-relative path with
    /// its `#fragment`, or nil for links to elsewhere (`https:`, `mailto:`, out of the root).
    public static func bookPath(ofLink href: String, from document: String) -> String? {
        BookPath.resolve(href, from: document)
    }
}
