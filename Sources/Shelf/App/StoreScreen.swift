import Foundation
import NewsstandKit
import Pictures
import Terminal
import TextLayout

/// A publication's store: its issues newest first, one tile each, with what a tap does.
enum StoreScreen {
    static let tileHeight = 9
    static let thumbColumns = 12

    static func visibleTiles(height: Int) -> Int { max(1, (height - 4) / tileHeight) }

    /// Keeps the selected tile on screen: the scroll moves only as far as it must.
    static func followSelection(_ state: inout ShelfApp.State) {
        let visible = visibleTiles(height: state.height)
        if state.storeSelection < state.storeScroll { state.storeScroll = state.storeSelection }
        if state.storeSelection >= state.storeScroll + visible { state.storeScroll = state.storeSelection - visible + 1 }
        state.storeScroll = max(0, state.storeScroll)
    }

    /// The tiles on screen and the line each starts on; drawing and mouse taps both use it.
    static func visible(_ state: ShelfApp.State) -> [(index: Int, y: Int)] {
        let range = state.storeScroll..<max(state.storeScroll, min(state.tiles.count, state.storeScroll + visibleTiles(height: state.height)))
        return range.enumerated().map { slot, index in (index, 2 + slot * tileHeight) }
    }

    static func tile(at x: Int, _ y: Int, in state: ShelfApp.State) -> Int? {
        visible(state).first { Rect(x: 0, y: $0.y - 1, width: state.width, height: tileHeight).contains(x: x, y: y) }?.index
    }

    // MARK: Update

    static func open(_ state: inout ShelfApp.State) -> [ShelfApp.Effect] {
        guard let summary = state.selectedSummary, let id = summary.publication.id else { return [] }
        state.storePublicationID = id
        state.filter = ""          // a filter belongs to the screen it was typed on
        state.setStatus(nil)
        state.storeSelection = 0
        state.storeScroll = 0
        state.push(.store)
        state.allTiles = []
        state.storeIsRead = false
        ShelfApp.applyFilter(&state)
        return [.readStore]
    }

    static func move(_ state: inout ShelfApp.State, by delta: Int) {
        guard !state.tiles.isEmpty else { return }
        state.storeSelection = max(0, min(state.tiles.count - 1, state.storeSelection + delta))
    }

    static func perform(_ action: Action, on state: inout ShelfApp.State) -> [ShelfApp.Effect] {
        let page = visibleTiles(height: state.height)
        switch action {
        case .moveLeft, .up: move(&state, by: -1)
        case .moveRight, .down: move(&state, by: 1)
        case .pageUp: move(&state, by: -page)
        case .pageDown: move(&state, by: page)
        case .first: move(&state, by: -Int.max / 2)
        case .last: move(&state, by: Int.max / 2)
        case .tap: return tapSelected(&state, allowRead: true)
        case .download: return tapSelected(&state, allowRead: false)
        case .remove:
            guard let issue = state.selectedTile?.issue, let id = issue.id else { break }
            if issue.status == .available {
                state.confirmRemoval = id
                state.setStatus("Remove the downloaded content of “\(issue.shownTitle)”? (y/n)")
            } else if issue.status == .downloading {
                // The same key stops what is coming: removing something that is not there yet.
                state.confirmCancel = issue
                state.setStatus("Cancel the download of “\(issue.shownTitle)”? (y/n)")
            }
        case .pin:
            if let issue = state.selectedTile?.issue, let id = issue.id {
                state.setStatus(issue.pinned ? "Unpinned “\(issue.shownTitle)”."
                                : "Pinned “\(issue.shownTitle)”: it is never removed to save space.")
                return [.setPinned(issueID: id, !issue.pinned)]
            }
        case .back:
            state.pop()
            state.storePublicationID = nil
            state.filter = ""
            state.setStatus(nil)
            state.allTiles = []
            ShelfApp.applyFilter(&state)
        default: break
        }
        return []
    }

    static func tapSelected(_ state: inout ShelfApp.State, allowRead: Bool) -> [ShelfApp.Effect] {
        guard let tile = state.selectedTile else { return [] }
        return tap(tile.issue, allowRead: allowRead, on: &state)
    }

    /// "Tap": read what is here, download what is not.
    static func tap(_ issue: Issue, allowRead: Bool, on state: inout ShelfApp.State) -> [ShelfApp.Effect] {
        switch issue.status {
        case .available:
            if allowRead { return [.markOpened(issue)] }
            state.setStatus("“\(issue.shownTitle)” is already downloaded.")
        case .downloading:
            state.setStatus("“\(issue.shownTitle)” is downloading…")
        case .none:
            guard let id = issue.id else { return [] }
            state.setStatus("Downloading “\(issue.shownTitle)”…", cause: .download(issueID: id))
            return [.enqueue(issueID: id), .startAgent]
        }
        return []
    }

