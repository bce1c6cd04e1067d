import Foundation
import Imaging
import NewsstandKit
import Terminal
import TextLayout

/// Drawing: the state into a canvas. Nothing here changes the library.
extension ShelfApp {
    static let minimumSize = (width: 40, height: 12)

    struct ShelfLayout {
        var coverColumns: Int
        var coverRows: Int
        var slotWidth: Int
        var perRow: Int
        var unitHeight: Int
        var left: Int
    }

    /// Cover size from the window: as large as fits, 2:3 boxes of square half-block pixels.
    func shelfLayout() -> ShelfLayout {
        let available = max(1, state.height - 3)
        let byHeight = max(6, (available - 4) * 4 / 3)
        let byWidth = max(6, min(26, (state.width - 4) / 4 - 4))
        let columns = min(byHeight, byWidth)
        let rows = max(4, columns * 3 / 4)
        let slot = columns + 6
        let perRow = max(1, (state.width - 2) / slot)
        let used = perRow * slot
        return ShelfLayout(coverColumns: columns, coverRows: rows, slotWidth: slot, perRow: perRow,
                           unitHeight: rows + 4, left: max(1, (state.width - used) / 2))
    }

    public func render() -> Canvas {
        let theme = env.theme
        var canvas = Canvas(width: state.width, height: state.height, fill: Cell(glyph: " ", style: theme.wall))
        resetHitRegions()
        painter.beginFrame()
        if state.width < ShelfApp.minimumSize.width || state.height < ShelfApp.minimumSize.height {
            let lines = ["Too small", "need \(ShelfApp.minimumSize.width)×\(ShelfApp.minimumSize.height)",
                         "have \(state.width)×\(state.height)"]
            for (i, line) in lines.enumerated() {
                canvas.put(line, x: max(0, (state.width - DisplayWidth.of(line)) / 2), y: max(0, state.height / 2 - 1 + i), style: theme.text)
            }
            return canvas
        }
        switch state.screen {
        case .shelf: drawShelf(into: &canvas)
        case .store: drawStore(into: &canvas)
        case .reader: reader?.view(into: &canvas)
        case .help: drawHelp(into: &canvas)
        }
        drawStatus(into: &canvas)
        return canvas
    }

    private func drawTitleBar(_ text: String, right: String, into canvas: inout Canvas) {
        let theme = env.theme
        canvas.fill(Rect(x: 0, y: 0, width: state.width, height: 1), with: Cell(glyph: " ", style: theme.statusLine))
        let room = state.width - DisplayWidth.of(right) - 3
        canvas.put(" " + DisplayWidth.truncate(text, to: room), x: 0, y: 0, style: theme.statusLine.with(.bold), limit: room + 1)
        canvas.put(right, x: state.width - DisplayWidth.of(right) - 1, y: 0, style: theme.statusLine)
    }

    // MARK: Shelf

    private func drawShelf(into canvas: inout Canvas) {
        let theme = env.theme
        let unread = state.summaries.reduce(0) { $0 + $1.unreadCount }
        drawTitleBar("NEWSSTAND", right: unread > 0 ? "\(unread) new" : counted(state.summaries.count, "publication"), into: &canvas)
        guard !state.summaries.isEmpty else {
            let message = "No subscriptions yet: newsstand subscribe URL"
            canvas.put(message, x: max(0, (state.width - DisplayWidth.of(message)) / 2), y: state.height / 2, style: theme.dimText)
            return
        }
        let layout = shelfLayout()
        let top = 2
        let visibleRows = max(1, (state.height - top - 2) / layout.unitHeight)
        let selectedRow = state.shelfSelection / layout.perRow
        let firstRow = max(0, selectedRow - visibleRows + 1)
        let rowCount = (state.summaries.count + layout.perRow - 1) / layout.perRow
        for row in firstRow..<min(rowCount, firstRow + visibleRows + 1) {
            let y = top + (row - firstRow) * layout.unitHeight
            guard y + layout.coverRows + 1 < state.height - 2 else { break }
            let boardY = y + layout.coverRows
            // The shelf board the covers stand on, and its front edge.
            canvas.fill(Rect(x: 0, y: boardY, width: state.width, height: 1), with: Cell(glyph: "▀", style: theme.shelf))
            canvas.fill(Rect(x: 0, y: boardY + 1, width: state.width, height: 1), with: Cell(glyph: "▀", style: theme.shelfEdge))
            for slot in 0..<layout.perRow {
                let index = row * layout.perRow + slot
                guard index < state.summaries.count else { break }
                let x = layout.left + slot * layout.slotWidth + 2
                drawPublication(state.summaries[index], index: index, x: x, y: y, layout: layout, into: &canvas)
            }
        }
    }

