import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Terminal
import Testing

struct GraphicsDetectionTests {
    static let window = TerminalWindow(columns: 100, rows: 30)

    static func decide(_ text: String, environment: [String: String] = ["TERM": "xterm-256color"],
                       window: TerminalWindow? = window) -> GraphicsDetection {
        GraphicsDetection.decide(replies: TerminalReplies.parse(Array(text.utf8)), environment: environment, window: window)
    }

    @Test func eachTerminalGetsItsProtocol() {
        let kitty = Self.decide("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[6;22;10t\u{1B}[?62;c")
        #expect(kitty == GraphicsDetection(graphics: .kitty, cellPixels: PixelSize(width: 10, height: 22)))
        #expect(Self.decide("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;1;2;4;6;9;15;16;22;28c").graphics == .sixel)
        #expect(Self.decide("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;1;2;6;9;15;16;22;28c").graphics == .halfBlocks)
        #expect(Self.decide("\u{1B}P>|WezTerm 20240203\u{1B}\\\u{1B}[?65;4;6;18;22c").graphics == .iterm2)
        // iTerm2 without XTVERSION: its TERM_PROGRAM, once the terminal did answer.
        #expect(Self.decide("\u{1B}[?62;4c", environment: ["TERM_PROGRAM": "iTerm.app"]).graphics == .iterm2)
        #expect(Self.decide("", environment: ["TERM_PROGRAM": "iTerm.app"]).graphics == .halfBlocks)
    }

    @Test func theEnvironmentAloneNeverTurnsPixelsOn() {
        #expect(Self.decide("", environment: ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"]).graphics == .halfBlocks)
        #expect(!GraphicsDetection.shouldAsk(environment: ["TERM": "dumb"]))
        #expect(!GraphicsDetection.shouldAsk(environment: [:]))
        #expect(GraphicsDetection.shouldAsk(environment: ["TERM": "xterm-kitty"]))
    }

    @Test func theCellSizeFallsBackToTheAreaThenTheWindow() {
        #expect(Self.decide("\u{1B}[4;600;1000t\u{1B}[?62c").cellPixels == PixelSize(width: 10, height: 20))
        let reported = TerminalWindow(columns: 100, rows: 30, pixelWidth: 800, pixelHeight: 570)
        #expect(Self.decide("\u{1B}[?62c", window: reported).cellPixels == PixelSize(width: 8, height: 19))
        #expect(Self.decide("\u{1B}[?62c").cellPixels == nil)
    }

    @Test func tmuxGetsTheWholeBatchInOnePassthrough() {
        let wrapped = String(decoding: GraphicsQuery.batch(throughTmux: true), as: UTF8.self)
        #expect(wrapped.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\u{1B}\\"))
        #expect(wrapped.hasSuffix("\u{1B}\u{1B}[c\u{1B}\\"))
        #expect(wrapped.components(separatedBy: "Ptmux;").count == 2)
        #expect(String(decoding: GraphicsQuery.batch, as: UTF8.self).hasSuffix("\u{1B}[16t\u{1B}[14t\u{1B}[c"))
    }

    @Test func tmuxPassthroughIsReadNotChanged() {
        #expect(TmuxPassthrough.isAllowed(showOutput: "on\n"))
        #expect(TmuxPassthrough.isAllowed(showOutput: "all\n"))
        #expect(!TmuxPassthrough.isAllowed(showOutput: "off\n"))
        #expect(!TmuxPassthrough.isAllowed(showOutput: ""))
        #expect(TmuxPassthrough.advice.contains("set -g allow-passthrough on"))
    }

    /// The advice to turn passthrough on goes only to someone whose terminal draws pictures:
    /// told in an xterm-256color or a Linux console, it promises what cannot come.
    @Test func theAdviceIsForTerminalsThatDrawPictures() {
        #expect(TmuxPassthrough.clientsDrawPictures(listOutput: "xterm-kitty \n"))
        #expect(TmuxPassthrough.clientsDrawPictures(listOutput: "xterm-256color WezTerm 20240203\n"))
        #expect(TmuxPassthrough.clientsDrawPictures(listOutput: "xterm-256color iTerm2 3.5.0\n"))
        #expect(TmuxPassthrough.clientsDrawPictures(listOutput: "foot foot(1.13.1)\n"))
        #expect(TmuxPassthrough.clientsDrawPictures(listOutput: "screen-256color \nxterm-kitty kitty(0.26.5)\n"), "any client")
        #expect(!TmuxPassthrough.clientsDrawPictures(listOutput: "xterm-256color \n"))
        #expect(!TmuxPassthrough.clientsDrawPictures(listOutput: "linux \n"))
        #expect(!TmuxPassthrough.clientsDrawPictures(listOutput: ""), "no client, or tmux cannot be asked")
    }
}

