import Foundation
import IssueArchive

/// Every page's plain text of a PDF, kept in a file beside it (`.issue.pdf.texts.json`
/// beside `issue.pdf`) once read, so a search in a later session reads that file rather
/// than asking poppler for every page again. The file names the PDF's size and modification
/// time when its text was read: a PDF replaced since (a new download) is read again; and the
/// text layer that read it: texts an older layer read (`layer`) are read again too.
struct KeptPageTexts: Codable, Equatable {
    /// The PDF as it was when its text was read.
    struct Version: Codable, Equatable {
        var size: Int
        var modified: Double

        /// `document` as it is on disk now; nil when it cannot be looked at.
        init?(of document: URL) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: document.path),
                  let size = (attributes[.size] as? NSNumber)?.intValue,
                  let modified = attributes[.modificationDate] as? Date else { return nil }
            self.size = size
            self.modified = modified.timeIntervalSince1970
        }
    }

    var version: Version
    var texts: [String]
    /// The text layer that read `texts`; nil in files written before it was named
    /// (poppler-glib's text, which gave turned pages none and read columns out of order).
    var layer: Int?

    /// The text layer of this build: 2, poppler-cpp's word list (#31).
    static let layer = 2

    /// Where `document`'s texts are kept: a hidden file beside it (which the cache counts).
    static func file(for document: URL) -> URL { KeptBeside.pageTexts(of: document) }

    /// The texts kept for `document` as it is now, if any.
    static func load(for document: URL) -> [String]? {
        guard let now = Version(of: document), let data = try? Data(contentsOf: file(for: document)),
              let kept = try? JSONDecoder().decode(KeptPageTexts.self, from: data), kept.version == now,
              kept.layer == Self.layer else { return nil }
        return kept.texts
    }

    /// Keeps `texts`, read from `document` as it was at `version`. Written whole to another
    /// file and renamed over the old one, so a reader never sees half a file; a folder that
    /// cannot be written to only means the next session reads the PDF again.
    static func keep(_ texts: [String], of document: URL, version: Version) {
        guard let data = try? JSONEncoder().encode(KeptPageTexts(version: version, texts: texts, layer: Self.layer)) else { return }
        try? data.write(to: file(for: document), options: .atomic)
    }
}
