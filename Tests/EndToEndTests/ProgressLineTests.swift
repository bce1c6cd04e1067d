import Testing
@testable import newsstand

/// `download --wait` prints sizes the one way the program prints them.
@Suite struct ProgressLineTests {
    @Test func nothingWrittenYetIsZeroBytesNotWords() {
        #expect(ProgressDisplay.line(name: "courier-2026-11-18", download: nil) == "courier-2026-11-18 starting  0 B")
    }
}
