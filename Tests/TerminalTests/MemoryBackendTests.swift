import Testing
@testable import Terminal

@Suite struct MemoryBackendTests {
    @Test func eventsComeOutInTheOrderTheyWereSent() {
        let terminal = MemoryBackend(width: 40, height: 10)
        terminal.send(.key(.down), .mouse(.left, x: 3, y: 4))
        terminal.type("q")
        #expect(terminal.nextEvent(timeout: 1) == .key(.down))
        #expect(terminal.nextEvent(timeout: 1) == .mouse(.left, x: 3, y: 4))
        #expect(terminal.nextEvent(timeout: nil) == .key(.character("q")))
        #expect(terminal.nextEvent(timeout: 1) == nil)
    }

    @Test func typeTurnsControlCharactersIntoKeys() {
        let terminal = MemoryBackend()
        terminal.type("a\n\t\u{3}日")
        var events: [Event] = []
        while let event = terminal.nextEvent(timeout: 0) { events.append(event) }
        #expect(events == [.key(.character("a")), .key(.enter), .key(.tab), .key(.control("c")), .key(.character("日"))])
    }

    @Test func drawKeepsTheLastFrameAndCountsFrames() {
        let terminal = MemoryBackend(width: 12, height: 2)
        #expect(terminal.frames == 0)
        #expect(terminal.screen.text == "\n")
        var canvas = Canvas(width: 12, height: 2)
        canvas.put("first", x: 0, y: 0, style: .plain)
        terminal.draw(canvas)
        canvas.put("second", x: 0, y: 1, style: Style(foreground: .indexed(2)))
        terminal.draw(canvas)
        #expect(terminal.frames == 2)
        #expect(terminal.screen.text == "first\nsecond")
        #expect(terminal.screen[0, 1].foreground == .indexed(2))
    }

    @Test func resizeChangesTheSizeAndQueuesAnEvent() {
        let terminal = MemoryBackend(width: 80, height: 24)
        terminal.resize(width: 20, height: 8)
        #expect(terminal.size.width == 20)
        #expect(terminal.size.height == 8)
        #expect(terminal.nextEvent(timeout: 0) == .resize(width: 20, height: 8))
    }

    @Test func manyEventsDrainCompletely() {
        let terminal = MemoryBackend()
        for i in 0..<500 { terminal.send(.mouse(.wheelDown, x: i, y: 0)) }
        var count = 0
        while case .mouse(_, let x, _)? = terminal.nextEvent(timeout: 0) {
            #expect(x == count)
            count += 1
        }
        #expect(count == 500)
        #expect(terminal.pendingEvents.isEmpty)
    }

    @Test func restoreAndSuspendAreRecorded() {
        let terminal = MemoryBackend()
        #expect(!terminal.isRestored)
        terminal.restore()
        terminal.restore()
        #expect(terminal.isRestored)
        let backend: TerminalBackend = terminal
        backend.suspend()
        #expect(terminal.suspensions == 1)
    }
}
