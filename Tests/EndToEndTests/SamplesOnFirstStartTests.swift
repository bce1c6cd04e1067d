import Foundation
import Testing

/// The bundled samples come with the shelf's first interactive start, not with whatever
/// command a fresh home runs first, and `samples = false` keeps them out (issue #30, item 17).
@Suite struct SamplesOnFirstStartTests {
    /// A fresh home where the samples can be found (beside the build, in the checkout).
    let sandbox = Sandbox()

    func ownFeed() throws -> String {
        let feeds = sandbox.home.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        return try IssueFeedFixture(in: feeds, id: "own-1", title: "Own", payloadBytes: 1024).feed.path
    }

    /// Opens the shelf in tmux until `title` shows, then quits it.
    func startShelf(showing title: String) throws {
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start(ShelfEndToEndTests.command(home: sandbox.home))
        #expect(tmux.waitFor(title) != nil, "\(tmux.lastScreen)")
        try tmux.send("Q")
        #expect(tmux.waitUntilExited())
    }

    @Test func aFirstSubscribeAddsThatFeedAloneAndTheShelfsFirstStartTheSamples() throws {
        let subscribed = try sandbox.run("subscribe", try ownFeed())
        #expect(subscribed.status == 0, "\(subscribed.output)")
        let before = try sandbox.run("issues").output
        #expect(before.contains("Own Weekly\t"), "\(before)")
        #expect(!before.contains("Tidewater") && !before.contains("Ferrybridge"), "samples came with a command:\n\(before)")

        try startShelf(showing: "Tidewater")
        let after = try sandbox.run("issues").output
        #expect(after.contains("Own Weekly\t") && after.contains("Tidewater\t") && after.contains("Wendle Valley Wire\t"), "\(after)")
    }

    @Test func samplesFalseInConfigKeepsThemOutOfTheShelfsFirstStart() throws {
        let config = sandbox.home.appendingPathComponent("config/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("samples = false\n".utf8).write(to: config)
        #expect(try sandbox.run("subscribe", try ownFeed()).status == 0)

        try startShelf(showing: "Own Weekly")
        let after = try sandbox.run("issues").output
        #expect(after.contains("Own Weekly\t"), "\(after)")
        #expect(!after.contains("Tidewater") && !after.contains("Ferrybridge"), "\(after)")
    }
}
