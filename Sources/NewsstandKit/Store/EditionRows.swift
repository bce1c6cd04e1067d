import Foundation
import Feeds
import GRDB

/// The editions repository: a feed's articles, and the editions (rows of `issue`) they are
/// gathered into (see `Editions/EditionStore.swift` for what an edition is).
extension LibraryStore {
    /// How the publication's articles make editions (daily when it never said).
    static func editionSchedule(_ db: Database, publicationID: Int64?) throws -> EditionSchedule {
        try String.fetchOne(db, sql: "SELECT editionSchedule FROM publication WHERE id = ?", arguments: [publicationID])
            .flatMap(EditionSchedule.init) ?? .standard
    }

    /// How the publication's articles make editions (daily when it never said).
    public func editionSchedule(of publication: Publication) throws -> EditionSchedule {
        try read { db in try Self.editionSchedule(db, publicationID: publication.id) }
    }

    /// How many articles of the publication the library holds (an articles-only feed has no other issues to show).
    public func articleCount(publicationID: Int64) throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM article WHERE publicationId = ?", arguments: [publicationID]) ?? 0 }
    }

    /// The articles of an edition, lead first (newest first, feed order among equals).
    func articles(ofEdition id: Int64?) throws -> [StoredArticle] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM article WHERE editionId = ? ORDER BY COALESCE(date, firstSeen) DESC, id
                """, arguments: [id]).map(StoredArticle.init)
        }
    }

    /// Stores the articles not seen before and gathers them into editions, inside the
    /// refresh's transaction, after setting the publication's `schedule` when one is given.
    /// Returns the names of the editions it created.
    static func storeArticles(_ db: Database, _ articles: [FeedArticle], publicationID: Int64, now: Date,
                              schedule setting: EditionSchedule? = nil, calendar: Calendar = .current) throws -> [String] {
        let regathered = try setting.map { try changeSchedule(db, to: $0, publicationID: publicationID, now: now, calendar: calendar) } ?? []
        guard !articles.isEmpty else { return regathered }
        let schedule = try editionSchedule(db, publicationID: publicationID)
        let insert = try db.cachedStatement(sql: """
            INSERT INTO article (publicationId, name, date, firstSeen, title, link, author, categories, html, baseURL, pictures, language, hasContent)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (publicationId, name) DO NOTHING
            """)
        // A known article corrected by its feed changes only while its edition is open.
        let correct = try db.cachedStatement(sql: """
            UPDATE article SET title = ?, link = ?, author = ?, categories = ?, html = ?, baseURL = ?, pictures = ?, language = ?, hasContent = ?
            WHERE publicationId = ? AND name = ?
              AND (title, link, author, categories, html, baseURL, pictures, language, hasContent) IS NOT (?, ?, ?, ?, ?, ?, ?, ?, ?)
              AND editionId IN (SELECT id FROM issue WHERE \(EditionRow.isOpen))
            RETURNING editionId
            """)
        var periods: [Date: [Int64]] = [:]
        var corrected = Set<Int64>()
        for article in articles {
            let fields: [DatabaseValueConvertible?] = [
                article.title, article.link?.absoluteString, article.author, Library.jsonArray(article.categories), article.html,
                article.baseURL.absoluteString, Library.jsonArray(article.pictures.map(\.absoluteString)), article.language,
                article.hasContent,
            ]
            try insert.execute(arguments: StatementArguments([publicationID, article.name, article.date.map(DatabaseDate.value),
                                                              DatabaseDate.value(now)] + fields))
            // Known already (this refresh or an earlier one): it stays in its edition.
            guard db.changesCount > 0 else {
                let edition = try Int64.fetchOne(correct, arguments: StatementArguments(fields + [publicationID, article.name] + fields))
                if let edition { corrected.insert(edition) }
                continue
            }
            periods[schedule.start(of: article.date ?? now, now: now, calendar: calendar), default: []].append(db.lastInsertedRowID)
        }
        for edition in corrected { try EditionRow.describe(db, edition: edition) }
        return regathered + (try gather(db, periods: periods, publicationID: publicationID, schedule: schedule, calendar: calendar))
    }

    /// Puts articles (by id, in the periods they belong to under `schedule`) into editions:
    /// first the periods whose edition is still open or not there yet; then the late
    /// articles, whose period's editions are all closed: they join the next open edition
    /// (made here too), else start one more edition of their period. Returns the names of
    /// the editions it created.
    private static func gather(_ db: Database, periods: [Date: [Int64]], publicationID: Int64, schedule: EditionSchedule,
                               calendar: Calendar) throws -> [String] {
        var editions = try EditionRow.all(db, publicationID: publicationID)
        var created: [String] = []
        func gather(_ ids: [Int64], into target: Int64) throws {
            try db.execute(sql: "UPDATE article SET editionId = ? WHERE id IN (SELECT value FROM json_each(?))",
                           arguments: [target, "[" + ids.map(String.init).joined(separator: ",") + "]"])
            try EditionRow.describe(db, edition: target)
        }
        func newEdition(starting start: Date) throws -> EditionRow {
            let edition = try EditionRow.create(db, publicationID: publicationID, start: start, schedule: schedule,
                                                calendar: calendar, existing: editions)
            editions.append(edition)
            created.append(edition.name)
            return edition
        }
        var late: [(Date, [Int64])] = []
        for (start, ids) in periods.sorted(by: { $0.key < $1.key }) {
            let own = editions.filter { abs($0.date.timeIntervalSince(start)) < 0.001 }  // stored to the millisecond
            if let open = own.last(where: { !$0.closed }) {
                try gather(ids, into: open.id)
            } else if own.isEmpty {
                try gather(ids, into: try newEdition(starting: start).id)
            } else {
                late.append((start, ids))
            }
        }
        for (start, ids) in late {
            let next = editions.filter { !$0.closed && $0.date.timeIntervalSince(start) >= 0.001 }.min { ($0.date, $0.id) < ($1.date, $1.id) }
            try gather(ids, into: try next?.id ?? newEdition(starting: start).id)
        }
        return created
    }

    static func changeSchedule(_ db: Database, to schedule: EditionSchedule, publicationID id: Int64, now: Date,
                                       calendar: Calendar) throws -> [String] {
        let old = try editionSchedule(db, publicationID: id)
        try db.execute(sql: "UPDATE publication SET editionSchedule = ? WHERE id = ?", arguments: [schedule.description, id])
        guard old != schedule else { return [] }
        let open = try EditionRow.all(db, publicationID: id).filter { !$0.closed }.map(\.id)
        guard !open.isEmpty else { return [] }
        let list = "[" + open.map(String.init).joined(separator: ",") + "]"
        var periods: [Date: [Int64]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT id, COALESCE(date, firstSeen) AS dated FROM article WHERE editionId IN (SELECT value FROM json_each(?))
            """, arguments: [list]) {
            // `per refresh` has no period of its own for articles already there: they make one edition now.
            periods[schedule.start(of: row["dated"], now: now, calendar: calendar), default: []].append(row["id"])
        }
        try db.execute(sql: "DELETE FROM issue WHERE id IN (SELECT value FROM json_each(?))", arguments: [list])
        return try gather(db, periods: periods, publicationID: id, schedule: schedule, calendar: calendar)
    }
}

