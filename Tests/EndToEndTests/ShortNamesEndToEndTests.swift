import Foundation
import Testing

/// `issues` names each issue by a short name a person can type, and every command taking an
/// issue accepts it; `--json` keeps the stable id beside it (issue #30, item 18).
@Suite struct ShortNamesEndToEndTests {
    let sandbox = Sandbox(["NEWSSTAND_RESOURCES=\(Sandbox.repository.path)"], samples: true)

    @Test func issuesShowsShortNamesThatDownloadReadAndRemoveAccept() throws {
        let listed = try sandbox.run("issues")
        #expect(listed.status == 0, "\(listed.output)")
        let lines = listed.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "PUBLICATION\tID\tTITLE\tDATE\tSTATUS\tNAME", "\(listed.output.prefix(300))")
        #expect(!lines.contains { $0.contains("\tnone") || $0.contains("\tavailable") }, "\(listed.output)")
        // Tidewater's oldest issue is /1; its stable id stays in its own column.
        let oldest = try #require(lines.filter { $0.hasPrefix("Tidewater\t") }.last, "\(listed.output)")
        #expect(oldest.hasSuffix("\ttidewater/1"), "\(oldest)")
        let stable = oldest.split(separator: "\t")[1]
        #expect(lines.contains { $0.hasPrefix("Wendle Valley Wire\tedition:") && $0.contains("\twendle-valley-wire/") }, "\(listed.output)")

        let download = try sandbox.run("download", "tidewater/1", "--wait")
        #expect(download.status == 0, "\(download.output)")
        #expect(try sandbox.sql("SELECT status FROM issue WHERE name = '\(stable)'") == "available")
        let ready = try sandbox.run("issues").output.split(separator: "\n").first { $0.hasSuffix("\ttidewater/1") } ?? ""
        #expect(ready.contains("\tready"), "\(ready)")
        let place = #"{"resource":"text.xhtml","progression":0.5,"totalProgression":0.42,"updated":"2026-11-20T10:00:00Z"}"#
        _ = try sandbox.sql("UPDATE issue SET locator = '\(place)' WHERE name = '\(stable)'")
        let reading = try sandbox.run("issues").output.split(separator: "\n").first { $0.hasSuffix("\ttidewater/1") } ?? ""
        #expect(reading.contains("\treading 42 %"), "\(reading)")
        let read = try sandbox.run("read", "--plain", "tidewater/1")
        #expect(read.status == 0 && read.output.count > 200, "\(read.output.prefix(300))")
        let removed = try sandbox.run("remove", "tidewater/1")
        #expect(removed.status == 0, "\(removed.output)")
        #expect(try sandbox.sql("SELECT status FROM issue WHERE name = '\(stable)'") == "none")

        let json = try sandbox.run("issues", "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let row = try #require(rows.first { $0["shortName"] as? String == "tidewater/1" }, "\(json.output.prefix(600))")
        #expect(row["name"] as? String == String(stable))
    }

    @Test func aShortNameThatNamesNoIssueIsRefused() throws {
        let result = try sandbox.run("download", "tidewater/99")
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.hasPrefix("newsstand: ") && result.output.contains("tidewater/99"), "\(result.output)")
    }
}
