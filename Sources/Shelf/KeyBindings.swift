import NewsstandKit
import Terminal

/// What a key asks for. The shelf and store dispatch on these; the reader receives the
/// ones it shares (moving, paging) as its own keys.
public enum Action: String, CaseIterable, Sendable {
    case moveLeft, moveRight, up, down, pageUp, pageDown, first, last
    case tap, download, remove, pin, refresh, refreshAll, filter, nextNew
    case help, back, quit
    /// The catalog screen: open it from the shelf; in it, the next and previous page of a
    /// paged feed, subscribe to the page shown, add a catalog by its URL, read a comic the
    /// server streams page by page (OPDS-PSE) without taking it.
    case catalogs, nextPage, previousPage, subscribe, addCatalog, readOnline
    /// The store: its issues as a list, one line each, or as tiles (kept per publication).
    case listView
    /// The shelf: the search screen, every issue's text (`SearchScreen`).
    case searchEverything
    /// The shelf: every highlight on the shelf (`HighlightsScreen`); the reader's `H` lists one issue's.
    case everyHighlight

    /// Actions whose default keys give way to a key the user bound to another action.
    static let laterDefaults: [Action] = [.catalogs, .nextPage, .previousPage, .subscribe, .addCatalog, .readOnline, .listView, .searchEverything, .everyHighlight]
}

/// Which keys do what, on which screen: the defaults, overridden by `[keys]` in
/// config.toml (`down = ["j", "Down"]`). Ctrl-C (quit) and Ctrl-Z (suspend) are fixed.
public struct KeyBindings: Sendable {
    /// One row per action: its default keys and the screens it works on. Adding an action:
    /// a case above, a row here, and its line in a `help…` list below.
    static let table: [(action: Action, keys: [Key], screens: Set<ShelfApp.Screen>)] = [
        (.moveLeft, [.left, .character("h")], [.shelf, .store, .reader]),
        (.moveRight, [.right, .character("l")], [.shelf, .store, .reader]),
        (.up, [.up, .character("k")], [.shelf, .store, .reader, .catalog, .help, .search, .highlights]),
        (.down, [.down, .character("j")], [.shelf, .store, .reader, .catalog, .help, .search, .highlights]),
        (.pageUp, [.pageUp, .character("b")], [.shelf, .store, .reader, .catalog, .help, .search, .highlights]),
        (.pageDown, [.pageDown, .character(" ")], [.shelf, .store, .reader, .catalog, .help, .search, .highlights]),
        (.first, [.home, .character("g")], [.shelf, .store, .reader, .catalog, .help, .search, .highlights]),
        (.last, [.end, .character("G")], [.shelf, .store, .reader, .catalog, .help, .search, .highlights]),
        (.tap, [.enter], [.shelf, .store, .catalog, .search, .highlights]),
        (.download, [.character("d")], [.shelf, .store, .catalog, .search]),
        (.remove, [.character("x")], [.store, .catalog, .highlights]),
        (.pin, [.character("p")], [.store]),
        (.refresh, [.character("r")], [.shelf, .store]),
        (.refreshAll, [.character("R")], [.shelf, .store]),
        (.filter, [.character("/")], [.shelf, .store, .catalog, .search, .highlights]),
        (.nextNew, [.character("n")], [.shelf, .store]),
        (.help, [.character("?")], [.shelf, .store, .reader, .catalog, .help, .search, .highlights]),
        (.back, [.character("q"), .escape, .backspace], [.shelf, .store, .reader, .catalog, .help, .search, .highlights]),
        (.quit, [.character("Q")], [.shelf, .store, .reader, .catalog, .help, .search, .highlights]),
        (.catalogs, [.character("c")], [.shelf]),
        (.nextPage, [.character("]")], [.catalog]),
        (.previousPage, [.character("[")], [.catalog]),
        (.subscribe, [.character("s")], [.catalog]),
        (.addCatalog, [.character("a")], [.catalog]),
        (.readOnline, [.character("r")], [.catalog]),
        (.listView, [.character("v")], [.store]),
        (.searchEverything, [.character("S")], [.shelf]),
        (.everyHighlight, [.character("H")], [.shelf]),
    ]

    public static let defaults = KeyBindings(keys: Dictionary(uniqueKeysWithValues: table.map { ($0.action, $0.keys) }))

    private(set) var keys: [Action: [Key]]
    private var byScreen: [ShelfApp.Screen: [Key: Action]] = [:]

    private init(keys: [Action: [Key]]) {
        self.keys = keys
        for row in KeyBindings.table {
            for key in keys[row.action] ?? [] {
                for screen in row.screens { byScreen[screen, default: [:]][key] = row.action }
            }
        }
    }

