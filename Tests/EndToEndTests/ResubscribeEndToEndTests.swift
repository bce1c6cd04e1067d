import Foundation
import Testing

/// `unsubscribe`, then `subscribe` again, as a person types them: the publication comes back
/// whole, and no issue is ever listed under no publication (issue #30).
@Suite(.serialized) struct ResubscribeEndToEndTests {
    func issues(_ sandbox: Sandbox) throws -> [[String: Any]] {
        let output = try sandbox.run("issues", "--json").output
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]], "\(output)")
    }

    @Test func unsubscribeThenSubscribeAgainBringsThePublicationBackWhole() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        let feed = Sandbox.repository.appendingPathComponent("sample-feed/tidewater-monthly/feed.xml").path
        #expect(try sandbox.run("subscribe", feed).status == 0)
        #expect(try sandbox.run("download", "--wait", "tidewater-2026-11").status == 0)

        let gone = try sandbox.run("unsubscribe", "Tidewater")
        #expect(gone.output.contains("Unsubscribed from Tidewater; its issues are kept"), "\(gone.output)")
        let kept = try issues(sandbox)
        #expect(!kept.isEmpty && kept.allSatisfy { ($0["publication"] as? String)?.isEmpty == false }, "\(kept)")

        let back = try sandbox.run("subscribe", feed)
        #expect(back.output.contains("Subscribed to Tidewater again: its 4 issue(s) are back."), "\(back.output)")
        let listed = try issues(sandbox).filter { $0["publication"] as? String == "Tidewater" }
        #expect(listed.count == 4)
        #expect(listed.first { $0["name"] as? String == "tidewater-2026-11" }?["status"] as? String == "available")

        // Issues kept by an unsubscribe can still be removed with it.
        #expect(try sandbox.run("unsubscribe", "Tidewater").status == 0)
        let removed = try sandbox.run("unsubscribe", "--remove-issues", "Tidewater")
        #expect(removed.output.contains("Unsubscribed from Tidewater and removed its issues."), "\(removed.output)")
        #expect(try issues(sandbox).allSatisfy { ($0["name"] as? String)?.hasPrefix("tidewater-") == false })
    }
}
