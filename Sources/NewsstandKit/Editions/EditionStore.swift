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
}

extension AssetDownload {
    /// Whether this is an edition's build (counted in articles and pictures, not bytes).
    public var buildsEdition: Bool { url.hasPrefix(Library.editionScheme + ":") }
}

