import Foundation
import NewsstandKit
import Terminal
import TextLayout

/// What every screen shares: the title bar, the status line, the hint bar, and the
/// placeholder that stands in for a cover still rendering.
enum Chrome {
    static func titleBar(_ text: String, right: String, theme: Theme, into canvas: inout Canvas) {
        let width = canvas.width
        canvas.fill(Rect(x: 0, y: 0, width: width, height: 1), with: Cell(glyph: " ", style: theme.statusLine))
        let room = width - DisplayWidth.of(right) - 3
        canvas.put(" " + DisplayWidth.truncate(text, to: room), x: 0, y: 0, style: theme.statusLine.with(.bold), limit: room + 1)
        canvas.put(right, x: width - DisplayWidth.of(right) - 1, y: 0, style: theme.statusLine)
    }

    /// That a list goes on past the window: "▲ 3 more above" on the line under the title
    /// bar, "▼ 2 more below" on `belowY` (nil: that line is taken, it goes up there too),
    /// both at the right edge.
    static func scrollMarks(above: Int, below: Int, belowY: Int?, theme: Theme, into canvas: inout Canvas) {
        var top: [String] = []
        if above > 0 { top.append("▲ \(above) more above") }
        if below > 0 {
            let mark = "▼ \(below) more below"
            if let belowY { canvas.put(mark, x: max(0, canvas.width - DisplayWidth.of(mark) - 1), y: belowY, style: theme.dimText) }
            else { top.append(mark) }
        }
        guard !top.isEmpty else { return }
        let text = top.joined(separator: "  ")
        canvas.put(text, x: max(0, canvas.width - DisplayWidth.of(text) - 1), y: 1, style: theme.dimText)
    }

    static func placeholderCover(title: String, rect: Rect, theme: Theme, into canvas: inout Canvas) {
        let style = Style(foreground: theme.text.foreground, background: .rgb(0x55, 0x4a, 0x40))
        canvas.fill(rect, with: Cell(glyph: " ", style: style))
        let words = Sanitizer.clean(title).split(separator: " ").map(String.init)
        var line = ""
        var y = rect.y + 1
        for word in words {
            if DisplayWidth.of(line + " " + word) > rect.width - 2, !line.isEmpty {
                canvas.put(line, x: rect.x + 1, y: y, style: style, limit: rect.maxX - 1)
                y += 1
                line = word
            } else {
                line = line.isEmpty ? word : line + " " + word
            }
        }
        if y < rect.maxY - 1 {
            canvas.put(line, x: rect.x + 1, y: y, style: style, limit: rect.maxX - 1)
        }
    }

    /// A status shown whole (`State.statusWraps`) takes up to this many lines.
    static let maxStatusLines = 3

