import Foundation
import NewsstandKit
import Pictures
import Terminal
import TextLayout

/// A publication's store: its issues newest first, one tile each, with what a tap does.
/// A component: its own state (the publication, the selection and scroll, its filter, the
/// prompts it shows: a removal or cancel asked, a PDF's password), `update` returning what
/// it asks of the app, and a pure `view`.
struct StoreScreen {
    typealias Asked = [ShelfApp.ScreenEffect]

    static let tileHeight = 9
    static let thumbColumns = 12
    /// How many keys typed ahead into a store still being read are kept.
    static let keysKeptUntilRead = 64

    let publicationID: Int64
    var selection = 0
    /// The first tile shown; follows the selection (see `followSelection`).
    var scroll = 0
    /// The store's issues have been read (they are read after it opens).
    var isRead = false
    /// Keys typed into the store while its issues are still being read (Enter, then at once
    /// Down, Down, p): kept in order and handled once they arrive, so none acts on an
    /// empty store or is lost.
    var keysAwaiting: [Key] = []
    /// The issue to select once the issues are read (`newsstand read`).
    var issueToSelect: Int64?
    /// The issues as last read, and those shown: titles matching the filter.
    private(set) var allTiles: [IssueTile] = []
    private(set) var tiles: [IssueTile] = []
    private(set) var filter = TitleFilter()
    /// `x` asked whether to remove this issue's content; the next key answers.
    private(set) var confirmRemoval: Int64?
    /// `x` asked whether to cancel this issue's download; the next key answers.
    private(set) var confirmCancel: Issue?
    /// An encrypted PDF asked for its password; keys go to the prompt.
    var passwordPrompt: PasswordPrompt?
    /// Enter asked for this issue, not downloaded yet: it opens once it is here, if still chosen.
    private(set) var openWhenDownloaded: Int64?
    /// The issues as a list, one line each (`v`), rather than tiles: for a store of many.
    private(set) var asList: Bool

    init(publicationID: Int64, issueToSelect: Int64? = nil, asList: Bool = false) {
        self.publicationID = publicationID
        self.issueToSelect = issueToSelect
        self.asList = asList
    }

    var selectedTile: IssueTile? { tiles.indices.contains(selection) ? tiles[selection] : nil }

    /// How many issues fit: tiles below the title bar, or list lines down to the line
    /// above the status line (kept for "▼ more below").
    func visibleCount(height: Int) -> Int { asList ? max(1, height - 5) : Self.visibleTiles(height: height) }

    static func visibleTiles(height: Int) -> Int { max(1, (height - 4) / tileHeight) }

    /// Keeps the selected tile on screen: the scroll moves only as far as it must.
    mutating func followSelection(height: Int) {
        let visible = visibleCount(height: height)
        if selection < scroll { scroll = selection }
        if selection >= scroll + visible { scroll = selection - visible + 1 }
        scroll = max(0, scroll)
    }

    /// The tiles (or list lines) on screen and the line each starts on; drawing and mouse taps both use it.
    func visible(height: Int) -> [(index: Int, y: Int)] {
        let range = scroll..<max(scroll, min(tiles.count, scroll + visibleCount(height: height)))
        let step = asList ? 1 : Self.tileHeight
        return range.enumerated().map { slot, index in (index, 2 + slot * step) }
    }

    func tile(at x: Int, _ y: Int, width: Int, height: Int) -> Int? {
        let box = asList ? (top: 0, height: 1) : (top: -1, height: Self.tileHeight)
        return visible(height: height).first { Rect(x: 0, y: $0.y + box.top, width: width, height: box.height).contains(x: x, y: y) }?.index
    }

    // MARK: Update

    /// A key typed before the issues arrive is kept for them (true), up to `keysKeptUntilRead`.
    mutating func keepUntilRead(_ key: Key) -> Bool {
        guard !isRead, keysAwaiting.count < Self.keysKeptUntilRead else { return false }
        keysAwaiting.append(key)
        return true
    }

    /// The issues as read: the one asked for selected, the filter applied.
    mutating func read(_ tiles: [IssueTile]) {
        allTiles = tiles
        isRead = true
        if let id = issueToSelect {
            selection = tiles.firstIndex { $0.issue.id == id } ?? 0
            issueToSelect = nil
        }
    }

    /// What shows of the issues read: titles matching the filter, the selection staying on
    /// the same issue when the list changes.
    mutating func applyFilter() {
        let issue = selectedTile?.issue.id
        tiles = filter.shown(allTiles) { $0.issue.title }
        selection = ShelfApp.clamp(issue.flatMap { id in tiles.firstIndex { $0.issue.id == id } } ?? selection, count: tiles.count)
    }

    mutating func move(by delta: Int) {
        guard !tiles.isEmpty else { return }
        selection = max(0, min(tiles.count - 1, selection + delta))
    }

