import Foundation

/// A feed's articles in the library, and the editions they are gathered into. An edition
/// is an issue like any other (its name `edition:PUBLICATION:KEY`, its content link
/// `newsstand-edition:NAME`, which the agent builds rather than fetches). Articles join the
/// edition of their period; an edition is closed once it is being built, built, or opened,
/// so what a reader has seen never changes: a late article joins the next open edition,
/// else starts one more edition of its period.
extension Library {
    static let editionContentType = "application/x-newsstand-edition"
    static let editionScheme = "newsstand-edition"

    /// Whether the issue is an edition of a feed's articles (built, not downloaded).
    public static func isEdition(_ issue: Issue) -> Bool { issue.contentType == editionContentType }

    public func editionSchedule(of publication: Publication) throws -> EditionSchedule {
        try store.read { db in try LibraryStore.editionSchedule(db, publicationID: publication.id) }
    }

    /// How many articles of the publication the library holds (an articles-only feed has no other issues to show).
    public func articleCount(publicationID: Int64) throws -> Int {
        try store.articleCount(publicationID: publicationID)
    }

    /// The articles of an edition, lead first (newest first, feed order among equals).
    func articles(ofEdition issue: Issue) throws -> [StoredArticle] {
        try store.articles(ofEdition: issue.id)
    }

    /// Changes how the publication's articles make editions from now on. Editions already
    /// being built, built or opened stay exactly as they are; the open ones (nobody has seen
    /// them) are made again under the new schedule, so their articles are not left in
    /// editions of the old one. Returns the names of the editions made.
    @discardableResult
    public func setEditionSchedule(_ schedule: EditionSchedule, for publication: Publication) throws -> [String] {
        guard let id = publication.id else { throw LibraryError.noSuchPublication(publication.title) }
        let now = clock.now()
        return try write { db in try LibraryStore.changeSchedule(db, to: schedule, publicationID: id, now: now, calendar: .current) }
    }
}

extension AssetDownload {
    /// Whether this is an edition's build (counted in articles and pictures, not bytes).
    public var buildsEdition: Bool { url.hasPrefix(Library.editionScheme + ":") }
}