    private func drawPublication(_ summary: PublicationSummary, index: Int, x: Int, y: Int, layout: ShelfLayout, into canvas: inout Canvas) {
        let theme = env.theme
        let selected = index == state.shelfSelection
        let publication = summary.publication
        var coverRect = Rect(x: x, y: y, width: layout.coverColumns, height: layout.coverRows)
        if let file = summary.coverFile,
           let picture = painter.cover(file: file, columns: layout.coverColumns, rows: layout.coverRows,
                                       binding: publication.bindingType, edge: publication.bindingEdge, sash: summary.unreadCount > 0) {
            // Stand the cover on the shelf, centred in its slot, with a shadow on the wall.
            let px = x + (layout.coverColumns - picture.columns) / 2
            let py = y + layout.coverRows - picture.rows
            coverRect = Rect(x: px, y: py, width: picture.columns, height: picture.rows)
            for row in 1..<picture.rows { canvas[px + picture.columns, py + row] = Cell(glyph: "▌", style: theme.coverShadow) }
            ShelfApp.drawCoverPicture(picture, into: &canvas, x: px, y: py, behind: theme.wall)
        } else {
            drawPlaceholderCover(title: publication.title, rect: coverRect, into: &canvas)
        }
        addHitRegion(Rect(x: x - 1, y: y, width: layout.coverColumns + 2, height: layout.unitHeight - 1), .publication(index))
        let titleY = y + layout.coverRows + 2
        let title = DisplayWidth.truncate(Sanitizer.clean(publication.title), to: layout.slotWidth - 2)
        let titleX = x + (layout.coverColumns - DisplayWidth.of(title)) / 2
        canvas.put(title, x: titleX, y: titleY, style: selected ? theme.selection : theme.title)
        let info = summary.unreadCount > 0 ? "\(summary.unreadCount) new" : counted(summary.issueCount, "issue")
        canvas.put(info, x: x + (layout.coverColumns - DisplayWidth.of(info)) / 2, y: titleY + 1,
                   style: summary.unreadCount > 0 ? theme.sash : theme.dimText)
        if selected {
            canvas.put("▶", x: coverRect.x - 2, y: coverRect.y + coverRect.height / 2, style: theme.title)
        }
    }

    static func drawCoverPicture(_ picture: CellPicture, into canvas: inout Canvas, x: Int, y: Int, behind: Style) {
        CoverPainter.draw(picture, into: &canvas, x: x, y: y, behind: behind)
    }

    private func drawPlaceholderCover(title: String, rect: Rect, into canvas: inout Canvas) {
        let theme = env.theme
        canvas.fill(rect, with: Cell(glyph: " ", style: Style(foreground: theme.text.foreground, background: .rgb(0x55, 0x4a, 0x40))))
        let words = Sanitizer.clean(title).split(separator: " ").map(String.init)
        var line = ""
        var y = rect.y + 1
        for word in words {
            if DisplayWidth.of(line + " " + word) > rect.width - 2, !line.isEmpty {
                canvas.put(line, x: rect.x + 1, y: y, style: Style(foreground: theme.text.foreground, background: .rgb(0x55, 0x4a, 0x40)), limit: rect.maxX - 1)
                y += 1
                line = word
            } else {
                line = line.isEmpty ? word : line + " " + word
            }
        }
        if y < rect.maxY - 1 {
            canvas.put(line, x: rect.x + 1, y: y, style: Style(foreground: theme.text.foreground, background: .rgb(0x55, 0x4a, 0x40)), limit: rect.maxX - 1)
        }
    }

    // MARK: Store

    var storeTileHeight: Int { 9 }
    func storeVisibleTiles() -> Int { max(1, (state.height - 4) / storeTileHeight) }