/// An edition as the store sees it while gathering articles.
struct EditionRow {
    var id: Int64
    var name: String
    var date: Date
    /// Being built, built or opened: it takes no more articles.
    var closed: Bool

    /// An edition (a row of `issue`) that takes articles: never downloaded, queued or opened.
    static let isOpen = """
        status = 'none' AND lastOpenedAt IS NULL AND downloadedAt IS NULL
        AND NOT EXISTS (SELECT 1 FROM assetDownload WHERE issueId = issue.id)
        """

    static func all(_ db: Database, publicationID: Int64) throws -> [EditionRow] {
        try Row.fetchAll(db, sql: """
            SELECT id, name, date, NOT (\(isOpen)) AS closed
            FROM issue WHERE publicationId = ? AND contentType = ? ORDER BY id
            """, arguments: [publicationID, Library.editionContentType])
            .map { EditionRow(id: $0["id"], name: $0["name"], date: $0["date"], closed: $0["closed"]) }
    }

    /// A new edition for the period starting at `start`: the first of its period, or the
    /// next one after those already there.
    static func create(_ db: Database, publicationID: Int64, start: Date, schedule: EditionSchedule, calendar: Calendar,
                       existing: [EditionRow]) throws -> EditionRow {
        let base = "edition:\(publicationID):\(schedule.key(for: start, calendar: calendar))"
        let number = 1 + existing.filter { $0.name == base || $0.name.hasPrefix(base + "#") }.count
        let name = number > 1 ? "\(base)#\(number)" : base
        let title = schedule.title(for: start, number: number, calendar: calendar)
        try db.execute(sql: """
            INSERT INTO issue (publicationId, name, date, title, contentURL, contentType) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [publicationID, name, DatabaseDate.value(start), title,
                             "\(Library.editionScheme):\(name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)",
                             Library.editionContentType])
        return EditionRow(id: db.lastInsertedRowID, name: name, date: start, closed: false)
    }

    /// The tile's summary: how many articles, the first headlines. (No cover link: the
    /// cover is the one the build draws, which the shelf shows once the edition is built;
    /// a feed's cover would win over it.)
    static func describe(_ db: Database, edition: Int64) throws {
        let titles = try String.fetchAll(db, sql: """
            SELECT title FROM article WHERE editionId = ? ORDER BY COALESCE(date, firstSeen) DESC, id
            """, arguments: [edition])
        let summary = "\(titles.count) article\(titles.count == 1 ? "" : "s"): \(titles.prefix(3).joined(separator: " · "))"
        try db.execute(sql: "UPDATE issue SET summary = ? WHERE id = ?", arguments: [summary, edition])
    }
}

/// An article as stored, for the edition builder.
struct StoredArticle: Sendable {
    var id: Int64
    var name: String
    var title: String
    var link: URL?
    var date: Date?
    var firstSeen: Date
    var author: String?
    var categories: [String]
    var html: String?
    var baseURL: URL
    var pictures: [URL]
    /// As its feed gives it (BCP 47), nil when the feed does not say.
    var language: String?
    /// Whether the feed gave the entry's content, not only its summary.
    var hasContent: Bool

    init(_ row: Row) {
        id = row["id"]; name = row["name"]; title = row["title"]
        link = (row["link"] as String?).flatMap(URL.init(string:))
        date = row["date"]; firstSeen = row["firstSeen"]; author = row["author"]
        categories = Self.strings(row["categories"])
        html = row["html"]
        let base: String = row["baseURL"]
        baseURL = URL(string: base) ?? URL(fileURLWithPath: "/")
        pictures = Self.strings(row["pictures"]).compactMap(URL.init(string:))
        language = row["language"]
        hasContent = row["hasContent"]
    }

    private static func strings(_ json: String?) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data((json ?? "[]").utf8))) ?? []
    }
}