    /// The status line (the app's message, or the reader's and its progress) and the hint bar below it.
    static func statusAndHints(_ state: ShelfApp.State, theme: Theme, into canvas: inout Canvas) {
        let statusY = state.height - 2
        canvas.fill(Rect(x: 0, y: statusY, width: state.width, height: 1), with: Cell(glyph: " ", style: theme.statusLine))
        let passwordPrompt = state.screen == .store ? state.passwordPrompt : nil
        var status = passwordPrompt?.line ?? state.status
        var statusIsError = passwordPrompt?.wasWrong ?? state.statusIsError
        if state.screen == .catalog, let prompt = state.catalog.prompt {
            status = prompt.line
            statusIsError = false
        }
        if state.screen == .catalog, let signIn = state.catalog.signIn {
            status = signIn.line
            statusIsError = signIn.wrong
        }
        var right = ""
        if state.screen == .reader, let reader = state.reader {
            // The reader's search prompt or message, and how far through the issue it is.
            let line = reader.statusLine
            if let text = line.text { status = text; statusIsError = line.isError }
            right = line.right
            canvas.put(right, x: max(0, state.width - DisplayWidth.of(right)), y: statusY, style: theme.statusLine)
        }
        if let status {
            var style = theme.statusLine
            if statusIsError { style.foreground = theme.error.foreground; style.attributes.insert(.bold) }
            let room = max(1, state.width - 3 - DisplayWidth.of(right))
            // One that must be read whole (`statusWraps`), too long for one line and with nothing
            // beside it: wrapped upwards, up to three lines.
            let wraps = state.statusWraps && right.isEmpty && DisplayWidth.of(status) > room
            var lines = wraps ? LineWrap.wrap(status, width: room) : []
            if lines.count > maxStatusLines {
                lines = lines.prefix(maxStatusLines - 1) + [DisplayWidth.truncate(lines[(maxStatusLines - 1)...].joined(separator: " "), to: room)]
            }
            if lines.count > 1 {
                for (index, line) in lines.enumerated() {
                    let y = statusY - (lines.count - 1) + index
                    canvas.fill(Rect(x: 0, y: y, width: state.width, height: 1), with: Cell(glyph: " ", style: theme.statusLine))
                    canvas.put(" " + line, x: 0, y: y, style: style)
                }
            } else {
                canvas.put(" " + DisplayWidth.truncate(status, to: room), x: 0, y: statusY, style: style)
            }
        }
        let hints = fit(hints(state), width: state.width - 2)
        canvas.fill(Rect(x: 0, y: state.height - 1, width: state.width, height: 1), with: Cell(glyph: " ", style: theme.hintBar))
        canvas.put(" " + hints, x: 0, y: state.height - 1, style: theme.hintBar, limit: state.width)
    }

    /// One hint of the bottom bar and how much it matters: when the bar is too narrow the
    /// least important go first, so help and leaving always show.
    struct Hint: Equatable {
        var text: String
        var rank: Int

        static let essential = 100

        /// The reader's own bar, in its order: help and leaving are essential, then the
        /// earlier a hint comes the more it matters.
        static func ranked(_ hints: String) -> [Hint] {
            let items = hints.components(separatedBy: "  ").filter { !$0.isEmpty }
            return items.enumerated().map { index, text in
                let leaves = [" help", " back", " quit", " cancel"].contains { text.hasSuffix($0) }
                return Hint(text: text, rank: leaves ? essential : items.count - index)
            }
        }
    }

    /// The hints that fit in `width`, in their order, dropping the least important first
    /// (of equal ones, the later); cut only if the essential ones alone do not fit.
    static func fit(_ hints: [Hint], width: Int) -> String {
        var kept = hints
        func text() -> String { kept.map(\.text).joined(separator: "  ") }
        while DisplayWidth.of(text()) > width,
              let drop = kept.indices.filter({ kept[$0].rank < Hint.essential }).min(by: { (kept[$0].rank, -$0) < (kept[$1].rank, -$1) }) {
            kept.remove(at: drop)
        }
        return DisplayWidth.truncate(text(), to: max(1, width))
    }

