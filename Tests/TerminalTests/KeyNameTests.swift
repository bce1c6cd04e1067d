import Testing
@testable import Terminal

@Suite struct KeyNameTests {
    @Test func everyKeyALabelShowsReadsBackAsTheSameKey() {
        let keys: [Key] = [.enter, .escape, .tab, .backTab, .backspace, .delete, .home, .end, .pageUp, .pageDown,
                           .function(1), .function(12), .control("r"), .character("j"), .character("G"),
                           .character(" "), .character("é"), .character("/")]
        for key in keys { #expect(Key.named(key.label) == .success(key), "\(key.label)") }
        // Arrows show as arrows and are written by name.
        #expect(Key.up.label == "↑")
        #expect(Key.named("Up") == .success(.up))
        #expect(Key.named("LEFT") == .success(.left))
    }

    @Test func namesThatAreNotKeysSayWhy() {
        #expect(Key.named("Hyper-X").failureReason?.contains("is not a key name") == true)
        #expect(Key.named("F64").failureReason?.contains("is not a key name") == true)
        #expect(Key.named("\u{1B}").failureReason?.contains("control character") == true)
        #expect(Key.named("Ctrl-H").failureReason == "reaches the program as Backspace; write \"Backspace\"")
        #expect(Key.named("Ctrl-ab").failureReason?.contains("one letter") == true)
        #expect(Key.named("").failureReason?.contains("is not a key name") == true)
    }
}

extension Result where Failure == KeyNameError {
    var failureReason: String? { if case .failure(let error) = self { return error.reason } else { return nil } }
}
