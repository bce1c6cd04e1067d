import NewsstandKit
import Testing

/// `images = "…"` in config.toml: how pictures are drawn when `--images` is not given.
struct ImagesSettingTests {
    @Test func eachProtocolIsAcceptedAndNothingElse() throws {
        #expect(try Config.parse("", file: "c").images == nil)
        for value in ["auto", "kitty", "sixel", "iterm2", "halfblock"] {
            #expect(try Config.parse("images = \"\(value)\"", file: "c").images == value)
        }
        #expect(throws: ConfigError.self) { try Config.parse("images = \"pixels\"", file: "c") }
        #expect(throws: ConfigError.self) { try Config.parse("images = 1", file: "c") }
        do {
            _ = try Config.parse("images = \"sixels\"", file: "config.toml")
        } catch let error as ConfigError {
            #expect(error.description == "config.toml: images must be one of \"auto\", \"kitty\", \"sixel\", \"iterm2\", \"halfblock\"")
        }
    }
}
