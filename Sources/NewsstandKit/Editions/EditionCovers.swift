import Foundation
import Synchronization

/// What an edition's generated cover shows.
public struct EditionCoverText: Sendable, Equatable {
    /// The publication's title, as a masthead.
    public var masthead: String
    /// The date and edition (`Thursday 26 November 2026`).
    public var dateLine: String
    /// The lead article's title.
    public var headline: String
    /// The lead article's picture, as fetched (PNG, JPEG, GIF or WebP bytes), if any.
    public var leadPicture: Data?
}

/// Where the program registers how an edition's cover is drawn (as a PNG). Drawing and
/// encoding pictures is `Imaging`'s work, a module NewsstandKit does not import: the
/// program (`newsstand`) hands the painter in at its start, as it does the PDF support.
/// Without one, an edition has no cover picture and the shelf shows its placeholder.
public enum EditionCovers {
    private static let painter = Mutex<(@Sendable (EditionCoverText) -> Data?)?>(nil)

    public static func register(_ paint: @escaping @Sendable (EditionCoverText) -> Data?) {
        painter.withLock { $0 = paint }
    }

    static func paint(_ text: EditionCoverText) -> Data? {
        let paint = painter.withLock { $0 }
        return paint?(text)
    }
}
