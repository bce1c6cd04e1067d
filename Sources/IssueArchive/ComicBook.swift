import Foundation
import Markup

/// A comic book archive: page images in natural order, described by ComicInfo.xml if present.
enum ComicBook {
    static func open(_ tree: ContentTree) throws -> IssueContent {
        let pages = tree.files.filter { MediaType.isImage($0) }
        guard !pages.isEmpty else {
            throw ArchiveError(.invalidContent, "comic archive has no page images")
        }
        var content = IssueContent(format: .cbz,
                                   readingOrder: pages.map { Resource(path: $0, mediaType: MediaType.of($0)) },
                                   coverImage: pages.first)
        content.tableOfContents = chapters(pages)
        if let info = comicInfo(tree) {
            apply(info, to: &content, pages: pages)
        }
        return content
    }

    /// ComicInfo.xml at the root, else the first one in a subfolder.
    static func comicInfo(_ tree: ContentTree) -> Markup.XMLElement? {
        let candidates = tree.files.filter { ($0 as NSString).lastPathComponent.lowercased() == "comicinfo.xml" }
        let chosen = candidates.first { !$0.contains("/") } ?? candidates.first
        guard let chosen, let data = tree.data(chosen) else { return nil }
        guard let root = XMLReading.root(of: data), root.localName == "ComicInfo" else { return nil }
        return root
    }

    private static func value(_ root: Markup.XMLElement, _ name: String) -> String? {
        guard let text = root.first(name)?.allText.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return nil
        }
        return ["unknown", "n/a", "none", "-"].contains(text.lowercased()) ? nil : text
    }

    private static func apply(_ info: Markup.XMLElement, to content: inout IssueContent, pages: [String]) {
        var metadata = IssueMetadata()
        metadata.title = value(info, "Title")
        metadata.series = value(info, "Series")
        metadata.number = value(info, "Number")
        metadata.summary = value(info, "Summary")
        metadata.publisher = value(info, "Publisher")
        metadata.language = value(info, "LanguageISO")
        var creators: [String] = []
        for role in ["Writer", "Penciller", "Inker", "Colorist", "Letterer", "CoverArtist", "Editor"] {
            for name in (value(info, role) ?? "").split(separator: ",") {
                let name = name.trimmingCharacters(in: .whitespaces)
                if !name.isEmpty && !creators.contains(name) { creators.append(name) }
            }
        }
        metadata.creators = creators
        metadata.date = date(info)
        if metadata.title == nil, let series = metadata.series {
            metadata.title = metadata.number.map { "\(series) #\($0)" } ?? series
        }
        content.metadata = metadata
        content.rightToLeft = value(info, "Manga")?.lowercased() == "yesandrighttoleft"

        // <Pages><Page Image="0" Type="FrontCover" Bookmark="Chapter 1"/></Pages>
        let described = info.first("Pages")?.all("Page") ?? []
        var bookmarks: [TOCEntry] = []
        for page in described {
            guard let index = page.attribute("Image").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
                  pages.indices.contains(index) else { continue }
            if page.attribute("Type") == "FrontCover" { content.coverImage = pages[index] }
            if let mark = page.attribute("Bookmark")?.trimmingCharacters(in: .whitespaces), !mark.isEmpty {
                bookmarks.append(TOCEntry(title: mark, path: pages[index]))
            }
        }
        if !bookmarks.isEmpty { content.tableOfContents = bookmarks }
    }

    /// Year, Month, Day as far as they are known and make sense: "2024", "2024-03", "2024-03-09".
    private static func date(_ info: Markup.XMLElement) -> String? {
        guard let year = value(info, "Year").flatMap({ Int($0) }), (1000...9999).contains(year) else { return nil }
        guard let month = value(info, "Month").flatMap({ Int($0) }), (1...12).contains(month) else { return String(year) }
        let ym = String(format: "%04d-%02d", year, month)
        let monthLength = [31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard let day = value(info, "Day").flatMap({ Int($0) }), (1...monthLength[month - 1]).contains(day) else { return ym }
        return ym + String(format: "-%02d", day)
    }

    /// One entry per folder when the pages are split into folders (chapters).
    private static func chapters(_ pages: [String]) -> [TOCEntry] {
        var entries: [TOCEntry] = []
        var seen: Set<String> = []
        for page in pages {
            let folder = (page as NSString).deletingLastPathComponent
            if !seen.insert(folder).inserted { continue }
            entries.append(TOCEntry(title: folder.isEmpty ? "Pages" : (folder as NSString).lastPathComponent, path: page))
        }
        return entries.count > 1 ? entries : []
    }
}
