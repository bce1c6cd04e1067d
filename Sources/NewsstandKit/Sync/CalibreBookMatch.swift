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

    init(_ identifiers: [EPUBIdentifier]) {
        for identifier in identifiers { add(identifier) }
    }

    private mutating func add(_ identifier: EPUBIdentifier) {
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
/// one book sharing an identifier with it, in the format the file is. Never guessed by
/// title: a file that shares nothing, or matches several books alike, stays unnamed.
struct CalibreBookFinder {
    var server: CalibreContentServer
    /// uuids, or search terms, asked for in one request (about 2 KB of query).
    static let perRequest = 40

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
                    if let book = Self.only(want.identifiers.uuids.compactMap { byUUID[$0] }, format: want.format, in: library) { found[issue] = book }
                }
                let byIdentifier = try entries(sharing: Set(left.filter { found[$0.key] == nil }.values.flatMap(\.identifiers.typed)), in: library)
                for (issue, want) in left where found[issue] == nil {
                    let sharing = byIdentifier.filter { entry in want.identifiers.typed.contains { $0.isIn(entry.identifiers) } }
                    if let book = Self.only(sharing, format: want.format, in: library) { found[issue] = book }
                }
            } catch SyncError.server {
                continue  // a library this user may not search
            }
        }
        return found
    }

    /// The one book among `entries` that has `format`; nil when none or several do.
    private static func only(_ entries: [CalibreContentServer.Entry], format: String, in library: String) -> CalibreBook? {
        let ids = Set(entries.filter { $0.formats.contains(format) }.map(\.id))
        guard ids.count == 1, let id = ids.first else { return nil }
        return CalibreBook(library: library, id: id, format: format)
    }

    /// The books with these uuids, by uuid.
    private func entries(uuids: Set<String>, in library: String) throws -> [String: CalibreContentServer.Entry] {
        var byUUID: [String: CalibreContentServer.Entry] = [:]
        for batch in Self.batches(uuids.sorted()) {
            for entry in try server.books(uuids: batch, in: library) {
                if let uuid = entry.uuid?.lowercased() { byUUID[uuid] = entry }
            }
        }
        return byUUID
    }

    /// The books with any of these identifiers: found by calibre's search language
    /// (`identifiers:"=isbn:=…"`, type and value exact, the value as written and as compared),
    /// then read for their identifiers.
    private func entries(sharing identifiers: Set<CalibreIdentifiers.Typed>, in library: String) throws -> [CalibreContentServer.Entry] {
        let pairs = Set(identifiers.flatMap { [($0.type + ":=" + $0.value), ($0.type + ":=" + $0.written)] })
        // A quote or backslash would need calibre's escapes: such a value is not asked.
        let terms = pairs.filter { !$0.contains { $0 == "\"" || $0 == "\\" } }.map { "identifiers:\"=\($0)\"" }.sorted()
        var ids: Set<Int> = []
        for batch in Self.batches(terms) {
            ids.formUnion(try server.search(batch.joined(separator: " or "), in: library, limit: 1000))
        }
        var entries: [CalibreContentServer.Entry] = []
        for batch in Self.batches(ids.sorted()) { entries += try server.books(ids: batch, in: library) }
        return entries
    }

    private static func batches<T>(_ items: [T]) -> [[T]] {
        stride(from: 0, to: items.count, by: perRequest).map { Array(items[$0..<min(items.count, $0 + perRequest)]) }
    }
}

/// The books found for issues of other origin during one sync, by issue id, so that
/// `CalibrePlaces.document(of:)` names them (and the sync keeps the name in `syncPlace`).
final class CalibreFoundBooks: Sendable {
    private let books = Mutex<[Int64: CalibreBook]>([:])

    func keep(_ found: [Int64: CalibreBook]) { books.withLock { $0.merge(found) { _, new in new } } }

    func book(of issue: Int64) -> CalibreBook? { books.withLock { $0[issue] } }
}