    private func drawStore(into canvas: inout Canvas) {
        let theme = env.theme
        let publication = state.summaries.first { $0.publication.id == state.storePublicationID }?.publication
        drawTitleBar(Sanitizer.clean(publication?.title ?? "Issues"), right: counted(state.tiles.count, "issue"), into: &canvas)
        let visible = storeVisibleTiles()
        if state.storeSelection < state.storeScroll { state.storeScroll = state.storeSelection }
        if state.storeSelection >= state.storeScroll + visible { state.storeScroll = state.storeSelection - visible + 1 }
        let thumbColumns = 12
        let thumbRows = storeTileHeight - 2
        for (slot, index) in (state.storeScroll..<min(state.tiles.count, state.storeScroll + visible)).enumerated() {
            let tile = state.tiles[index]
            let y = 2 + slot * storeTileHeight
            let selected = index == state.storeSelection
            let x = 3
            if selected {
                canvas.fill(Rect(x: 0, y: y - 1, width: 1, height: thumbRows + 1), with: Cell(glyph: "▐", style: theme.title))
            }
            if let file = env.library.localFile(forCover: tile.issue.coverURL),
               let picture = painter.cover(file: file, columns: thumbColumns, rows: thumbRows, binding: nil, edge: nil,
                                           sash: tile.issue.unread && tile.issue.status == .available) {
                ShelfApp.drawCoverPicture(picture, into: &canvas, x: x + (thumbColumns - picture.columns) / 2,
                                          y: y + thumbRows - picture.rows, behind: theme.wall)
            } else {
                drawPlaceholderCover(title: tile.issue.title, rect: Rect(x: x, y: y, width: thumbColumns, height: thumbRows), into: &canvas)
            }
            addHitRegion(Rect(x: 0, y: y - 1, width: state.width, height: storeTileHeight), .issue(index))
            let textX = x + thumbColumns + 3
            let limit = state.width - 2
            canvas.put(DisplayWidth.truncate(Sanitizer.clean(tile.issue.title), to: max(1, limit - textX)), x: textX, y: y,
                       style: selected ? theme.selection : theme.title, limit: limit)
            canvas.put(TileMark.dateLine(tile.issue), x: textX, y: y + 1, style: theme.dimText, limit: limit)
            if let summary = tile.issue.summary {
                canvas.put(DisplayWidth.truncate(Sanitizer.clean(summary), to: max(1, limit - textX)), x: textX, y: y + 2, style: theme.text, limit: limit)
            }
            drawLabel(IssueLabel(tile), x: textX, y: y + 4, width: min(48, limit - textX), into: &canvas)
        }
        if state.tiles.isEmpty {
            canvas.put("This publication has no issues yet. Press r to refresh.", x: 3, y: 3, style: theme.dimText)
        }
    }

    private func drawLabel(_ label: IssueLabel, x: Int, y: Int, width: Int, into canvas: inout Canvas) {
        let theme = env.theme
        switch label {
        case .download:
            canvas.put("TAP TO DOWNLOAD", x: x, y: y, style: theme.title)
        case .waiting:
            canvas.put("WAITING…", x: x, y: y, style: theme.dimText)
        case .removedToSaveSpace:
            canvas.put("Removed to save space", x: x, y: y, style: theme.dimText)
            canvas.put("TAP TO DOWNLOAD", x: x, y: y + 1, style: theme.title)
        case .pausedForSpace(let reason):
            canvas.put(DisplayWidth.truncate(Sanitizer.clean(reason), to: max(1, state.width - x - 2)), x: x, y: y, style: theme.error)
        case .throttled(let next):
            canvas.put("Auto-download paused until " + Format.dayAndTime(next), x: x, y: y, style: theme.dimText)
            canvas.put("TAP TO DOWNLOAD", x: x, y: y + 1, style: theme.title)
        case .failed(let reason):
            canvas.put("FAILED: " + DisplayWidth.truncate(Sanitizer.clean(reason), to: max(1, state.width - x - 10)), x: x, y: y, style: theme.error)
            canvas.put("TAP TO TRY AGAIN", x: x, y: y + 1, style: theme.title)
        case .progress(let fraction, let bytes, let speed):
            let barWidth = max(10, min(30, width - 12))
            let filled = Int((fraction ?? 0) * Double(barWidth))
            canvas.put(String(repeating: "█", count: filled), x: x, y: y, style: theme.progressFilled)
            canvas.put(String(repeating: "░", count: barWidth - filled), x: x + filled, y: y, style: theme.progressEmpty)
            let percent = fraction.map { "\(Int(($0 * 100).rounded(.down)))%" } ?? Format.bytes(bytes)
            canvas.put(" " + percent, x: x + barWidth, y: y, style: theme.text)
            canvas.put(Format.speed(speed), x: x, y: y + 1, style: theme.dimText)
        case .read(let unread, let progress):
            var end = x
            if unread { end = canvas.put(" NEW ", x: x, y: y, style: theme.sash) + 1 }
            canvas.put("TAP TO READ", x: end, y: y, style: theme.title)
            if let progress, progress > 0 {
                let barWidth = 20
                let filled = Int(progress * Double(barWidth))
                canvas.put(String(repeating: "━", count: filled), x: x, y: y + 1, style: theme.progressFilled)
                canvas.put(String(repeating: "━", count: barWidth - filled), x: x + filled, y: y + 1, style: theme.progressEmpty)
                canvas.put(" read \(Int(progress * 100))%", x: x + barWidth, y: y + 1, style: theme.dimText)
            }
        }
    }

