import Foundation

/// Highlights kept in step with calibre's content server, for a book synced there: merged by
/// id, the newer edit winning (calibre's `timestamp` against our `modified`), a deletion
/// (ours a tombstone, calibre's `removed`) staying deleted. One made in calibre's viewer is
/// added here by its words (found again in the text when the issue is opened) and its place
/// in calibre's CFI; ours go to calibre in its viewer's own shape (`HighlightExport.calibre`'s).
struct CalibreHighlights {
    var store: LibraryStore
    var server: CalibreContentServer

    func merge(_ theirs: [CalibreContentServer.Highlight], into issue: Issue, book: CalibreBook) throws {
        guard let issueID = issue.id else { return }
        let ours = Dictionary(try store.highlightsWithTombstones(issueID: issueID).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var known = Set<String>()
        for their in theirs where their.type == "highlight" {
            known.insert(their.uuid)
            guard let changed = ISOTime.date(their.timestamp) else { continue }
            if let mine = ours[their.uuid] {
                guard changed > mine.modified, !mine.deleted else { continue }
                _ = try store.updateHighlight(id: mine.id) { highlight in
                    highlight.deleted = their.removed ?? false
                    highlight.note = their.notes.flatMap { $0.isEmpty ? nil : $0 }
                    highlight.color = Self.color(their.style)
                    highlight.modified = changed
                }
            } else if their.removed != true, let made = Self.highlight(their, issueID: issueID, at: changed) {
                try store.insertHighlight(made)
            }
        }
        let send = ours.values.compactMap { mine -> CalibreContentServer.Highlight? in
            if let their = theirs.first(where: { $0.uuid == mine.id }), let at = ISOTime.date(their.timestamp), at >= mine.modified { return nil }
            if mine.deleted && !known.contains(mine.id) { return nil }  // never reached calibre: nothing to delete there
            return Self.calibre(mine)
        }
        if !send.isEmpty { try server.updateAnnotations(of: book, highlights: send) }
    }

    /// Ours as calibre's viewer keeps a highlight; nil for one without an EPUB CFI.
    static func calibre(_ mine: Highlight) -> CalibreContentServer.Highlight? {
        let stamp = ISOTime.string(mine.modified)
        if mine.deleted { return CalibreContentServer.Highlight(uuid: mine.id, timestamp: stamp, removed: true) }
        guard let cfi = mine.cfi, let parts = HighlightCFI.parts(of: cfi) else { return nil }
        return CalibreContentServer.Highlight(uuid: mine.id, timestamp: stamp, start_cfi: "/2" + parts.start, end_cfi: "/2" + parts.end,
                                              spine_index: parts.spineIndex, spine_name: mine.resource, highlighted_text: mine.quote.exact,
                                              notes: mine.note, style: HighlightExport.calibreStyle(mine.color),
                                              toc_family_titles: mine.chapter.map { [$0] } ?? [])
    }

    /// calibre's highlight made ours: its words, its spine item and its CFI in our form.
    static func highlight(_ their: CalibreContentServer.Highlight, issueID: Int64, at changed: Date) -> Highlight? {
        guard let text = their.highlighted_text, !text.isEmpty else { return nil }
        let spine = their.spine_index ?? 0
        var cfi: String?
        if let start = their.start_cfi, let end = their.end_cfi, start.hasPrefix("/2"), end.hasPrefix("/2") {
            cfi = "epubcfi(/6/\(2 * (spine + 1))!,\(start.dropFirst(2)),\(end.dropFirst(2)))"
        }
        return Highlight(id: their.uuid, issueID: issueID,
                         locator: Locator(resource: their.spine_name ?? "", progression: 0, totalProgression: 0, updated: changed),
                         position: spine, textOffset: 0, quote: TextQuoteSelector(exact: text), cfi: cfi, color: color(their.style),
                         note: their.notes.flatMap { $0.isEmpty ? nil : $0 }, chapter: their.toc_family_titles?.last,
                         created: changed, modified: changed)
    }

    static func color(_ style: [String: String]?) -> Highlight.Color {
        switch style?["which"] {
        case "green": .green
        case "blue": .blue
        case "red", "purple": .pink
        case "wavy", "strikeout": .underline
        default: .yellow
        }
    }
}