    mutating func update(_ key: Key, _ shared: ShelfApp.Shared) -> Asked {
        if filter.isEditing { return editFilter(key) }
        if passwordPrompt != nil { return editPassword(key) }
        let yes = key == .character("y") || key == .character("Y")
        if let id = confirmRemoval {
            confirmRemoval = nil
            return yes ? [.run(.evictContent(issueID: id))] : [.status("Kept.")]
        }
        if let issue = confirmCancel {
            confirmCancel = nil
            guard yes, let id = issue.id else { return [.status("The download goes on.")] }
            return [.status("Cancelling the download of “\(issue.title)”…"), .run(.cancelDownload(issueID: id))]
        }
        guard let action = shared.keyBindings.action(for: key, on: .store) else { return [] }
        let page = visibleCount(height: shared.height)
        switch action {
        case .moveLeft, .up: move(by: -1)
        case .moveRight, .down: move(by: 1)
        case .pageUp: move(by: -page)
        case .pageDown: move(by: page)
        case .first: move(by: -Int.max / 2)
        case .last: move(by: Int.max / 2)
        case .tap: return tapSelected(allowRead: true, shared)
        case .download: return tapSelected(allowRead: false, shared)
        case .remove:
            guard let issue = selectedTile?.issue, let id = issue.id else { break }
            if issue.status == .available {
                confirmRemoval = id
                return [.status("Remove the downloaded content of “\(issue.shownTitle)”? (y/n)")]
            } else if issue.status == .downloading {
                // The same key stops what is coming: removing something that is not there yet.
                confirmCancel = issue
                return [.status("Cancel the download of “\(issue.shownTitle)”? (y/n)")]
            }
        case .pin:
            if let issue = selectedTile?.issue, let id = issue.id {
                return [.status(issue.pinned ? "Unpinned “\(issue.shownTitle)”."
                                : "Pinned “\(issue.shownTitle)”: it is never removed to save space."),
                        .run(.setPinned(issueID: id, !issue.pinned))]
            }
        case .refresh, .refreshAll:
            let all = action == .refreshAll
            let publication = shared.summaries.first { $0.publication.id == publicationID }?.publication
            return ShelfApp.refresh(all ? shared.summaries.map(\.publication) : publication.map { [$0] } ?? [], all: all)
        case .filter: return [filter.begin()]
        case .nextNew: return ShelfApp.selectNextNew(tiles.map { $0.issue.unread && $0.issue.status == .available }, &selection)
        case .listView:
            asList.toggle()
            scroll = selection   // `followSelection` brings back as many before it as fit
            followSelection(height: shared.height)
            return [.keepStoreView(publicationID: publicationID, asList: asList)]
        case .help: return [.help]
        case .quit: return [.quit]
        case .back where key == .escape && !filter.text.isEmpty:
            // Escape takes a filter away before it leaves the screen.
            return editFilter(.escape)
        case .back:
            return [.close, .status(nil)]
        default: break
        }
        return []
    }

    /// A click selects a tile; a click on the selected one taps it (as Enter).
    mutating func click(x: Int, y: Int, _ shared: ShelfApp.Shared) -> Asked {
        guard !filter.isEditing, passwordPrompt == nil,
              let index = tile(at: x, y, width: shared.width, height: shared.height) else { return [] }
        if selection == index { return tapSelected(allowRead: true, shared) }
        selection = index
        return []
    }

    private mutating func editFilter(_ key: Key) -> Asked {
        guard let status = filter.edit(key) else { return [] }
        applyFilter()
        return [status]
    }

    /// Keys while the password prompt is up: none reach the store behind it.
    private mutating func editPassword(_ key: Key) -> Asked {
        guard var prompt = passwordPrompt else { return [] }
        switch prompt.update(key) {
        case .stay:
            passwordPrompt = prompt
        case .giveUp:
            passwordPrompt = nil
            return [.status("“\(prompt.issue.title)” stays closed: it needs its password.")]
        case .tryPassword(let password):
            passwordPrompt = nil
            return [.status("Opening “\(prompt.issue.title)”…"), .run(.openReader(prompt.issue, password: password))]
        }
        return []
    }

    /// Enter or a click taps the issue chosen; one not downloaded opens once it is here
    /// (`open_after_download`), `d` only downloads.
    mutating func tapSelected(allowRead: Bool, _ shared: ShelfApp.Shared) -> Asked {
        guard let issue = selectedTile?.issue else { return [] }
        if allowRead, shared.openAfterDownload, issue.status != .available { openWhenDownloaded = issue.id }
        return Self.tap(issue, allowRead: allowRead)
    }

    /// The issue Enter asked for, now downloaded and still chosen: the app opens it. One
    /// no longer chosen is forgotten (one whose download failed opens if the agent's retry brings it).
    mutating func takeDownloadedToOpen() -> Issue? {
        guard let id = openWhenDownloaded else { return nil }
        guard let issue = selectedTile?.issue, issue.id == id else { openWhenDownloaded = nil; return nil }
        guard issue.status == .available else { return nil }
        openWhenDownloaded = nil
        return issue
    }

    /// "Tap": read what is here, download what is not.
    static func tap(_ issue: Issue, allowRead: Bool) -> Asked {
        switch issue.status {
        case .available:
            if allowRead { return [.run(.markOpened(issue))] }
            return [.status("“\(issue.shownTitle)” is already downloaded.")]
        case .downloading:
            return [.status("“\(issue.shownTitle)” is downloading…")]
        case .none:
            guard let id = issue.id else { return [] }
            return [.status("Downloading “\(issue.shownTitle)”…", cause: .download(issueID: id)), .run(.enqueue(issueID: id)), .run(.startAgent)]
        }
    }

