import Foundation
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// `[keys]` in config.toml: parsed, checked, and obeyed by the shelf, store and reader.
@Suite(.serialized) struct KeyBindingTests {
    func bindings(_ toml: String) throws -> KeyBindings {
        try KeyBindings(config: Config.parse(toml, file: "/home/u/.config/newsstand/config.toml"))
    }

    func refusal(_ toml: String) -> String {
        do {
            _ = try bindings(toml)
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test func theDefaultsAreTodaysKeys() {
        let keys = KeyBindings.defaults
        #expect(keys.action(for: .down, on: .shelf) == .down)
        #expect(keys.action(for: .character("j"), on: .store) == .down)
        #expect(keys.action(for: .enter, on: .shelf) == .tap)
        #expect(keys.action(for: .enter, on: .reader) == nil)          // the reader's own: next line
        #expect(keys.action(for: .character("x"), on: .store) == .remove)
        #expect(keys.action(for: .character("x"), on: .shelf) == nil)
        #expect(keys.action(for: .character("Q"), on: .reader) == .quit)
        #expect(keys.action(for: .escape, on: .store) == .back)
    }

    @Test func aKeysTableReplacesAnActionsKeys() throws {
        let keys = try bindings("""
            [keys]
            down = ["s", "Down"]
            up = "w"
            refresh = ["Ctrl-R", "F5"]
            quit = ["Q", "Ctrl-Q"]
            pageDown = ["PgDn", "Space"]
            tap = "Enter"
            """)
        #expect(keys.action(for: .character("s"), on: .shelf) == .down)
        #expect(keys.action(for: .down, on: .store) == .down)
        #expect(keys.action(for: .character("j"), on: .shelf) == nil)   // replaced, not added to
        #expect(keys.action(for: .character("w"), on: .reader) == .up)
        #expect(keys.action(for: .control("r"), on: .store) == .refresh)
        #expect(keys.action(for: .function(5), on: .shelf) == .refresh)
        #expect(keys.action(for: .control("q"), on: .shelf) == .quit)
        #expect(keys.action(for: .character(" "), on: .shelf) == .pageDown)
    }

    @Test func keyNamesIgnoreCaseButCharactersDoNot() throws {
        let keys = try bindings("""
            [keys]
            first = ["home", "ESC"]
            back = ["q", "BACKSPACE"]
            last = "pgdn"
            pageDown = "PageUp"
            pageUp = "b"
            """)
        #expect(keys.action(for: .escape, on: .shelf) == .first)
        #expect(keys.action(for: .pageDown, on: .shelf) == .last)
        #expect(keys.action(for: .pageUp, on: .shelf) == .pageDown)
        #expect(Key.named("G") == .success(.character("G")))
        #expect(Key.named("g") == .success(.character("g")))
        #expect(Key.named("ctrl-x") == .success(.control("x")))
    }

    @Test func anUnknownActionIsRefusedWithFileLineAndReason() {
        let message = refusal("""
            max_concurrent_downloads = 2
            [keys]
            down = "j"
            jump = "J"
            """)
        #expect(message.hasPrefix("/home/u/.config/newsstand/config.toml: line 4: keys.jump:"), "\(message)")
        #expect(message.contains("is not an action"))
        #expect(message.contains("moveLeft"))
    }

    @Test func anUnknownKeyNameIsRefused() {
        var message = refusal("[keys]\ndown = [\"j\", \"PageDn\"]\n")
        #expect(message.contains("line 2: keys.down: \"PageDn\" is not a key name"), "\(message)")
        message = refusal("[keys]\ndown = \"Ctrl-M\"\n")
        #expect(message.contains("reaches the program as Enter"), "\(message)")
        message = refusal("[keys]\ndown = \"Ctrl-\"\n")
        #expect(message.contains("Ctrl- goes with one letter"), "\(message)")
        message = refusal("[keys]\nquit = \"Ctrl-C\"\n")
        #expect(message.contains("cannot be rebound"), "\(message)")
        message = refusal("[keys]\ndown = 3\n")
        #expect(message.contains("line 2: keys.down must be a key name or an array"), "\(message)")
        message = refusal("keys = 1\n")
        #expect(message.contains("keys must be a table"), "\(message)")
    }

    @Test func oneKeyForTwoActionsOnOneScreenIsRefused() {
        // "g" is still first's key: the message names the action written in the file.
        var message = refusal("[keys]\n\ndown = [\"g\"]\n")
        #expect(message.contains("line 3: keys.down: \"g\" is already first's key on the shelf (rebind first too)"), "\(message)")
        message = refusal("[keys]\ndown = \"z\"\nup = \"z\"\n")
        #expect(message.contains("\"z\" is already"), "\(message)")
        // x removes only in a store, so on the shelf it may mean something else.
        #expect(refusal("[keys]\ntap = [\"Enter\", \"x\"]\nremove = \"Delete\"\n") == "accepted")
        message = refusal("[keys]\ntap = [\"Enter\", \"x\"]\n")
        #expect(message.contains("on the store"), "\(message)")
    }

    @Test func theShelfAndStoreObeyReboundKeys() throws {
        let keys = try bindings("""
            [keys]
            moveRight = "s"
            tap = "o"
            back = "Esc"
            quit = "Ctrl-Q"
            """)
        let h = try ShelfHarness(keyBindings: keys)
        _ = h.key(.right)                               // still unbound? no: Right was replaced
        #expect(h.app.state.shelf.selection == 0)
        _ = h.key(.character("s"))
        #expect(h.app.state.shelf.selection == 1)
        var screen = h.key(.enter)                      // Enter no longer opens
        #expect(screen.text.contains("NEWSSTAND"))
        screen = h.key(.character("o"))
        #expect(screen.text.contains("Friday 20 November 2026"))
        #expect(screen.text.contains("o read"))         // the hint bar shows the bound key
        screen = h.key(.character("q"))                 // q no longer goes back
        #expect(h.app.state.screen == .store)
        screen = h.key(.escape)
        #expect(h.app.state.screen == .shelf)
        _ = h.key(.character("Q"))
        #expect(!h.app.state.quit)
        _ = h.key(.control("q"))
        #expect(h.app.state.quit)
    }

    @Test func theReaderGetsSharedActionsAsItsOwnKeys() throws {
        let keys = try bindings("""
            [keys]
            down = ["s", "Down"]
            moveRight = "Tab"
            """)
        let h = try ShelfHarness(keyBindings: keys)
        _ = h.key(.enter)
        _ = h.key(.enter)
        try h.runAgent()
        var screen = h.key(.enter)                      // read Tidewater No. 31
        #expect(screen.text.contains("article 1 of 3"))
        screen = h.key(.character("l"))                 // l was moveRight's: now does nothing
        #expect(screen.text.contains("article 1 of 3"))
        screen = h.key(.tab)
        #expect(screen.text.contains("article 2 of 3"))
        // Compare the reader's place, not the screen: a picture may finish drawing in between.
        let top = try #require((h.app.reader?.pager as? TextPager)?.top)
        _ = h.key(.character("j"))                      // rebound away
        #expect((h.app.reader?.pager as? TextPager)?.top == top)
        _ = h.key(.character("s"))
        #expect((h.app.reader?.pager as? TextPager)?.top == top + 1)
        screen = h.key(.character("]"))                 // the reader's own keys still work
        #expect(screen.text.contains("article 3 of 3"))
    }

    @Test func helpAndHintsShowTheBoundKeys() throws {
        let keys = try bindings("[keys]\nrefresh = \"F5\"\nhelp = [\"F1\", \"?\"]\n")
        let h = try ShelfHarness(keyBindings: keys)
        var screen = h.app.render().text
        #expect(screen.contains("F5 refresh"))
        #expect(screen.contains("? help"))              // the shortest key in hints
        screen = h.key(.function(1)).text
        #expect(screen.contains("F5/R"))                // refresh / refreshAll
        #expect(screen.contains("F1 ?"))
        #expect(screen.contains("←↓↑→ hjkl"))
    }
}
