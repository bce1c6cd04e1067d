import Foundation
import NewsstandKit
import Pictures
import Terminal
import TextLayout

/// The shelf: every publication's newest cover standing on boards, the selected one marked.
/// A component: its own state (the selection, its filter and the publications it shows),
/// `update` returning what it asks of the app, and a pure `view`. Always at the bottom of
/// the stack of screens.
struct ShelfScreen {
    typealias Asked = [ShelfApp.ScreenEffect]

    var selection = 0
    private(set) var filter = TitleFilter()
    /// The publications shown: titles matching the filter.
    private(set) var summaries: [PublicationSummary] = []

    var selectedSummary: PublicationSummary? { summaries.indices.contains(selection) ? summaries[selection] : nil }

    struct Layout: Equatable {
        var coverColumns: Int
        var coverRows: Int
        var slotWidth: Int
        var perRow: Int
        var unitHeight: Int
        var left: Int
    }

    /// Covers are never wider than this (a 40×30 box): past it a window shows more of them.
    static let largestCover = 40
    /// More rows of shelves are not worth covers narrower than this.
    static let smallestComfortableCover = 16

    /// Cover size from the window and how many publications stand on the shelf: 2:3 boxes
    /// of square half-block pixels, as large as fits while every publication is on screen
    /// (more rows of smaller covers, down to a comfortable size), up to `largestCover`.
    /// The covers in use stand in the middle of the window.
    static func layout(width: Int, height: Int, count: Int) -> Layout {
        let shelfHeight = max(1, height - 4)        // below the title bar and its gap, above the status and hints
        let byWidth = max(6, min(largestCover, (width - 4) / 4 - 4))
        func columns(shelves: Int) -> Int { max(6, min(byWidth, (shelfHeight / shelves - 4) * 4 / 3)) }
        func perRow(_ columns: Int) -> Int { max(1, (width - 2) / (columns + 6)) }
        var shelves = 1
        while shelves * perRow(columns(shelves: shelves)) < count,
              columns(shelves: shelves + 1) >= smallestComfortableCover,
              perRow(columns(shelves: shelves + 1)) * (shelves + 1) > perRow(columns(shelves: shelves)) * shelves {
            shelves += 1
        }
        let coverColumns = columns(shelves: shelves)
        let rows = max(4, coverColumns * 3 / 4)
        let slot = coverColumns + 6
        let slots = perRow(coverColumns)
        let used = min(slots, max(1, count)) * slot
        return Layout(coverColumns: coverColumns, coverRows: rows, slotWidth: slot, perRow: slots,
                      unitHeight: rows + 4, left: max(1, (width - used) / 2))
    }

    func layout(width: Int, height: Int) -> Layout {
        Self.layout(width: width, height: height, count: summaries.count)
    }

    /// One row of covers on screen: its index among all rows and its top line.
    struct VisibleRow { var row: Int; var y: Int }

    /// The rows on screen: those up to the selection's, as many as fit below the title bar.
    /// Drawing and mouse taps both place covers from this.
    func visibleRows(height: Int, _ layout: Layout) -> [VisibleRow] {
        let top = 2
        let visibleRows = max(1, (height - top - 2) / layout.unitHeight)
        let firstRow = max(0, selection / layout.perRow - visibleRows + 1)
        let rowCount = (summaries.count + layout.perRow - 1) / layout.perRow
        var rows: [VisibleRow] = []
        for row in firstRow..<max(firstRow, min(rowCount, firstRow + visibleRows + 1)) {
            let y = top + (row - firstRow) * layout.unitHeight
            guard y + layout.coverRows + 1 < height - 2 else { break }
            rows.append(VisibleRow(row: row, y: y))
        }
        return rows
    }

    /// The left column of a cover box in its slot.
    static func coverX(slot: Int, _ layout: Layout) -> Int { layout.left + slot * layout.slotWidth + 2 }

    /// The publication whose cover or title is at a cell, as drawn.
    func publication(at x: Int, _ y: Int, width: Int, height: Int) -> Int? {
        let layout = layout(width: width, height: height)
        for row in visibleRows(height: height, layout) {
            for slot in 0..<layout.perRow {
                let index = row.row * layout.perRow + slot
                guard index < summaries.count else { break }
                let box = Rect(x: Self.coverX(slot: slot, layout) - 1, y: row.y, width: layout.coverColumns + 2, height: layout.unitHeight - 1)
                if box.contains(x: x, y: y) { return index }
            }
        }
        return nil
    }

    // MARK: Update

    /// What shows of the publications read: titles matching the filter, the selection
    /// staying on the same publication when the list changes.
    mutating func show(_ all: [PublicationSummary]) {
        let publication = selectedSummary?.publication.id
        summaries = filter.shown(all) { $0.publication.title }
        selection = ShelfApp.clamp(publication.flatMap { id in summaries.firstIndex { $0.publication.id == id } } ?? selection,
                                   count: summaries.count)
    }

    mutating func move(by delta: Int) {
        guard !summaries.isEmpty else { return }
        selection = max(0, min(summaries.count - 1, selection + delta))
    }

