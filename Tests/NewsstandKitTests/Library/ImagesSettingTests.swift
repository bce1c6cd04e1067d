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

    @Test func coversAreHalfBlocksUnlessPixelsIsAsked() throws {
        #expect(try Config.parse("", file: "c").coversInPixels == false)
        #expect(try Config.parse("covers = \"halfblock\"", file: "c").coversInPixels == false)
        #expect(try Config.parse("covers = \"pixels\"", file: "c").coversInPixels == true)
        #expect(throws: ConfigError.self) { try Config.parse("covers = true", file: "c") }
        #expect {
            try Config.parse("covers = \"kitty\"", file: "config.toml")
        } throws: { error in
            (error as? ConfigError)?.description == "config.toml: covers must be one of \"halfblock\", \"pixels\""
        }
    }

    @Test func kittyPlaceholdersAreAutoOnOrOff() throws {
        #expect(try Config.parse("", file: "c").kittyPlaceholders == nil)
        for value in ["auto", "on", "off"] {
            #expect(try Config.parse("kitty_placeholders = \"\(value)\"", file: "c").kittyPlaceholders == value)
        }
        #expect(throws: ConfigError.self) { try Config.parse("kitty_placeholders = true", file: "c") }
        #expect {
            try Config.parse("kitty_placeholders = \"yes\"", file: "config.toml")
        } throws: { error in
            (error as? ConfigError)?.description == "config.toml: kitty_placeholders must be one of \"auto\", \"on\", \"off\""
        }
    }
}