    // MARK: Help, status

    private func drawHelp(into canvas: inout Canvas) {
        let theme = env.theme
        drawTitleBar("Keys", right: "any key to close", into: &canvas)
        let keys = env.keyBindings
        let general = KeyBindings.helpRows.map { (keys.label($0.actions), $0.text) }
        let reading = [("Reader", "")] + ReaderScreen.helpLines
        // From the reader, its keys come first.
        let lines = state.previousScreen == .reader ? reading + [("", "")] + general : general + [("", "")] + reading
        let keyColumn = min(state.width / 2, 4 + (lines.map { DisplayWidth.of($0.0) }.max() ?? 0) + 2)
        for (i, line) in lines.enumerated() where 2 + i < state.height - 2 {
            canvas.put(line.0, x: 4, y: 2 + i, style: theme.title, limit: keyColumn - 1)
            canvas.put(line.1, x: keyColumn, y: 2 + i, style: theme.text, limit: state.width - 1)
        }
    }

    private func drawStatus(into canvas: inout Canvas) {
        let theme = env.theme
        let statusY = state.height - 2
        canvas.fill(Rect(x: 0, y: statusY, width: state.width, height: 1), with: Cell(glyph: " ", style: theme.statusLine))
        var status = state.status
        var statusIsError = state.statusIsError
        var right = ""
        if state.screen == .reader, let reader {
            // The reader's search prompt or message, and how far through the issue it is.
            let line = reader.statusLine
            if let text = line.text { status = text; statusIsError = line.isError }
            right = line.right
            canvas.put(right, x: max(0, state.width - DisplayWidth.of(right)), y: statusY, style: theme.statusLine)
        }
        if let status {
            var style = theme.statusLine
            if statusIsError { style.foreground = theme.error.foreground; style.attributes.insert(.bold) }
            canvas.put(" " + DisplayWidth.truncate(status, to: max(1, state.width - 3 - DisplayWidth.of(right))), x: 0, y: statusY, style: style)
        }
        let hints = hintText(for: state.screen)
        canvas.fill(Rect(x: 0, y: state.height - 1, width: state.width, height: 1), with: Cell(glyph: " ", style: theme.hintBar))
        canvas.put(" " + DisplayWidth.truncate(hints, to: state.width - 2), x: 0, y: state.height - 1, style: theme.hintBar, limit: state.width)
    }

    /// The bottom bar: the first key of the commonest actions, as bound.
    func hintText(for screen: Screen) -> String {
        let keys = env.keyBindings
        func hint(_ actions: [Action], _ text: String) -> String? {
            let label = keys.label(actions, all: false)
            return label.isEmpty ? nil : label + " " + text
        }
        let move = [Action.moveLeft, .down, .up, .moveRight]
        let items: [String?]
        switch screen {
        case .shelf:
            items = [hint(move, "move"), hint([.tap], "open"), hint([.download], "download"), hint([.filter], "filter"),
                     hint([.nextNew], "next new"), hint([.refresh], "refresh"), hint([.help], "help"), hint([.back], "quit")]
        case .store:
            items = [hint([.up, .down], "move"), hint([.tap], "tap"), hint([.download], "download"), hint([.remove], "remove"), hint([.pin], "pin"),
                     hint([.filter], "filter"), hint([.nextNew], "next new"), hint([.help], "help"), hint([.back], "back")]
        case .reader:
            // Comics, the contents list and the search prompt have the reader's own hints.
            if let own = reader?.ownHints { return own }
            items = [hint([.up, .down], "scroll"), hint([.pageDown], "page"), hint([.moveLeft, .moveRight], "article"),
                     "t contents", "/ search", "n/N match", "+/- width", hint([.help], "help"), hint([.back], "back")]
        case .help:
            items = ["any key to close"]
        }
        return items.compactMap { $0 }.joined(separator: "  ")
    }
}
