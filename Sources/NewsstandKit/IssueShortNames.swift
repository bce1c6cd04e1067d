import Foundation

/// Short names a person can type for an issue: the publication's title as a slug and the
/// issue's number in it, oldest first (`tidewater/4`, `wendle-valley-wire/12`), so a new
/// issue never renumbers the others. Stable ids (`edition:21:2026-11-28`, `file:///…`) stay
/// the names `--json` gives and every command still accepts.
public enum IssueShortNames {
    /// Lower-case letters and digits, runs of anything else one hyphen.
    public static func slug(_ title: String) -> String {
        var out = ""
        var pendingHyphen = false
        for character in title.lowercased() {
            if character.isLetter || character.isNumber {
                if pendingHyphen, !out.isEmpty { out.append("-") }
                pendingHyphen = false
                out.append(character)
            } else {
                pendingHyphen = true
            }
        }
        return out.isEmpty ? "publication" : out
    }

    /// Each issue's short name, by issue id. Two publications with the same slug are told
    /// apart by the later one's id (`courier-7/2`).
    public static func names(publications: [Publication], issues: [Issue]) -> [Int64: String] {
        var slugs: [Int64: String] = [:]
        var taken: Set<String> = []
        for publication in publications.sorted(by: { ($0.id ?? 0) < ($1.id ?? 0) }) {
            guard let id = publication.id else { continue }
            var slug = slug(publication.title)
            if !taken.insert(slug).inserted { slug += "-\(id)"; taken.insert(slug) }
            slugs[id] = slug
        }
        let oldestFirst = issues.sorted { ($0.date, $0.id ?? 0) < ($1.date, $1.id ?? 0) }
        var counts: [Int64: Int] = [:]
        var names: [Int64: String] = [:]
        for issue in oldestFirst {
            guard let id = issue.id, let publication = issue.publicationId, let slug = slugs[publication] else { continue }
            counts[publication, default: 0] += 1
            names[id] = "\(slug)/\(counts[publication]!)"
        }
        return names
    }
}

extension Library {
    /// Every issue's short name, by issue id.
    public func shortNames() throws -> [Int64: String] {
        try shortNames(of: try store.issues())
    }

    /// The short names of `issues`, by issue id, numbered among them: pass every issue of
    /// their publications (as `store.issues()` gives them). A publication unsubscribed from
    /// keeps its issues, so they keep their names too, and commands still take them.
    public func shortNames(of issues: [Issue]) throws -> [Int64: String] {
        IssueShortNames.names(publications: try store.publicationsIncludingUnsubscribed(), issues: issues)
    }

    /// The issue a short name (`slug/N`) names, if any.
    func issue(shortName text: String) throws -> Issue? {
        guard let slash = text.lastIndex(of: "/"), Int(text[text.index(after: slash)...]) != nil else { return nil }
        let wanted = text.lowercased()
        guard let id = try shortNames().first(where: { $0.value == wanted })?.key else { return nil }
        return try store.issue(id: id)
    }
}
