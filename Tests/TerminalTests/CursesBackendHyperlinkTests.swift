import Foundation
import Testing
@testable import Terminal

/// The canvas's links reach a terminal that shows OSC 8 after ncurses has drawn, and only then.
extension CursesBackendTests {
    static func linkedFrame() -> Canvas {
        var canvas = Canvas(width: 40, height: 10)
        canvas.put("click here", x: 3, y: 2, style: Style(foreground: .indexed(4)))
        canvas.link(x: 3, y: 2, width: 10, url: "https://a.example/x")
        canvas.put("elsewhere", x: 0, y: 5, style: .plain)
        return canvas
    }

    static let opening = "\u{1B}]8;id=1;https://a.example/x\u{1B}\\"

    @Test func linksFollowEveryFrameThatWroteCellsInATerminalThatShowsThem() throws {
        let pty = try PseudoTerminal(width: 40, height: 10)
        let backend = try CursesBackend(environment: ["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"], input: pty.slave, output: pty.slave)
        defer { backend.restore() }
        #expect(backend.showsHyperlinks)
        _ = pty.output()
        var canvas = Self.linkedFrame()
        backend.draw(canvas)
        let first = pty.output()
        #expect(first.contains("\u{1B}7\u{1B}[3;4H\u{1B}[0;34m" + Self.opening + "click here\u{1B}]8;;\u{1B}\\\u{1B}[0m\u{1B}8"),
                "\(first.debugDescription)")
        // After what ncurses wrote.
        #expect(first.range(of: "elsewhere").map { $0.upperBound <= first.range(of: Self.opening)!.lowerBound } == true)

        // Nothing changed: nothing written, the terminal keeps its links.
        backend.draw(canvas)
        #expect(!pty.output().contains("]8;"))

        // A cell changed elsewhere: ncurses may have written over a link, so they all go again.
        canvas.put("E", x: 0, y: 5, style: .plain)
        backend.draw(canvas)
        #expect(pty.output().contains(Self.opening))

        // The same text no longer a link: its row is written again, without one.
        var plain = Canvas(width: 40, height: 10)
        plain.put("click here", x: 3, y: 2, style: Style(foreground: .indexed(4)))
        plain.put("Elsewhere", x: 0, y: 5, style: .plain)
        backend.draw(plain)
        let unlinked = pty.output()
        #expect(unlinked.contains("click here"), "\(unlinked.debugDescription)")
        #expect(!unlinked.contains("]8;"))

        // Rows a picture drew over are redrawn whole, and the links with them.
        backend.draw(canvas)
        _ = pty.output()
        backend.redrawRows(2..<3)
        backend.draw(canvas)
        #expect(pty.output().contains(Self.opening))
    }

    @Test(arguments: [(["TERM": "xterm-256color"], Hyperlinks.Choice.auto),
                      (["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0", "KITTY_WINDOW_ID": "1"], .auto),
                      (["TERM": "screen-256color", "STY": "1.pts-0.host", "VTE_VERSION": "7600"], .auto),
                      // The setting off: none even to kitty.
                      (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"], .off)])
    func noOSC8ReachesATerminalNotKnownToShowItOrWhenTheSettingIsOff(environment: [String: String], choice: Hyperlinks.Choice) throws {
        let pty = try PseudoTerminal(width: 40, height: 10)
        let backend = try CursesBackend(environment: environment, hyperlinks: choice, input: pty.slave, output: pty.slave)
        defer { backend.restore() }
        #expect(!backend.showsHyperlinks)
        backend.draw(Self.linkedFrame())
        let output = pty.output()
        #expect(output.contains("click here"))
        #expect(!output.contains("]8;"))
        #expect(!output.contains("\u{1B}7"))
    }
}
