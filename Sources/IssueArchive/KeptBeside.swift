import Foundation

/// Files a reader writes beside an issue's content after it was installed, to spare work
/// in later sessions: a PDF's page texts, read once for search (`.NAME.texts.json` beside
/// `NAME`). Not part of the download: they go with the issue, and the cache counts them
/// in its size and shows them apart (`newsstand cache`).
public enum KeptBeside {
    /// Where `document`'s page texts are kept: a hidden file beside it.
    public static func pageTexts(of document: URL) -> URL {
        document.deletingLastPathComponent().appendingPathComponent(".\(document.lastPathComponent)\(pageTextsSuffix)")
    }

    /// Whether a file of this name is one a reader kept.
    public static func isKept(_ fileName: String) -> Bool {
        fileName.hasPrefix(".") && fileName.hasSuffix(pageTextsSuffix) && fileName.count > pageTextsSuffix.count + 1
    }

    private static let pageTextsSuffix = ".texts.json"
}
