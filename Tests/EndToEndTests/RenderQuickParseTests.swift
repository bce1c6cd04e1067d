import Testing
@testable import newsstand

/// `render`'s plain forms are read without ArgumentParser (`Render.quick`, #31): each must
/// give the command ArgumentParser gives, and every other form must be left to ArgumentParser,
/// whose words a mistake or help then gets.
@Suite struct RenderQuickParseTests {
    static let plainForms: [[String]] = [
        ["tracemonkey.pdf"],
        ["tracemonkey.pdf", "--page", "3", "--size", "120x40", "--colors", "truecolor"],
        ["--colors", "256", "magazine.PDF", "--page", "1", "--size", "80x24", "--symbols", "ascii", "--images", "halfblock"],
        ["cover.png", "--size", "10x5", "back.jpg"],
        ["tracemonkey.pdf", "--output", "page.png", "--pixels", "800x600", "--page", "2"],
        ["tracemonkey.pdf", "--images", "kitty", "--colors", "none", "--symbols", "half"],
    ]

    @Test(arguments: plainForms) func aPlainFormIsReadAsArgumentParserReadsIt(words: [String]) throws {
        let quick = try #require(Render.quick(words))
        let parsed = try Render.parse(words)
        #expect(Self.fields(of: quick) == Self.fields(of: parsed))
        #expect(try CommandExit.parse(["render"] + words) is Render)
    }

    static let otherForms: [[String]] = [
        [], ["--help"], ["tracemonkey.pdf", "-h"], ["tracemonkey.pdf", "--version"],
        ["tracemonkey.pdf", "--page=3"], ["tracemonkey.pdf", "--page", "0"], ["tracemonkey.pdf", "--page", "three"],
        ["tracemonkey.pdf", "--page", "-1"], ["tracemonkey.pdf", "--page"], ["tracemonkey.pdf", "--page", "1", "--page", "2"],
        ["tracemonkey.pdf", "--size", "big"], ["tracemonkey.pdf", "--colors", "purple"], ["tracemonkey.pdf", "--symbols", "braille"],
        ["tracemonkey.pdf", "--pixels", "800x600"], ["a.pdf", "b.pdf", "--output", "page.png"], ["tracemonkey.pdf", "--theme", "dark"],
        ["tracemonkey.pdf", "--"], ["-"],
    ]

    @Test(arguments: otherForms) func anyOtherFormIsLeftToArgumentParser(words: [String]) {
        #expect(Render.quick(words) == nil)
    }

    @Test func aMistakeStillReadsAsArgumentParserSaysIt() {
        do {
            _ = try CommandExit.parse(["render", "tracemonkey.pdf", "--page", "0"])
            Issue.record("render --page 0 was accepted")
        } catch {
            let message = Newsstand.fullMessage(for: error)
            #expect(message.contains("--page counts from 1"), "\(message)")
        }
    }

    static func fields(of render: Render) -> String {
        [String(describing: render.images), String(describing: render.page), String(describing: render.size?.cells),
         String(describing: render.imagesChoice), String(describing: render.output), String(describing: render.pixels?.box),
         String(describing: render.display.colors), String(describing: render.display.symbols)].joined(separator: " | ")
    }
}
