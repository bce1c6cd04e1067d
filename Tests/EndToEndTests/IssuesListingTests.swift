import Foundation
import Testing

/// `issues` shows each issue's title, and how far a running download is, in text and JSON
/// (issue #21, item 8).
@Suite(.serialized) struct IssuesListingTests {
    @Test func eachLineShowsTheIssuesTitle() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=\(Sandbox.repository.path)"])
        let lines = try sandbox.run("issues").output.components(separatedBy: "\n")
        let courier = lines.first { $0.contains("courier-2026-11-20\t") } ?? ""
        #expect(courier.contains("\tFriday 20 November 2026\t"), "\(courier)")
        let tidewater = lines.first { $0.contains("tidewater-2026-10\t") } ?? ""
        #expect(tidewater.contains("\tNo. 30 · October 2026\t"), "\(tidewater)")
    }

    @Test func aRunningDownloadShowsItsPercent() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_FILE_THROTTLE_MS=250"])
        let feeds = sandbox.home.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        let fixture = try IssueFeedFixture(in: feeds, id: "big-issue", title: "The Big Issue", payloadBytes: 6 << 20)
        #expect(try sandbox.run("subscribe", fixture.feed.path).status == 0)
        #expect(try sandbox.run("download", "big-issue").status == 0)

        var text = ""
        var json = ""
        _ = Tmux.poll(timeout: 30) {
            text = (try? sandbox.run("issues").output) ?? ""
            json = (try? sandbox.run("issues", "--json").output) ?? ""
            return text.range(of: #"\tdownloading [1-9]\d?%"#, options: .regularExpression) != nil
                && json.range(of: #""percent" : [1-9]\d?,"#, options: .regularExpression) != nil
        }
        #expect(text.range(of: #"big-issue\tThe Big Issue\t2026-11-01\tdownloading [1-9]\d?%"#, options: .regularExpression) != nil, "\(text)")
        #expect(json.range(of: #""percent" : [1-9]\d?,"#, options: .regularExpression) != nil, "\(json)")
    }
}
