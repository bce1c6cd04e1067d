import Foundation
import Testing
@testable import Terminal

/// Replies to the detection batch that come after it stopped waiting are taken out of the
/// input; keys typed meanwhile get through, in order.
struct LateRepliesTests {
    static let kitty = Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8)
    static let version = Array("\u{1B}P>|kitty(0.26.5)\u{1B}\\".utf8)
    static let cell = Array("\u{1B}[6;22;10t".utf8)
    static let deviceAttributes = Array("\u{1B}[?62;c".utf8)

    @Test func repliesAreDroppedAndKeysKept() {
        var filter = LateReplies()
        let keys = filter.take(LateRepliesTests.kitty + Array("j".utf8) + LateRepliesTests.version + LateRepliesTests.cell + Array("\u{1B}[A".utf8) + LateRepliesTests.deviceAttributes + Array("q".utf8))
        #expect(String(decoding: keys, as: UTF8.self) == "j\u{1B}[Aq")
        #expect(filter.isFinished)
        // After DA1 nothing is a reply any more: a key that looks like one reaches the program.
        #expect(filter.take(LateRepliesTests.cell) == LateRepliesTests.cell)
    }

    @Test func aReplyCutInTwoWaitsForItsEnd() {
        var filter = LateReplies()
        var keys: [UInt8] = []
        for byte in LateRepliesTests.version + LateRepliesTests.deviceAttributes { keys += filter.take([byte]) }
        #expect(keys.isEmpty)
        #expect(filter.isFinished)
    }

    @Test func escapeAloneAndSequencesThatAreNotRepliesAreKeys() {
        var filter = LateReplies()
        #expect(filter.take(Array("\u{1B}".utf8)).isEmpty)  // Escape, or the start of a reply: wait
        #expect(filter.take(Array("q".utf8)) == Array("\u{1B}q".utf8))
        #expect(filter.take(Array("\u{1B}[1;5A\u{1B}".utf8)) == Array("\u{1B}[1;5A".utf8))
        #expect(filter.flush() == [0x1B], "time is up: Escape was a key")
    }
}

/// ncurses keeps one screen per process: with the backend's other tests, one at a time.
extension CursesBackendTests {
    /// A terminal that answers after detection gave up: the replies reach the backend's
    /// input before the user's key, and only the key is read.
    @Test func theBackendReadsKeysNotLateReplies() throws {
        let pty = try PseudoTerminal(width: 40, height: 10)
        let backend = try CursesBackend(environment: ["TERM": "xterm-256color"], input: pty.slave, output: pty.slave,
                                        expectingLateReplies: true, lateRepliesMilliseconds: 60_000)
        defer { backend.restore() }
        pty.type(String(decoding: LateRepliesTests.kitty + LateRepliesTests.version + LateRepliesTests.cell, as: UTF8.self) + "j"
                 + String(decoding: LateRepliesTests.deviceAttributes, as: UTF8.self) + "q")
        #expect(backend.nextEvent(timeout: 30) == .key(.character("j")))
        #expect(backend.nextEvent(timeout: 30) == .key(.character("q")))
        // DA1 came: input is read as usual from here, Escape included.
        pty.type("\u{1B}")
        #expect(backend.nextEvent(timeout: 30) == .key(.escape))
    }

    /// An Escape typed while late replies may still come is a key as soon as nothing follows
    /// it, not when the window for replies closes (a minute here).
    @Test func aLoneEscapeIsAKeyBeforeTheRepliesWindowCloses() throws {
        let pty = try PseudoTerminal(width: 40, height: 10)
        let backend = try CursesBackend(environment: ["TERM": "xterm-256color"], input: pty.slave, output: pty.slave,
                                        expectingLateReplies: true, lateRepliesMilliseconds: 60_000)
        defer { backend.restore() }
        pty.type("\u{1B}")
        #expect(backend.nextEvent(timeout: 30) == .key(.escape))
        // The replies that come after it are still taken out.
        pty.type(String(decoding: LateRepliesTests.kitty, as: UTF8.self) + "j")
        #expect(backend.nextEvent(timeout: 30) == .key(.character("j")))
    }
}
