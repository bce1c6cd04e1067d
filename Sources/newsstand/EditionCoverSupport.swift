import Foundation
import Imaging
import NewsstandKit

/// Hands NewsstandKit's edition builder the cover painter from Imaging (modules that do
/// not import each other): called once at the start of the program, like `PDFSupport`.
enum EditionCoverSupport {
    static func register() {
        EditionCovers.register { text in
            (try? EditionCoverPainter.png(masthead: text.masthead, dateLine: text.dateLine, headline: text.headline,
                                          leadPicture: text.leadPicture)).map { Data($0) }
        }
    }
}