    /// The defaults with config.toml's `[keys]` applied; an unknown action or key name, or
    /// a key that would do two things on one screen, is refused with the file, line and reason.
    public init(config: Config) throws {
        var keys = KeyBindings.defaults.keys
        var lines: [Action: Int] = [:]
        for entry in config.keys {
            func fail(_ message: String) -> ConfigError { ConfigError(file: config.file, line: entry.line, message: "keys.\(entry.action): " + message) }
            guard let action = Action(rawValue: entry.action) else {
                throw fail("'\(entry.action)' is not an action (actions: \(Action.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            var bound: [Key] = []
            for name in entry.keys {
                switch Key.named(name) {
                case .success(let key):
                    if key == .control("c") || key == .control("z") { throw fail("Ctrl-C (quit) and Ctrl-Z (suspend) cannot be rebound") }
                    if !bound.contains(key) { bound.append(key) }
                case .failure(let error):
                    throw fail("\(error)")
                }
            }
            keys[action] = bound
            lines[action] = entry.line
        }
        // The catalog screen's keys came after many configs were written: a default of
        // theirs that the user gave another action goes, rather than refusing the config.
        let written = Set(lines.keys.flatMap { keys[$0] ?? [] })
        for action in Action.laterDefaults where lines[action] == nil {
            keys[action] = keys[action]?.filter { !written.contains($0) }
        }
        self.init(keys: keys)
        // One key, one action per screen.
        for screen in [ShelfApp.Screen.shelf, .store, .reader, .catalog, .help, .search, .highlights] {
            let rows = KeyBindings.table.filter { $0.screens.contains(screen) }
            var owner: [Key: Action] = [:]
            for row in rows {
                for key in keys[row.action] ?? [] {
                    guard let other = owner[key] else { owner[key] = row.action; continue }
                    // Blame the line written last (or the only one written).
                    let rowLast = (lines[row.action] ?? -1) >= (lines[other] ?? -1)
                    let (mine, theirs) = rowLast ? (row.action, other) : (other, row.action)
                    throw ConfigError(file: config.file, line: lines[mine], message:
                        "keys.\(mine.rawValue): \"\(key.label)\" is already \(theirs.rawValue)'s key on the \(screen.name) (rebind \(theirs.rawValue) too)")
                }
            }
        }
    }

    /// What `key` does on `screen`, if anything.
    func action(for key: Key, on screen: ShelfApp.Screen) -> Action? { byScreen[screen]?[key] }

    func keys(for action: Action) -> [Key] { keys[action] ?? [] }

    /// Keys for help: of several actions, the first keys side by side ("←↓↑→"), then the
    /// second ones ("hjkl"); names are separated by "/". For hints (`all: false`), only
    /// each action's shortest key.
    func label(_ actions: [Action], all: Bool = true) -> String {
        let lists = actions.map { list in
            all ? keys(for: list) : keys(for: list).min { $0.label.count < $1.label.count }.map { [$0] } ?? []
        }
        var parts: [String] = []
        for index in 0..<(lists.map(\.count).max() ?? 0) {
            let labels = lists.compactMap { $0.indices.contains(index) ? $0[index].label : nil }
            parts.append(labels.allSatisfy { $0.count == 1 } ? labels.joined() : labels.joined(separator: "/"))
        }
        return parts.joined(separator: " ")
    }

    /// The help screen's lines (`HelpScreen`), a section per screen: the keys of some
    /// actions, and what they do.
    static let helpEverywhere: [(actions: [Action], text: String)] = [
        ([.help], "this help (↑↓ scroll it, q closes it)"),
        ([.back], "back one level; quit on the shelf (Esc first cancels what is typed)"),
        ([.quit], "quit"),
    ]

    static let helpShelfAndStore: [(actions: [Action], text: String)] = [
        ([.moveLeft, .down, .up, .moveRight], "move"),
        ([.pageUp, .pageDown], "page up, down"),
        ([.first, .last], "first, last"),
        ([.tap], "open the store; read the issue, or download it and read it once here"),
        ([.download], "download"),
        ([.remove], "remove the content, or cancel its download (asks)"),
        ([.pin], "pin / unpin: a pinned issue is never removed to save space"),
        ([.refresh, .refreshAll], "refresh this / all publications"),
        ([.filter], "filter by title (Enter keeps, Escape clears)"),
        ([.nextNew], "next NEW"),
        ([.listView], "a store's issues as a list or as tiles (kept for each publication)"),
        ([.catalogs], "catalogs (OPDS), from the shelf"),
        ([.searchEverything], "search every issue (from the shelf): words, harbo*, \"a phrase\", -word, in:publication"),
        ([.everyHighlight], "every highlight (from the shelf): Enter reads it, x deletes it, / filters by words and in:publication"),
    ]

    static let helpCatalogs: [(actions: [Action], text: String)] = [
        ([.down, .up], "move"),
        ([.pageUp, .pageDown], "page up, down"),
        ([.tap], "open a catalog or a link; take a book (and download it)"),
        ([.filter], "search the catalog"),
        ([.previousPage, .nextPage], "previous, next page"),
        ([.subscribe], "subscribe to the books shown"),
        ([.addCatalog], "add a catalog by its URL"),
        ([.remove], "forget the selected catalog"),
        ([.readOnline], "read a comic online, page by page"),
        ([.back], "back to the page before, the catalogs, the shelf"),
    ]
}

extension ShelfApp.Screen {
    var name: String {
        switch self {
        case .shelf: return "shelf"
        case .store: return "store"
        case .reader: return "reader"
        case .help: return "help"
        case .catalog: return "catalog screen"
        case .search: return "search screen"
        case .highlights: return "highlights screen"
        }
    }
}
