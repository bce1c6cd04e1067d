import Terminal
import Testing

/// The replies measured in real terminals under Xvfb (FIELD-NOTES, "Real terminals under Xvfb").
struct TerminalRepliesTests {
    static func parse(_ text: String) -> TerminalReplies { TerminalReplies.parse(Array(text.utf8)) }

    @Test func kittyAnswersEveryQuestion() {
        let replies = Self.parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[6;22;10t\u{1B}[4;627;1000t\u{1B}[?62;c")
        #expect(replies == TerminalReplies(kittyGraphics: true, version: "kitty(0.26.5)", cellPixels: PixelSize(width: 10, height: 22),
                                           windowPixels: PixelSize(width: 1000, height: 627), deviceAttributes: [62]))
        #expect(replies.isComplete)
        #expect(!replies.sixel)
    }

    @Test func xtermShowsSixelInItsDeviceAttributes() {
        let replies = Self.parse("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;1;2;4;6;9;15;16;22;28c")
        #expect(replies.version == "XTerm(379)")
        #expect(replies.deviceAttributes == [63, 1, 2, 4, 6, 9, 15, 16, 22, 28])
        #expect(replies.sixel)
        #expect(!replies.kittyGraphics)
        #expect(replies.cellPixels == nil)
    }

    @Test func footMltermAndTmux() {
        let foot = Self.parse("\u{1B}P>|foot(1.13.1)\u{1B}\\\u{1B}[6;21;10t\u{1B}[?62;4;22c")
        #expect(foot.sixel && foot.cellPixels == PixelSize(width: 10, height: 21) && foot.version == "foot(1.13.1)")
        let mlterm = Self.parse("\u{1B}[6;19;8t\u{1B}[?63;1;2;3;4;7;29c")
        #expect(mlterm.sixel && mlterm.version == nil && mlterm.cellPixels == PixelSize(width: 8, height: 19))
        let tmux = Self.parse("\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c")
        #expect(tmux.version == "tmux 3.3a" && tmux.deviceAttributes == [1, 2] && !tmux.sixel)
    }

    @Test func anUnfinishedReplyIsNotComplete() {
        #expect(!Self.parse("").isComplete)
        #expect(!Self.parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;").isComplete)
        #expect(Self.parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;").kittyGraphics)
        // A kitty error (another terminal's image store refusing) is not OK.
        #expect(!Self.parse("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?62;c").kittyGraphics)
    }

    @Test func keysTypedMeanwhileAreSkipped() {
        let replies = Self.parse("jk\u{1B}P>|XTerm(379)\u{1B}\\q\u{1B}[?63;4c")
        #expect(replies.version == "XTerm(379)" && replies.sixel)
    }

    @Test func xtermSaysTheLargestSixelItDraws() {
        // XTSMGRAPHICS (`CSI ? 2 ; 4 ; 0 S`): item 2, status 0, width and height; DA1 after
        // it (xterm 379's answer, measured).
        let replies = Self.parse("\u{1B}[?2;0;1000;1000S\u{1B}[?63;1;2;4;6;9;15;16;22;28c")
        #expect(replies.sixelLimit == PixelSize(width: 1000, height: 1000) && replies.isComplete)
        #expect(Self.parse("\u{1B}[?2;0;2048;1536S").sixelLimit == PixelSize(width: 2048, height: 1536))
        // A failure (status 3), the colour registers' item (1) and a cut-off reply say nothing.
        #expect(Self.parse("\u{1B}[?2;3;0S\u{1B}[?62;4c").sixelLimit == nil)
        #expect(Self.parse("\u{1B}[?1;0;256S").sixelLimit == nil)
        #expect(Self.parse("\u{1B}[?2;0;1000;").sixelLimit == nil)
        #expect(Self.parse("\u{1B}[?2;0;0;0S").sixelLimit == nil)
    }

    @Test func aSixelTerminalThatDoesNotSayIsAssumedToDrawXtermsDefault() {
        var detection = GraphicsDetection.decide(replies: Self.parse("\u{1B}[?63;4c"), environment: ["TERM": "xterm"], window: nil)
        #expect(detection.graphics == .sixel && detection.largestSixel == PixelSize(width: 1000, height: 1000))
        detection.sixelLimit = PixelSize(width: 3000, height: 2000)
        #expect(detection.largestSixel == PixelSize(width: 3000, height: 2000))
        // The question ends with DA1, so its answer is known to be over.
        #expect(String(decoding: GraphicsQuery.sixelLimit, as: UTF8.self) == "\u{1B}[?2;4;0S\u{1B}[c")
    }
}
