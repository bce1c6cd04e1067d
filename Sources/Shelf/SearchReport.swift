import Foundation
import NewsstandKit
import TextLayout

/// What `newsstand search` prints: results by issue, each with its short name, its title
/// and date, and each part that matched with where it is and a snippet, the matched words
/// marked. Every stranger's string goes through `Sanitizer` first.
public enum SearchReport {
    /// How matched words are marked in text: bold reverse video on a terminal, brackets in a pipe.
    public enum Marks: Sendable {
        case terminal, brackets

        var around: (String, String) {
            switch self {
            case .terminal: return ("\u{1B}[1;7m", "\u{1B}[0m")
            case .brackets: return ("[", "]")
            }
        }
    }

    /// Where a part is in its issue, in a reader's words.
    public static func place(of part: SearchablePart) -> String {
        switch part.kind {
        case .about: return "title, authors, summary"
        case .page: return part.label.map { "page \(Sanitizer.clean($0))" } ?? "page \((part.page ?? 0) + 1)"
        case .text:
            if let label = part.label.map({ Sanitizer.clean($0) }), !label.isEmpty { return "“\(label)”" }
            return "part \(part.position + 1)"
        case .highlight, .note:
            // Your own words or marks, said first: "note, “Contents”", "highlight, page 3".
            let label = part.label.map { Sanitizer.clean($0) }.flatMap { $0.isEmpty ? nil : "“\($0)”" }
            return part.kind.rawValue + ", " + (label ?? part.page.map { "page \($0 + 1)" } ?? "part \(part.position + 1)")
        }
    }

    /// The snippet's text, cleaned, and each match as (start, length) in Unicode scalars.
    public static func cleaned(_ snippet: SearchSnippet) -> (text: String, marks: [(start: Int, length: Int)]) {
        var text = ""
        var marks: [(Int, Int)] = []
        var offset = 0
        for piece in snippet.pieces {
            let clean = Sanitizer.clean(piece.text)
            let length = clean.unicodeScalars.count
            if piece.matched, length > 0 { marks.append((offset, length)) }
            text += clean
            offset += length
        }
        return (text, marks)
    }

    static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }

    public static func text(_ results: SearchResults, marks: Marks) -> String {
        guard !results.groups.isEmpty else { return "nothing found\(pendingNote(results))\n" }
        let (open, close) = marks.around
        var out = ""
        for group in results.groups {
            let name = group.shortName ?? Sanitizer.clean(group.issue.name)
            var heading = "\(name)  \(Sanitizer.clean(group.issue.shownTitle))"
            if let publication = group.publication { heading += " · \(Sanitizer.clean(publication))" }
            heading += " · \(day(group.issue.date))"
            if group.mustDownloadAgain { heading += "  (evicted: download it again to read it)" }
            out += heading + "\n"
            for hit in group.hits {
                let snippet = hit.snippet.pieces.map { piece in
                    piece.matched ? open + Sanitizer.clean(piece.text) + close : Sanitizer.clean(piece.text)
                }.joined()
                out += "  \(place(of: hit.part)): \(snippet)\n"
            }
        }
        return out + (results.pending > 0 ? "\(pendingNote(results).dropFirst(2))\n" : "")
    }

    static func pendingNote(_ results: SearchResults) -> String {
        results.pending > 0 ? "; \(results.pending) issue(s) not indexed yet (the agent indexes them; `newsstand search --rebuild` now)" : ""
    }

    struct JSONMatch: Encodable {
        var kind: String
        var place: String
        var resource: String?
        var page: Int?
        var position: Int
        var snippet: String
        /// Each matched word in `snippet`: [start, length] in Unicode scalars.
        var marks: [[Int]]
    }

    struct JSONIssue: Encodable {
        var name: String
        var shortName: String?
        var title: String
        var publication: String?
        var date: Date
        var downloaded: Bool
        var mustDownloadAgain: Bool
        var matches: [JSONMatch]
    }

    struct JSONResults: Encodable {
        var issues: [JSONIssue]
        var notIndexedYet: Int
    }

    public static func json(_ results: SearchResults) throws -> String {
        let issues = results.groups.map { group in
            JSONIssue(name: group.issue.name, shortName: group.shortName, title: Sanitizer.clean(group.issue.shownTitle),
                      publication: group.publication.map { Sanitizer.clean($0) }, date: group.issue.date,
                      downloaded: group.issue.status == .available, mustDownloadAgain: group.mustDownloadAgain,
                      matches: group.hits.map { hit in
                          let (text, marks) = cleaned(hit.snippet)
                          return JSONMatch(kind: hit.part.kind.rawValue, place: place(of: hit.part), resource: hit.part.resource,
                                           page: hit.part.page, position: hit.part.position, snippet: text,
                                           marks: marks.map { [$0.start, $0.length] })
                      })
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(JSONResults(issues: issues, notIndexedYet: results.pending)), as: UTF8.self)
    }
}