    /// The bottom bar: the first key of the commonest actions, as bound, with what each
    /// does in plain words (what Enter does follows the selected issue).
    static func hints(_ state: ShelfApp.State) -> [Hint] {
        let keys = state.keyBindings
        func hint(_ actions: [Action], _ text: String, _ rank: Int) -> Hint? {
            let label = keys.label(actions, all: false)
            return label.isEmpty ? nil : Hint(text: label + " " + text, rank: rank)
        }
        let essential = Hint.essential
        if state.screen == .store, state.passwordPrompt != nil { return Hint.ranked(PasswordPrompt.hints) }
        if (state.screen == .shelf && state.shelf.filter.isEditing) || (state.screen == .store && state.store?.filter.isEditing == true) {
            return Hint.ranked("type to filter by title  Enter keep  Esc clear")
        }
        let move = [Action.moveLeft, .down, .up, .moveRight]
        let items: [Hint?]
        switch state.screen {
        case .shelf:
            items = [hint(move, "move", 7), hint([.tap], "open", 8), hint([.download], "download", 5), hint([.filter], "filter", 3),
                     hint([.nextNew], "next new", 2), hint([.refresh], "refresh", 4), hint([.searchEverything], "search", 1),
                     hint([.everyHighlight], "highlights", 0), hint([.help], "help", essential),
                     hint([.back], "quit", essential)]
        case .store:
            let issue = state.store?.selectedTile?.issue
            // Enter on an issue not here yet downloads it and opens it once it is, unless
            // `open_after_download = false`.
            let opens = issue.map { $0.status == .available || state.openAfterDownload } ?? false
            let enter = opens ? "read" : "download"
            let x = issue?.status == .downloading ? "cancel" : "remove"
            items = [hint([.up, .down], "move", 7), hint([.tap], enter, 8), hint([.download], "download", 3), hint([.remove], x, 6),
                     hint([.pin], "pin", 4), hint([.filter], "filter", 2), hint([.nextNew], "next new", 1),
                     hint([.listView], state.store?.asList == true ? "tiles" : "list", 0),
                     hint([.help], "help", essential), hint([.back], "back", essential)]
        case .reader:
            // Comics, the contents list and the search prompt have the reader's own hints.
            guard let reader = state.reader else { return [] }
            guard let ownHints = reader.ownHints else {
                items = [hint([.up, .down], "scroll", 7), hint([.pageDown], "page", 8), hint([.moveLeft, .moveRight], "article", 6),
                         Hint(text: "t contents", rank: 5), Hint(text: "/ search", rank: 4), Hint(text: "Tab links", rank: 3),
                         Hint(text: "n/N match", rank: 2),
                         Hint(text: "+/- width", rank: 1), hint([.help], "help", essential), hint([.back], "back", essential)]
                break
            }
            return Hint.ranked(ownHints)
        case .search:
            guard let search = state.search, !search.isEditing else { return Hint.ranked(SearchScreen.editingHints) }
            let issue = search.selected?.group.issue
            items = [issue == nil ? nil : hint([.up, .down], "move", 7), issue == nil ? nil : hint([.tap], "read", 8),
                     issue.map { $0.status == .available } ?? true ? nil : hint([.download], "download", 6),
                     hint([.filter], "new search", 5), hint([.help], "help", essential), hint([.back], "back", essential)]
        case .highlights:
            guard let screen = state.highlights, !screen.filter.isEditing else { return Hint.ranked(HighlightsScreen.filterHints) }
            let any = screen.selected != nil
            items = [any ? hint([.up, .down], "move", 7) : nil, any ? hint([.tap], "read", 8) : nil, any ? hint([.remove], "delete", 6) : nil,
                     hint([.filter], "filter", 5), hint([.help], "help", essential), hint([.back], "back", essential)]
        case .help:
            items = [hint([.down, .up], "scroll", 7), hint([.pageDown, .pageUp], "page", 6), hint([.first, .last], "top/end", 5),
                     hint([.back], "close", essential)]
        case .catalog:
            if state.catalog.signIn != nil { return Hint.ranked(CatalogSignIn.hints) }
            if state.catalog.prompt != nil { return [Hint(text: "Enter go", rank: essential), Hint(text: "Esc cancel", rank: essential)] }
            var list: [Hint?] = [hint([.up, .down], "move", 7), hint([.tap], "open", 8), hint([.help], "help", essential), hint([.back], "back", essential)]
            if let stop = state.catalog.page {
                if case .book? = stop.selectedRow { list[1] = hint([.tap], "take", 8) }
                if stop.page.search != nil { list.append(hint([.filter], "search", 5)) }
                if stop.page.isAcquisitionFeed { list.append(hint([.subscribe], "subscribe", 6)) }
                if stop.page.pages.next != nil || stop.page.pages.previous != nil { list.append(hint([.previousPage, .nextPage], "pages", 4)) }
            } else {
                list.append(hint([.addCatalog], "add", 6))
                if !state.catalog.catalogs.isEmpty { list.append(hint([.remove], "remove", 3)) }
            }
            items = list
        }
        return items.compactMap { $0 }
    }
}
