import Foundation
import IssueArchive
import Synchronization

/// What a book's package says it is, as calibre reads it into a library: calibre's own
/// `uuid` (it writes `uuid:…`, `urn:uuid:…` or `opf:scheme="uuid"` into the books it hands
/// out) and typed identifiers as its `identifiers` column keeps them (`isbn` → the ISBN's
/// digits, `doi`, `google`, …). The rules of calibre's OPF reader, said again here: an
/// `opf:scheme` names the type unless the text is a URN; else the text is `[urn:]type:value`.
struct CalibreIdentifiers: Sendable, Equatable {
    struct Typed: Hashable, Sendable {
        var type: String
        /// Compared: an ISBN's digits, else the value as written.
        var value: String
        /// As the file writes it, which is how calibre keeps it (an OPF 2 ISBN keeps its dashes).
        var written: String

        /// Whether calibre's `identifiers` hold this one.
        func isIn(_ identifiers: [String: String]) -> Bool {
            guard let theirs = identifiers[type] else { return false }
            return type == "isbn" ? CalibreIdentifiers.isbn(theirs.split(separator: ":").last.map(String.init) ?? theirs) == value : theirs == value
        }
    }

    var uuids: [String] = []
    var typed: [Typed] = []

    var isEmpty: Bool { uuids.isEmpty && typed.isEmpty }

    init(_ identifiers: [BookIdentifier]) {
        for identifier in identifiers { add(identifier) }
    }

    private mutating func add(_ identifier: BookIdentifier) {
        let text = identifier.value.trimmingCharacters(in: .whitespacesAndNewlines)
        let isURN = text.lowercased().hasPrefix("urn:")
        var type: String, value: String
        if let scheme = identifier.scheme, !isURN {
            (type, value) = (scheme, text)
        } else {
            let rest = isURN ? String(text.dropFirst(4)) : text
            guard let colon = rest.firstIndex(of: ":") else {
                // A bare uuid names no type, but no two books share one: worth asking.
                if Self.isUUID(rest) { uuids.append(rest.lowercased()) }
                return
            }
            (type, value) = (String(rest[..<colon]), String(rest[rest.index(after: colon)...]))
        }
        type = type.lowercased().trimmingCharacters(in: .whitespaces)
        value = value.trimmingCharacters(in: .whitespaces)
        if type.hasPrefix("isbn") {
            let written = String(value.split(separator: ":").last ?? "")
            if let isbn = Self.isbn(written) { typed.append(Typed(type: "isbn", value: isbn, written: written)) }
        } else if type == "uuid" {
            if Self.isUUID(value) { uuids.append(value.lowercased()) }
        } else if !["calibre", "http", "https", "url", ""].contains(type), !value.isEmpty {
            // `calibre:12` is the book's id in whichever library wrote it; an address names no book.
            typed.append(Typed(type: type, value: value, written: value))
        }
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hexadecimal digits.
    static func isUUID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// An ISBN as calibre keeps it: its digits (and a final X) without dashes or spaces, when
    /// its check digit is right; nil for anything else.
    static func isbn(_ text: String) -> String? {
        let digits = String(text.uppercased().filter { $0.isASCII && ($0.isNumber || $0 == "X") })
        let values = digits.map { $0 == "X" ? 10 : Int(String($0)) ?? 0 }
        guard !values.isEmpty, Set(values).count > 1 else { return nil }  // 0000000000 is a placeholder
        switch digits.count {
        case 10:
            guard !digits.dropLast().contains("X") else { return nil }
            let sum = values.enumerated().reduce(0) { $0 + (10 - $1.offset) * $1.element }
            return sum % 11 == 0 ? digits : nil
        case 13:
            guard !digits.contains("X") else { return nil }
            let sum = values.enumerated().reduce(0) { $0 + ($1.offset.isMultiple(of: 2) ? 1 : 3) * $1.element }
            return sum % 10 == 0 ? digits : nil
        default:
            return nil
        }
    }
}

/// Finds, on calibre's content server, the book a file of other origin is (the user's own
/// EPUB, one from another catalog): the book whose calibre uuid the file carries, else the
/// book sharing the most identifiers with it, in the format the file is. Never guessed by
/// title: a file that shares nothing, or matches several books alike, stays unnamed.
struct CalibreBookFinder {
    var server: CalibreContentServer
    /// uuids or book ids asked for in one request (about 4 KB of query; calibre takes 8).
    static let perRequest = 100
    /// Values in one search's regular expression (about 3 KB of query).
    static let patternsPerRequest = 80

    struct Wanted: Sendable {
        var format: String
        var identifiers: CalibreIdentifiers
    }

