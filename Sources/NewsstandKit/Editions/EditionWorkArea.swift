import Foundation

/// Where an edition's build keeps what it fetched (article pages, pictures), each under
/// a name made from its URL, until the edition is written: a build stopped halfway (the
/// agent quit or was killed) and started again fetches nothing twice. It lives beside the
/// download's `.part` and goes with it (`removeOrphanedPartials`).
struct EditionWorkArea: Sendable {
    let directory: URL

    enum Kind: String { case page = "pages", picture = "pictures" }

    /// The work area of an edition's download (`<identifier>.work` beside its `.part`).
    init(paths: Paths, asset: AssetDownload) {
        directory = paths.partialDirectory.appendingPathComponent("\(asset.identifier).work", isDirectory: true)
    }

    init(directory: URL) { self.directory = directory }

    func file(for url: URL, _ kind: Kind) -> URL {
        let name = (try? SHA256Digest.hex(of: Data(url.absoluteString.utf8))) ?? String(url.absoluteString.hashValue, radix: 16)
        return directory.appendingPathComponent(kind.rawValue, isDirectory: true).appendingPathComponent(name)
    }

    /// What an earlier fetch of `url` kept, if any.
    func kept(_ url: URL, _ kind: Kind) -> Data? { try? Data(contentsOf: file(for: url, kind)) }

    /// A fresh file to fetch `url` into, in the work area (so keeping it is a rename).
    func partFile(for url: URL, _ kind: Kind) -> URL {
        let folder = directory.appendingPathComponent(kind.rawValue, isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(UUID().uuidString + ".part")
    }

    /// Keeps a fetched file as what `url` gave (whole or not at all: a rename).
    func keep(_ fetched: URL, for url: URL, _ kind: Kind) {
        if rename(fetched.path, file(for: url, kind).path) != 0 { try? FileManager.default.removeItem(at: fetched) }
    }

    func keep(_ data: Data, for url: URL, _ kind: Kind) {
        let part = partFile(for: url, kind)
        guard (try? data.write(to: part)) != nil else { return }
        keep(part, for: url, kind)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// What a build has done, for the tile and `download --wait`: articles ready (their pages
/// read, when the publication wants full text) and pictures fetched or given up on.
public struct EditionBuildProgress: Sendable, Equatable {
    public var articles: Int
    public var articlesTotal: Int
    public var pictures: Int
    /// Known once the articles are ready (their pictures are only then known).
    public var picturesTotal: Int?

    public init(articles: Int, articlesTotal: Int, pictures: Int = 0, picturesTotal: Int? = nil) {
        self.articles = articles
        self.articlesTotal = articlesTotal
        self.pictures = pictures
        self.picturesTotal = picturesTotal
    }

    /// Done of all the steps. Until the pictures are known (the articles' pages are still
    /// being read) the articles count as half the work, so a tile never shows 0 B for a build.
    public var fraction: Double {
        guard let picturesTotal else { return articlesTotal == 0 ? 0 : Double(articles) / Double(2 * articlesTotal) }
        let total = articlesTotal + picturesTotal
        return total == 0 ? 1 : Double(articles + pictures) / Double(total)
    }

    /// `articles 12 of 12, pictures 30 of 50`.
    public var description: String {
        "articles \(articles) of \(articlesTotal)" + (picturesTotal.map { ", pictures \(pictures) of \($0)" } ?? "")
    }
}

/// The build was asked to stop (the agent is quitting, or the download was cancelled);
/// what it fetched stays in its work area.
struct EditionBuildStopped: Error, CustomStringConvertible {
    var description: String { "the edition's build was stopped" }
}