    // MARK: View

    /// Draws into the canvas, whose size is the window's.
    func view(_ shared: ShelfApp.Shared, _ context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        let theme = context.theme
        let thumbColumns = Self.thumbColumns
        let publication = shared.summaries.first { $0.publication.id == publicationID }?.publication
        Chrome.titleBar(Sanitizer.clean(publication?.title ?? "Issues"), right: counted(tiles.count, "issue"), theme: theme, into: &canvas)
        if asList { viewList(shared, theme: theme, into: &canvas) } else { viewTiles(shared, context, into: &canvas) }
        if let first = visible(height: shared.height).first?.index {
            // The line above the status line is below every tile and list line (`visibleCount`).
            Chrome.scrollMarks(above: first, below: max(0, tiles.count - first - visibleCount(height: shared.height)),
                               belowY: canvas.height - 3, theme: theme, into: &canvas)
        }
        if tiles.isEmpty, isRead {
            canvas.put(Sanitizer.clean(EmptyStore.reason(for: publication)), x: 3, y: 3, style: theme.dimText, limit: canvas.width - 3)
        }
    }

    /// One line an issue: its title, author, date, where it stands, how far it is read.
    private func viewList(_ shared: ShelfApp.Shared, theme: Theme, into canvas: inout Canvas) {
        let width = canvas.width
        let dateWidth = 11, statusWidth = 15, progressWidth = 9    // "20 Nov 2026", "removed (space)", "read 100%"
        let authorWidth = width >= 100 ? 22 : 12
        // What is left goes to the title; each column is followed by a space.
        let titleWidth = max(8, width - 3 - (authorWidth + 1) - (dateWidth + 1) - (statusWidth + 1) - progressWidth - 1)
        for (index, y) in visible(height: shared.height) {
            let issue = tiles[index].issue
            let selected = index == selection
            if selected { canvas[0, y] = Cell(glyph: "▐", style: theme.title) }
            var x = 2
            func column(_ text: String, _ columnWidth: Int, _ style: Style) {
                guard columnWidth > 0 else { return }
                canvas.put(DisplayWidth.truncate(Sanitizer.clean(text), to: columnWidth), x: x, y: y, style: style, limit: min(width - 1, x + columnWidth))
                x += columnWidth + 1
            }
            column(issue.shownTitle, titleWidth, selected ? theme.selection : theme.title)
            column(TileMark.authors(issue), authorWidth, theme.dimText)
            column(Format.day(issue.date), dateWidth, theme.dimText)
            let (status, progress) = Self.listStatus(IssueLabel(tiles[index]))
            column(status, statusWidth, status == "NEW" ? theme.sash : theme.text)
            column(progress, min(progressWidth, width - 1 - x), theme.dimText)
        }
    }

    /// A list line's words for where an issue stands, and how far it is read or downloaded.
    static func listStatus(_ label: IssueLabel) -> (status: String, progress: String) {
        switch label {
        case .download: return ("not downloaded", "")
        case .waiting: return ("waiting…", "")
        case .removedToSaveSpace: return ("removed (space)", "")
        case .pausedForSpace: return ("paused: no room", "")
        case .throttled: return ("held back a day", "")
        case .failed: return ("failed", "")
        case .retrying: return ("retrying…", "")
        case .progress(let fraction, let bytes, _):
            return ("downloading", fraction.map { "\(Int(($0 * 100).rounded(.down)))%" } ?? ByteSize.format(bytes))
        case .read(let unread, let progress):
            return (unread ? "NEW" : "ready", progress.flatMap { $0 > 0 ? "read \(Int($0 * 100))%" : nil } ?? "")
        }
    }

    /// A tile an issue: its thumbnail, title, date, summary and label.
    private func viewTiles(_ shared: ShelfApp.Shared, _ context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        let theme = context.theme
        let thumbColumns = Self.thumbColumns
        let thumbRows = Self.tileHeight - 2
        for (index, y) in visible(height: shared.height) {
            let tile = tiles[index]
            let selected = index == selection
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
            let limit = shared.width - 2
            canvas.put(DisplayWidth.truncate(Sanitizer.clean(tile.issue.shownTitle), to: max(1, limit - textX)), x: textX, y: y,
                       style: selected ? theme.selection : theme.title, limit: limit)
            canvas.put(DisplayWidth.truncate(Sanitizer.clean(TileMark.dateLine(tile.issue)), to: max(1, limit - textX)), x: textX, y: y + 1,
                       style: theme.dimText, limit: limit)
            if let summary = tile.issue.summary {
                canvas.put(DisplayWidth.truncate(Sanitizer.clean(summary), to: max(1, limit - textX)), x: textX, y: y + 2, style: theme.text, limit: limit)
            }
            Self.drawLabel(IssueLabel(tile), x: textX, y: y + 4, width: min(48, limit - textX), screenWidth: shared.width,
                           theme: theme, into: &canvas)
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
