import Foundation
import GRDB

/// Where a reader is in an issue, whatever the window, the text width or the view (after
/// Readium's Locator, so that places can later be synced with servers): the resource, how
/// far through it, how far through the whole issue, the page for paged content, the exact
/// words at the top of the screen, and when the reader was there.
///
/// An immutable class, not a struct: every `Issue` carries one, and inline it made each
/// of a store's 20,000 issue rows 72 bytes larger to read, copy and keep.
public final class Locator: Codable, Equatable, Sendable {
    /// The resource's path in the reading order (an article's file, a comic's page).
    public let resource: String
    /// 0…1 through that resource.
    public let progression: Double
    /// 0…1 through the whole issue (the store's reading-progress bar shows it).
    public let totalProgression: Double
    /// Paged content (comic and PDF pages): the page, counted from 0.
    public let page: Int?
    /// Reflowed text: the block and the character offset in it at the top of the screen,
    /// so another width or window keeps the same words in view.
    public let text: TextPlace?
    /// When the reader was here: of two places for one issue, the newer wins.
    public let updated: Date
    /// Set only on a place saved before locators (migrated by the library with `resource`
    /// empty): the resource's index in the reading order, named by `resolved(in:)` when
    /// the content is opened.
    public let resourceIndex: Int?

    public static func == (a: Locator, b: Locator) -> Bool {
        (a.resource, a.progression, a.totalProgression, a.page, a.text, a.updated) == (b.resource, b.progression, b.totalProgression, b.page, b.text, b.updated)
            && a.resourceIndex == b.resourceIndex
    }

    public struct TextPlace: Codable, Equatable, Sendable {
        public var block: Int
        public var offset: Int
        public init(block: Int, offset: Int) { self.block = max(0, block); self.offset = max(0, offset) }
    }

    public convenience init(resource: String, progression: Double, totalProgression: Double, page: Int? = nil,
                text: TextPlace? = nil, updated: Date) {
        self.init(resource: resource, progression: progression, totalProgression: totalProgression, page: page, text: text,
                  updated: updated, resourceIndex: nil)
    }

    private init(resource: String, progression: Double, totalProgression: Double, page: Int?, text: TextPlace?,
                 updated: Date, resourceIndex: Int?) {
        self.resource = resource
        self.resourceIndex = resourceIndex.map { max(0, $0) }
        self.progression = Locator.unit(progression)
        self.totalProgression = Locator.unit(totalProgression)
        self.page = page.map { max(0, $0) }
        self.text = text
        self.updated = updated
    }

    private static func unit(_ value: Double) -> Double { value.isFinite ? max(0, min(1, value)) : 0 }

    /// The JSON kept in the library.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The locator a library keeps as JSON, or nil for anything else.
    public static func decoded(json: String) -> Locator? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(Locator.self, from: Data(json.utf8))
    }

    /// A place saved by versions before the locator: `{article, line, block?, offset?,
    /// width?, page?}` with the article (or page) as an index into the reading order, which
    /// only the content knows: kept as that index (`resourceIndex`) until `resolved(in:)`.
    /// The text width it held is a preference, not a place, and is left behind; without a
    /// saved progress the total progression is 0 (the store shows no bar for either).
    public convenience init?(legacyPosition json: String, progress: Double?, updated: Date) {
        struct Legacy: Decodable { var article: Int; var line: Int?; var block: Int?; var offset: Int?; var page: Int? }
        guard let legacy = try? JSONDecoder().decode(Legacy.self, from: Data(json.utf8)) else { return nil }
        let index = max(0, legacy.page ?? legacy.article)
        self.init(resource: "", progression: 0, totalProgression: progress ?? 0, page: legacy.page.map { _ in index },
                  text: legacy.block.map { TextPlace(block: $0, offset: legacy.offset ?? 0) }, updated: updated,
                  resourceIndex: index)
    }

    /// This place with its resource named in `readingOrder` (the content): itself,
    /// unless it was migrated from before locators and knows its resource only by index;
    /// nil when the content has no resources to name.
    public func resolved(in readingOrder: [String]) -> Locator? {
        guard let resourceIndex else { return self }
        guard !readingOrder.isEmpty else { return nil }
        let index = min(readingOrder.count - 1, resourceIndex)
        return Locator(resource: readingOrder[index], progression: progression, totalProgression: totalProgression,
                       page: page == nil ? nil : index, text: text, updated: updated)
    }
}

extension Locator: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { json.databaseValue }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Locator? {
        String.fromDatabaseValue(dbValue).flatMap { Locator.decoded(json: $0) }
    }
}
