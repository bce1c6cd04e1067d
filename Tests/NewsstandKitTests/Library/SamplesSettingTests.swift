import Testing
@testable import NewsstandKit

/// `samples = false` keeps the bundled publications off the shelf's first start (issue #30, item 17).
@Suite struct SamplesSettingTests {
    @Test func samplesAreOnUnlessConfigSaysFalse() throws {
        #expect(try Config.parse("", file: "config.toml").samples)
        #expect(try Config.parse("samples = true\n", file: "config.toml").samples)
        #expect(try !Config.parse("samples = false\n", file: "config.toml").samples)
    }

    @Test func aSamplesValueThatIsNotTrueOrFalseIsRefused() {
        #expect(throws: ConfigError.self) { try Config.parse("samples = \"no\"\n", file: "config.toml") }
    }
}
