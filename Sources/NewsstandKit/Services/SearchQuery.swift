import Foundation

/// What a person types to search, turned into an FTS5 query that is never a syntax error:
/// words (all of them must be there), prefixes (`harbo*`), phrases (`"equinox tide"`) and
/// words to leave out (`-word`); `in:tide` (or `in:"the tide"`) keeps to one publication's
/// issues. Every word goes to FTS5 quoted, so its operators and punctuation are only ever text.
public struct SearchQuery: Equatable, Sendable {
    public struct Term: Equatable, Sendable {
        public var text: String
        public var prefix: Bool
    }

    public var included: [Term]
    public var excluded: [Term]
    /// `in:…`: the publication whose issues alone are searched (its title, or part of it).
    public var publication: String?

    /// Why a search cannot be made: one sentence for the user.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public init(_ typed: String) throws(Problem) {
        var included: [Term] = [], excluded: [Term] = []
        var publication: String?
        var rest = Substring(typed)
        while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            rest = rest[start...]
            if rest.prefix(3).lowercased() == "in:" {
                rest = rest.dropFirst(3)
                let quoted = rest.first == "\""
                if quoted { rest = rest.dropFirst() }
                let end = rest.firstIndex(where: { quoted ? $0 == "\"" : $0.isWhitespace }) ?? rest.endIndex
                let name = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
                if !name.isEmpty { publication = name }
                continue
            }
            var leftOut = false
            if rest.first == "-" || rest.first == "+" {
                leftOut = rest.first == "-"
                rest = rest.dropFirst()
            }
            var text: Substring
            var prefix = false
            if rest.first == "\"" {
                rest = rest.dropFirst()
                let end = rest.firstIndex(of: "\"") ?? rest.endIndex
                text = rest[..<end]
                rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
                if rest.first == "*" { prefix = true; rest = rest.drop(while: { $0 == "*" }) }
            } else {
                let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
                text = rest[..<end]
                rest = rest[end...]
                prefix = text.hasSuffix("*")
                text = Substring(text.reversed().drop(while: { $0 == "*" }).reversed())
            }
            // A term of only punctuation finds nothing (FTS5 reads no word in it): dropped.
            guard text.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
            let term = Term(text: String(text), prefix: prefix)
            if leftOut { excluded.append(term) } else { included.append(term) }
        }
        guard !included.isEmpty else {
            throw Problem(description: excluded.isEmpty ? "give a word to search for"
                          : "give a word to search for, not only words to leave out (-word)")
        }
        self.included = included
        self.excluded = excluded
        self.publication = publication
    }

    /// The FTS5 query: each term a quoted string (a `"` in it doubled), `*` after a prefix.
    public var match: String {
        func quoted(_ term: Term) -> String {
            "\"" + SearchText.indexable(term.text).replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (term.prefix ? " *" : "")
        }
        let found = included.map(quoted).joined(separator: " AND ")
        return excluded.reduce(found) { $0 + " NOT " + quoted($1) }
    }
}

/// Text as the index holds it. Chinese, Japanese and Thai are written without spaces
/// between words, which FTS5's unicode61 tokenizer needs: between two characters of those
/// scripts a zero-width space goes in, so each character is a word and a query's run of
/// them (spaced the same way) is a phrase of characters in a row. Control characters
/// become spaces (the snippets' marks are two of them).
public enum SearchText {
    static let separator: Character = "\u{200B}"

    public static func indexable(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousUnspaced = false
        for character in text {
            let unspaced = isUnspacedScript(character)
            if unspaced && previousUnspaced { out.append(separator) }
            previousUnspaced = unspaced
            if let scalar = character.unicodeScalars.first, scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
                out.append(scalar == "\n" ? "\n" : " ")
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// Text from the index as it was written: the separators out.
    public static func shown(_ text: String) -> String {
        text.contains(separator) ? text.replacingOccurrences(of: String(separator), with: "") : text
    }

    /// Han, kana, Thai, Lao, Khmer and Myanmar: scripts that put no space between words.
    static func isUnspacedScript(_ character: Character) -> Bool {
        guard let value = character.unicodeScalars.first?.value, value >= 0x0E00 else { return false }
        switch value {
        case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF,
             0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3134F:
            return true
        default:
            return false
        }
    }
}

/// A readable part of an issue, as the index keeps it: its details (`about`), an article or
/// chapter (`text`) or a document's page (`page`), with where it is in the issue, so a hit
/// can open the reader there; or one of the reader's highlights, found by its quote
/// (`highlight`) or its note (`note`).
public struct SearchablePart: Equatable, Sendable {
    public enum Kind: String, Sendable { case about, text, page, highlight, note }
    public var kind: Kind
    /// The resource's path in the reading order (`file.pdf#page=3` for a page).
    public var resource: String?
    /// A page, counted from 0.
    public var page: Int?
    /// Its index in the reading order.
    public var position: Int
    /// What the issue calls it (a chapter's title), when it says.
    public var label: String?
    /// The words weighed most: a part's heading, an issue's title.
    public var title: String
    public var text: String
    /// The highlight a `highlight` or `note` part is.
    public var highlight: Highlight?

    public init(kind: Kind, resource: String?, page: Int?, position: Int, label: String?, title: String, text: String,
                highlight: Highlight? = nil) {
        (self.kind, self.resource, self.page, self.position, self.label, self.title, self.text) = (kind, resource, page, position, label, title, text)
        self.highlight = highlight
    }
}

/// A snippet of a part around what matched, in pieces: plain text and the matched words.
public struct SearchSnippet: Equatable, Sendable {
    public struct Piece: Equatable, Sendable {
        public var text: String
        public var matched: Bool

        public init(text: String, matched: Bool) { (self.text, self.matched) = (text, matched) }
    }

    public var pieces: [Piece]

    /// A snippet as FTS5 gives it, each match between U+0002 and U+0003.
    init(marked: String) {
        var pieces: [Piece] = []
        var matched = false
        var current = ""
        for character in SearchText.shown(marked) {
            if character == "\u{2}" || character == "\u{3}" {
                if !current.isEmpty { pieces.append(Piece(text: current, matched: matched)) }
                current = ""
                matched = character == "\u{2}"
            } else {
                current.append(character == "\n" ? " " : character)
            }
        }
        if !current.isEmpty { pieces.append(Piece(text: current, matched: matched)) }
        self.pieces = pieces
    }

    public init(pieces: [Piece]) { self.pieces = pieces }
}

/// One part that matched, best first.
public struct SearchHit: Equatable, Sendable {
    /// The part's row in the index.
    var partID: Int64 = 0
    public var issueID: Int64
    public var part: SearchablePart
    /// bm25: lower is better.
    public var score: Double
    public var snippet: SearchSnippet
}

/// What a search found, by issue, in the order of each issue's best part.
public struct SearchResults: Sendable {
    public struct Group: Sendable {
        public var issue: Issue
        public var shortName: String?
        public var publication: String?
        /// Its parts that matched, best first.
        public var hits: [SearchHit]
        /// Its text was indexed, then evicted: to be downloaded again to be read. (Its
        /// highlights and notes outlive its content, so they do not say it was downloaded.)
        public var mustDownloadAgain: Bool { issue.status != .available && hits.contains { $0.part.kind == .text || $0.part.kind == .page } }
    }

    public var groups: [Group]
    /// Issues still waiting to be indexed when the search was made.
    public var pending: Int
}
