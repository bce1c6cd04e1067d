import Foundation
import IssueArchive

/// Every page's plain text of a PDF, kept in a file beside it (`.issue.pdf.texts.json`
/// beside `issue.pdf`) once read, so a search in a later session reads that file rather
/// than asking poppler for every page again. The file names the PDF's size and modification
/// time when its text was read: a PDF replaced since (a new download) is read again.
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

    /// Where `document`'s texts are kept: a hidden file beside it (which the cache counts).
    static func file(for document: URL) -> URL { KeptBeside.pageTexts(of: document) }

    /// The texts kept for `document` as it is now, if any.
    static func load(for document: URL) -> [String]? {
        guard let now = Version(of: document), let data = try? Data(contentsOf: file(for: document)),
              let kept = try? JSONDecoder().decode(KeptPageTexts.self, from: data), kept.version == now else { return nil }
        return kept.texts
    }

    /// Keeps `texts`, read from `document` as it was at `version`. Written whole to another
    /// file and renamed over the old one, so a reader never sees half a file; a folder that
    /// cannot be written to only means the next session reads the PDF again.
    static func keep(_ texts: [String], of document: URL, version: Version) {
        guard let data = try? JSONEncoder().encode(KeptPageTexts(version: version, texts: texts)) else { return }
        try? data.write(to: file(for: document), options: .atomic)
    }
}