    /// The book of each issue (by id) that the server has, searching its libraries in turn.
    func books(for wanted: [Int64: Wanted]) throws -> [Int64: CalibreBook] {
        guard !wanted.isEmpty else { return [:] }
        var found: [Int64: CalibreBook] = [:]
        for library in try server.libraries() {
            let left = wanted.filter { found[$0.key] == nil }
            guard !left.isEmpty else { break }
            do {
                let byUUID = try entries(uuids: Set(left.values.flatMap(\.identifiers.uuids)), in: library)
                for (issue, want) in left {
                    let sharing = want.identifiers.uuids.compactMap { byUUID[$0] }.map { ($0, 1) }
                    if let book = Self.best(sharing, format: want.format, in: library) { found[issue] = book }
                }
                let byIdentifier = try entries(sharing: Set(left.filter { found[$0.key] == nil }.values.flatMap(\.identifiers.typed)), in: library)
                for (issue, want) in left where found[issue] == nil {
                    let sharing = byIdentifier.map { entry in (entry, want.identifiers.typed.filter { $0.isIn(entry.identifiers) }.count) }
                    if let book = Self.best(sharing, format: want.format, in: library) { found[issue] = book }
                }
            } catch SyncError.server {
                continue  // a library this user may not search
            }
        }
        return found
    }

    /// The book in `format` that shares the most identifiers with the file; nil when none
    /// does, or several share as many.
    private static func best(_ sharing: [(CalibreContentServer.Entry, shared: Int)], format: String, in library: String) -> CalibreBook? {
        let candidates = sharing.filter { $0.shared > 0 && $0.0.formats.contains(format) }
        guard let most = candidates.map(\.shared).max() else { return nil }
        let ids = Set(candidates.filter { $0.shared == most }.map(\.0.id))
        guard ids.count == 1, let id = ids.first else { return nil }
        return CalibreBook(library: library, id: id, format: format)
    }

    /// The books with these uuids, by uuid.
    private func entries(uuids: Set<String>, in library: String) throws -> [String: CalibreContentServer.Entry] {
        let found = try uuids.sorted().batches(of: Self.perRequest).concurrentFlatMap { try server.books(uuids: $0, in: library) }
        return Dictionary(found.compactMap { entry in entry.uuid.map { ($0.lowercased(), entry) } }, uniquingKeysWith: { first, _ in first })
    }

    /// The books with any of these identifiers: found by calibre's search language, one
    /// regular expression a type and request (`identifiers:"=isbn:~^(?:9780306406157|978-0-306-40615-7)$"`:
    /// the type exact, the value as compared or as written), so that calibre reads its books
    /// once a request rather than once a value (a term a value: 19 s for a thousand ISBNs in a
    /// library of ten thousand books); then read for their identifiers.
    private func entries(sharing identifiers: Set<CalibreIdentifiers.Typed>, in library: String) throws -> [CalibreContentServer.Entry] {
        let byType = Dictionary(grouping: identifiers, by: \.type)
        let terms = byType.keys.sorted().filter { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) } }.flatMap { type in
            let patterns = Set(byType[type, default: []].flatMap { [$0.value, $0.written] }).compactMap(Self.pattern).sorted()
            return patterns.batches(of: Self.patternsPerRequest).map { "identifiers:\"=\(type):~^(?:\($0.joined(separator: "|")))$\"" }
        }
        let ids = try terms.concurrentFlatMap { try server.search($0, in: library, limit: 1000) }
        return try Set(ids).sorted().batches(of: Self.perRequest).concurrentFlatMap { try server.books(ids: $0, in: library) }
    }

    /// A regular expression that matches `value` alone: each metacharacter in a class of its
    /// own, as calibre's search language would take a backslash for its own escape. Nil for a
    /// value with a quote, backslash, bracket or caret, which is not asked.
    static func pattern(_ value: String) -> String? {
        guard !value.isEmpty, !value.contains(where: { "\"\\[]^".contains($0) || $0.isNewline }) else { return nil }
        return value.map { ".()*+?|{}$".contains($0) ? "[\($0)]" : String($0) }.joined()
    }
}

extension Array {
    /// The elements in runs of `size` (the last shorter): what one request to a server holds.
    func batches(of size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min(count, $0 + size)]) }
    }
}

extension Array where Element: Sendable {
    /// What `ask` answers for every element, several asked at once (calibre's server answers
    /// on several threads), in no particular order; the first failure is thrown, and no
    /// element is asked after it.
    func concurrentFlatMap<Answer: Sendable>(_ ask: @Sendable (Element) throws -> [Answer]) throws -> [Answer] {
        let answers = Mutex<(found: [Answer], failure: (any Error)?)>(([], nil))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            guard answers.withLock({ $0.failure == nil }) else { return }
            do {
                let found = try ask(self[index])
                answers.withLock { $0.found += found }
            } catch {
                answers.withLock { $0.failure = $0.failure ?? error }
            }
        }
        let (found, failure) = answers.withLock { ($0.found, $0.failure) }
        if let failure { throw failure }
        return found
    }
}

/// The books found for issues of other origin during one sync, by issue id, so that
/// `CalibrePlaces.document(of:)` names them (and the sync keeps the name in `syncPlace`).
final class CalibreFoundBooks: Sendable {
    private let books = Mutex<[Int64: CalibreBook]>([:])

    func keep(_ found: [Int64: CalibreBook]) { books.withLock { $0.merge(found) { _, new in new } } }

    func book(of issue: Int64) -> CalibreBook? { books.withLock { $0[issue] } }
}
