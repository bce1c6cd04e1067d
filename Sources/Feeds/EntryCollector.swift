import Foundation

/// What a reader found for one entry, before names, titles and dates are settled.
struct EntryDraft {
    var id: String?
    var title: String?
    var date: Date?
    var summary: String?
    var coverURL: URL?
    var thumbnailURL: URL?
    var content: ContentLink?
    var endDate: Date?
    /// Its author(s), for an issue (an OPDS catalog's book).
    var authors: [String] = []
    /// What the entry is as an article, should it carry no content link.
    var article: ArticleDraft?
}

/// Where entries go while a feed is still being read, a batch at a time (`FeedParser.parse(_:url:batchSize:streaming:)`).
/// An entry is handed over as its draft is read, before the rest of the feed can change
/// what it becomes; `final` says afterwards whether every entry handed over is exactly
/// what the document lists, in the same order.
final class EntrySink {
    private let batchSize: Int
    private let deliver: ([FeedEntry]) -> Void
    private var pending: [FeedEntry] = []
    private(set) var delivered = 0
    var final = false

    init(batchSize: Int, deliver: @escaping ([FeedEntry]) -> Void) {
        self.batchSize = max(1, batchSize)
        self.deliver = deliver
        pending.reserveCapacity(self.batchSize)
    }

    func add(_ entry: FeedEntry) {
        pending.append(entry)
        if pending.count >= batchSize { flush() }
    }

    func flush() {
        guard !pending.isEmpty else { return }
        delivered += pending.count
        deliver(pending)
        pending.removeAll(keepingCapacity: true)
    }
}

/// Turns drafts into entries: a stable unique name (id, else content URL), a title, a date
/// (the feed's, with a note, when the entry has none), and notes for what was dropped.
/// Each draft becomes its entry at once (handed to the sink, if any), and is kept as that
/// entry until `finish`, because whether entries without content count is only known once
/// the whole feed has been read (a newsstand feed lists them anyway) and an undated entry
/// takes a date from the rest of the feed; `finish` tells the sink whether any of that
/// changed what it was handed.
struct EntryCollector {
    /// A draft as its entry, with what `finish` still has to judge.
    private struct Pending {
        /// nil when the draft had neither an id nor a content link.
        var entry: FeedEntry?
        /// How problems name it: its title, else its id.
        var label: String?
        var hasContent: Bool
        var dated: Bool
    }

    private var pending: [Pending] = []
    private var articles: [FeedArticle] = []
    private var articleNames = Set<String>()
    private var notes: [String] = []
    var sink: EntrySink?

    mutating func note(_ problem: String) { notes.append(problem) }

    mutating func add(_ draft: EntryDraft) {
        let entry = (draft.id ?? draft.content?.url.absoluteString).map { name in
            FeedEntry(
                name: name, title: draft.title ?? draft.content.map { $0.url.deletingPathExtension().lastPathComponent } ?? name,
                date: draft.date ?? .distantPast, summary: draft.summary,
                coverURL: draft.coverURL, thumbnailURL: draft.thumbnailURL ?? draft.coverURL,
                contentURL: draft.content?.url, contentType: draft.content?.type,
                contentLength: draft.content?.length, sha256: draft.content?.sha256, endDate: draft.endDate,
                authors: draft.authors)
        }
        if let sink, let entry { sink.add(entry) }
        if draft.content == nil, let article = draft.article?.article(id: draft.id, title: draft.title, date: draft.date),
           articleNames.insert(article.name).inserted {
            articles.append(article)
        }
        pending.append(Pending(entry: entry, label: draft.title ?? draft.id, hasContent: draft.content != nil, dated: draft.date != nil))
    }

    /// The entries, in feed order, and every problem met. Undated entries get the feed's date
    /// (else the newest entry date, else the epoch).
    /// Articles (entries without content) are kept unless entries without content are
    /// issues themselves (a newsstand feed).
    mutating func finish(feedDate: Date?, keepsEntriesWithoutContent: Bool, itemWord: String = "items")
        -> (entries: [FeedEntry], articles: [FeedArticle], problems: [String]) {
        sink?.flush()
        var entries: [FeedEntry] = []
        entries.reserveCapacity(pending.count)
        var problems = notes
        var names = Set<String>()
        var undated: [Int] = []
        var skippedWithoutContent = 0
        for index in pending.indices {
            let label = pending[index].label ?? "entry \(entries.count + skippedWithoutContent + 1)"
            if !pending[index].hasContent, !keepsEntriesWithoutContent {
                skippedWithoutContent += 1
                continue
            }
            if !pending[index].hasContent { problems.append("entry \"\(label)\" has no zip, EPUB, CBZ or PDF content link") }
            guard let entry = pending[index].entry.take() else {
                problems.append("entry \"\(label)\" has neither an id nor a content link; skipped")
                continue
            }
            guard names.insert(entry.name).inserted else {
                problems.append("entry \"\(label)\" repeats the name \(entry.name); skipped")
                continue
            }
            if !pending[index].dated { undated.append(entries.count) }
            entries.append(entry)
        }
        // Every draft became the entry it was handed over as: none left out, none re-dated.
        sink?.final = entries.count == pending.count && undated.isEmpty && sink?.delivered == pending.count
        pending = []
        let articles = keepsEntriesWithoutContent ? [] : self.articles
        // Entries that are articles are no problem (the report lists them as articles); only
        // those that are neither issues nor articles are.
        if articles.isEmpty, skippedWithoutContent > 0 {
            problems.append("\(skippedWithoutContent) \(itemWord) carry no zip, EPUB, CBZ or PDF link and are not issues")
        } else if skippedWithoutContent > articles.count {
            problems.append("\(skippedWithoutContent - articles.count) \(itemWord) carry no content link, nothing to read and no new name, and are left out")
        }
        let fallback = feedDate
            ?? entries.map(\.date).filter { $0 != .distantPast }.max()
            ?? Date(timeIntervalSince1970: 0)
        for index in undated {
            entries[index].date = fallback
            problems.append("entry \"\(entries[index].title)\" has no readable date; the feed's date was used")
        }
        return (entries, articles, problems)
    }

    static func summary(_ text: String?) -> String? {
        guard let text else { return nil }
        guard text.utf8.count > 2000, text.count > 2000 else { return text }
        return String(text.prefix(1999)) + "…"
    }
}