/// The round trip on a real pseudo-terminal, on a clock the test turns: a silent terminal
/// costs the timeout and no more, a terminal that has begun answering is given time to
/// finish, and the wait ends at DA1's reply. No test waits on real time.
@Suite(.serialized) struct TerminalQueryTests {
    /// A raw pseudo-terminal: `body` gets the terminal's side (where replies are written)
    /// and the program's side (where `ask` reads them).
    static func withTerminal(_ body: (_ master: Int32, _ slave: Int32) throws -> Void) throws {
        var master: Int32 = -1, slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        defer {
            close(master)
            close(slave)
        }
        var mode = termios()
        tcgetattr(slave, &mode)
        cfmakeraw(&mode)
        tcsetattr(slave, TCSANOW, &mode)
        try body(master, slave)
    }

    static func reply(_ text: String, to terminal: Int32) {
        _ = write(terminal, text, text.utf8.count)
    }

    /// A clock that reads `times` in turn (the last one over and over), running `each`
    /// before answering its nth reading.
    final class TurnedClock {
        private var times: [Int]
        private(set) var readings = 0
        var each: (Int) -> Void = { _ in }
        init(_ times: [Int]) { self.times = times }
        func now() -> Int {
            readings += 1
            each(readings)
            return times.count > 1 ? times.removeFirst() : times[0]
        }
    }

    @Test func aTerminalThatAnswersNothingCostsTheTimeout() throws {
        try Self.withTerminal { master, slave in
            // Asked at 0; the next reading is past the 150 ms timeout: nothing is waited for.
            let clock = TurnedClock([0, 150])
            let answer = TerminalQuery.ask(GraphicsQuery.batch, input: slave, output: slave, timeoutMilliseconds: 150,
                                           clock: clock.now) { TerminalReplies.parse($0).isComplete }
            #expect(answer.isEmpty)
            #expect(clock.readings == 2)
            // The batch reached the terminal.
            var sent = [UInt8](repeating: 0, count: 256)
            let count = read(master, &sent, sent.count)
            #expect(Array(sent[0..<max(0, count)]) == GraphicsQuery.batch)
        }
    }

    @Test func aTerminalThatHasBegunAnsweringIsGivenTimeToFinish() throws {
        try Self.withTerminal { master, slave in
            // XTVERSION at once; DA1 only once the clock reads 250 ms: past the 150 ms
            // timeout, within the 500 ms a terminal that answers gets.
            Self.reply("\u{1B}P>|XTerm(379)\u{1B}\\", to: master)
            let clock = TurnedClock([0, 10, 250])
            clock.each = { reading in if reading == 3 { Self.reply("\u{1B}[?63;4c", to: master) } }
            let answer = TerminalQuery.ask(GraphicsQuery.batch, input: slave, output: slave, timeoutMilliseconds: 150,
                                           clock: clock.now) { TerminalReplies.parse($0).isComplete }
            #expect(TerminalReplies.parse(answer).sixel)
            #expect(TerminalReplies.parse(answer).version == "XTerm(379)")
        }
    }

    @Test func theWaitEndsAtTheDeviceAttributes() throws {
        try Self.withTerminal { master, slave in
            Self.reply("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;4c", to: master)
            // Were the complete answer not the end, a third reading would be needed, and it
            // reads past the timeout.
            let clock = TurnedClock([0, 0, 3000])
            let answer = TerminalQuery.ask(GraphicsQuery.batch, input: slave, output: slave, timeoutMilliseconds: 2000,
                                           clock: clock.now) { TerminalReplies.parse($0).isComplete }
            #expect(TerminalReplies.parse(answer).sixel)
            #expect(clock.readings == 2)
        }
    }
}

/// kitty's Unicode placeholders are used only where XTVERSION shows a kitty that has them.
struct UnicodePlaceholderDetectionTests {
    @Test func kittyFrom028OnHasPlaceholdersOthersAndOlderKittysDoNot() {
        for version in ["kitty(0.28.0)", "kitty(0.28.1)", "kitty(0.35.2)", "kitty(1.0)"] {
            #expect(GraphicsDetection.supportsUnicodePlaceholders(version: version), "\(version)")
        }
        for version in ["kitty(0.26.5)", "kitty(0.27.1)", "kitty()", "kitty(x.y)", "XTerm(379)", "tmux 3.3a", "WezTerm 20240203"] {
            #expect(!GraphicsDetection.supportsUnicodePlaceholders(version: version), "\(version)")
        }
        #expect(!GraphicsDetection.supportsUnicodePlaceholders(version: nil))
    }

    @Test func theDecisionSaysSoOnlyWhenKittyGraphicsAnswered() {
        let new = GraphicsDetectionTests.decide("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.32.2)\u{1B}\\\u{1B}[?62;c")
        #expect(new.graphics == .kitty && new.unicodePlaceholders)
        let old = GraphicsDetectionTests.decide("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[?62;c")
        #expect(old.graphics == .kitty && !old.unicodePlaceholders)
        // The version alone, the graphics query unanswered: no pictures in pixels at all.
        let silent = GraphicsDetectionTests.decide("\u{1B}P>|kitty(0.32.2)\u{1B}\\\u{1B}[?62;c")
        #expect(silent.graphics == .halfBlocks && !silent.unicodePlaceholders)
    }
}
