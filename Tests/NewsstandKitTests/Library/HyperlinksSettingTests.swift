import NewsstandKit
import Testing

/// `hyperlinks = "…"` in config.toml: whether the reader's links are the terminal's own.
struct HyperlinksSettingTests {
    @Test func hyperlinksAreAutoOrOffAndNothingElse() throws {
        #expect(try Config.parse("", file: "c").hyperlinks == nil)
        for value in ["auto", "off"] {
            #expect(try Config.parse("hyperlinks = \"\(value)\"", file: "c").hyperlinks == value)
        }
        #expect(throws: ConfigError.self) { try Config.parse("hyperlinks = false", file: "c") }
        #expect {
            try Config.parse("hyperlinks = \"on\"", file: "config.toml")
        } throws: { error in
            (error as? ConfigError)?.description == "config.toml: hyperlinks must be one of \"auto\", \"off\""
        }
    }
}