    mutating func update(_ key: Key, _ shared: ShelfApp.Shared) -> Asked {
        if filter.isEditing { return editFilter(key, shared) }
        guard let action = shared.keyBindings.action(for: key, on: .shelf) else { return [] }
        // Up and down move by a row of covers.
        let columns = layout(width: shared.width, height: shared.height).perRow
        switch action {
        case .moveLeft: move(by: -1)
        case .moveRight: move(by: 1)
        case .up: move(by: -columns)
        case .down: move(by: columns)
        case .pageUp: move(by: -columns * 2)
        case .pageDown: move(by: columns * 2)
        case .first: move(by: -Int.max / 2)
        case .last: move(by: Int.max / 2)
        case .tap: return openStore(shared)
        case .download:
            // The newest issue, as read with the shelf: no query on the key press.
            if let newest = selectedSummary?.newestIssue { return StoreScreen.tap(newest, allowRead: false) }
        case .refresh, .refreshAll:
            let all = action == .refreshAll
            return ShelfApp.refresh(all ? summaries.map(\.publication) : selectedSummary.map { [$0.publication] } ?? [], all: all)
        case .filter: return [filter.begin()]
        case .nextNew: return ShelfApp.selectNextNew(summaries.map { $0.unreadCount > 0 }, &selection)
        case .help: return [.help]
        case .quit: return [.quit]
        case .catalogs:
            return [.openCatalogs, .status(nil), .run(.readCatalogs)]
        case .searchEverything:
            return [.status(nil), .open(.search(SearchScreen()))]
        case .everyHighlight:
            return HighlightsScreen.open()
        case .back where key == .escape && !filter.text.isEmpty:
            // Escape takes a filter away before it leaves the screen.
            return editFilter(.escape, shared)
        case .back:
            // There is nothing behind the shelf: back quits, except Backspace, which is too easy to hit.
            if key != .backspace { return [.quit] }
        default: break
        }
        return []
    }

    /// A click selects a publication; a click on the selected one opens its store (as Enter).
    mutating func click(x: Int, y: Int, _ shared: ShelfApp.Shared) -> Asked {
        guard !filter.isEditing, let index = publication(at: x, y, width: shared.width, height: shared.height) else { return [] }
        if selection == index { return openStore(shared) }
        selection = index
        return []
    }

    /// Opens the selected publication's store; a filter belongs to the screen it was typed
    /// on, so the shelf's goes.
    mutating func openStore(_ shared: ShelfApp.Shared, issueToSelect: Int64? = nil) -> Asked {
        guard let id = selectedSummary?.publication.id else { return [] }
        filter = TitleFilter()
        show(shared.summaries)
        let store = StoreScreen(publicationID: id, issueToSelect: issueToSelect, asList: shared.storesShownAsList.contains(id))
        return [.status(nil), .open(.store(store)), .run(.readStore)]
    }

    private mutating func editFilter(_ key: Key, _ shared: ShelfApp.Shared) -> Asked {
        guard let status = filter.edit(key) else { return [] }
        show(shared.summaries)
        return [status]
    }

    // MARK: View

    /// Draws into the canvas, whose size is the window's.
    func view(_ context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        let theme = context.theme
        let width = canvas.width
        let unread = summaries.reduce(0) { $0 + $1.unreadCount }
        Chrome.titleBar("NEWSSTAND", right: unread > 0 ? "\(unread) new" : counted(summaries.count, "publication"),
                        theme: theme, into: &canvas)
        guard !summaries.isEmpty else {
            let message = "No subscriptions yet: newsstand subscribe URL"
            canvas.put(message, x: max(0, (width - DisplayWidth.of(message)) / 2), y: canvas.height / 2, style: theme.dimText)
            return
        }
        let layout = layout(width: width, height: canvas.height)
        let rows = visibleRows(height: canvas.height, layout)
        for row in rows {
            let boardY = row.y + layout.coverRows
            // The shelf board the covers stand on, and its front edge.
            canvas.fill(Rect(x: 0, y: boardY, width: width, height: 1), with: Cell(glyph: "▀", style: theme.shelf))
            canvas.fill(Rect(x: 0, y: boardY + 1, width: width, height: 1), with: Cell(glyph: "▀", style: theme.shelfEdge))
            for slot in 0..<layout.perRow {
                let index = row.row * layout.perRow + slot
                guard index < summaries.count else { break }
                Self.drawPublication(summaries[index], selected: index == selection,
                                     x: Self.coverX(slot: slot, layout), y: row.y, layout: layout, context: context, into: &canvas)
            }
        }
        if let first = rows.first, let last = rows.last {
            // Below the last row's titles, above the status line, when that line is free.
            let belowY = canvas.height - 3
            Chrome.scrollMarks(above: first.row * layout.perRow, below: max(0, summaries.count - (last.row + 1) * layout.perRow),
                               belowY: last.y + layout.coverRows + 3 < belowY ? belowY : nil, theme: theme, into: &canvas)
        }
    }

    private static func drawPublication(_ summary: PublicationSummary, selected: Bool, x: Int, y: Int, layout: Layout,
                                        context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        let theme = context.theme
        let publication = summary.publication
        var coverRect = Rect(x: x, y: y, width: layout.coverColumns, height: layout.coverRows)
        if let picture = context.shelfArt(summary, columns: layout.coverColumns, rows: layout.coverRows) {
            // Stand the cover on the shelf, centred in its slot, with a shadow on the wall.
            let px = x + (layout.coverColumns - picture.columns) / 2
            let py = y + layout.coverRows - picture.rows
            coverRect = Rect(x: px, y: py, width: picture.columns, height: picture.rows)
            for row in 1..<max(1, picture.rows) { canvas[px + picture.columns, py + row] = Cell(glyph: "▌", style: theme.coverShadow) }
            picture.draw(&canvas, px, py, theme.wall)
        } else {
            Chrome.placeholderCover(title: publication.title, rect: coverRect, theme: theme, into: &canvas)
        }
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
}