    // MARK: View

    static func view(_ state: ShelfApp.State, _ context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        let theme = context.theme
        let publication = state.summaries.first { $0.publication.id == state.storePublicationID }?.publication
        Chrome.titleBar(Sanitizer.clean(publication?.title ?? "Issues"), right: counted(state.tiles.count, "issue"), theme: theme, into: &canvas)
        let thumbRows = tileHeight - 2
        for (index, y) in visible(state) {
            let tile = state.tiles[index]
            let selected = index == state.storeSelection
            let x = 3
            if selected {
                canvas.fill(Rect(x: 0, y: y - 1, width: 1, height: thumbRows + 1), with: Cell(glyph: "▐", style: theme.title))
            }
            if let picture = context.tileArt(tile, columns: thumbColumns, rows: thumbRows) {
                picture.draw(&canvas, x + (thumbColumns - picture.columns) / 2, y + thumbRows - picture.rows, theme.wall)
            } else {
                Chrome.placeholderCover(title: tile.issue.shownTitle, rect: Rect(x: x, y: y, width: thumbColumns, height: thumbRows),
                                        theme: theme, into: &canvas)
            }
            let textX = x + thumbColumns + 3
            let limit = state.width - 2
            canvas.put(DisplayWidth.truncate(Sanitizer.clean(tile.issue.shownTitle), to: max(1, limit - textX)), x: textX, y: y,
                       style: selected ? theme.selection : theme.title, limit: limit)
            canvas.put(TileMark.dateLine(tile.issue), x: textX, y: y + 1, style: theme.dimText, limit: limit)
            if let summary = tile.issue.summary {
                canvas.put(DisplayWidth.truncate(Sanitizer.clean(summary), to: max(1, limit - textX)), x: textX, y: y + 2, style: theme.text, limit: limit)
            }
            drawLabel(IssueLabel(tile), x: textX, y: y + 4, width: min(48, limit - textX), screenWidth: state.width, theme: theme, into: &canvas)
        }
        if state.tiles.isEmpty, state.storeIsRead {
            canvas.put(Sanitizer.clean(EmptyStore.reason(for: publication)), x: 3, y: 3, style: theme.dimText, limit: canvas.width - 3)
        }
    }

    private static func drawLabel(_ label: IssueLabel, x: Int, y: Int, width: Int, screenWidth: Int, theme: Theme, into canvas: inout Canvas) {
        switch label {
        case .download:
            canvas.put("TAP TO DOWNLOAD", x: x, y: y, style: theme.title)
        case .waiting:
            canvas.put("WAITING…", x: x, y: y, style: theme.dimText)
        case .removedToSaveSpace:
            canvas.put("Removed to save space", x: x, y: y, style: theme.dimText)
            canvas.put("TAP TO DOWNLOAD", x: x, y: y + 1, style: theme.title)
        case .pausedForSpace(let reason):
            canvas.put(DisplayWidth.truncate(Sanitizer.clean(reason), to: max(1, screenWidth - x - 2)), x: x, y: y, style: theme.error)
        case .throttled(let next):
            canvas.put("Auto-download paused until " + Format.dayAndTime(next), x: x, y: y, style: theme.dimText)
            canvas.put("TAP TO DOWNLOAD", x: x, y: y + 1, style: theme.title)
        case .failed(let reason):
            canvas.put("FAILED: " + DisplayWidth.truncate(Sanitizer.clean(reason), to: max(1, screenWidth - x - 10)), x: x, y: y, style: theme.error)
            canvas.put("TAP TO TRY AGAIN", x: x, y: y + 1, style: theme.title)
        case .retrying(let why):
            // One line: the bar would sit at 0 B for as long as the retries take.
            canvas.put(DisplayWidth.truncate(Sanitizer.clean(why), to: max(1, screenWidth - x - 2)), x: x, y: y, style: theme.dimText)
        case .progress(let fraction, let bytes, let speed):
            let barWidth = max(10, min(30, width - 12))
            let filled = Int((fraction ?? 0) * Double(barWidth))
            canvas.put(String(repeating: "█", count: filled), x: x, y: y, style: theme.progressFilled)
            canvas.put(String(repeating: "░", count: barWidth - filled), x: x + filled, y: y, style: theme.progressEmpty)
            let percent = fraction.map { "\(Int(($0 * 100).rounded(.down)))%" } ?? ByteSize.format(bytes)
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
}
