import Foundation
import Testing

/// `remove ISSUE` does what the shelf's `x` does: the content goes, the issue keeps its
/// place in the library and its reading position (issue #21, item 5).
@Suite(.serialized) struct RemoveCommandTests {
    let sandbox = Sandbox(["NEWSSTAND_RESOURCES=\(Sandbox.repository.path)"], samples: true)
    let issue = "courier-2026-11-19"
    let place = #"{"resource":"articles/01.xhtml","progression":0.5,"totalProgression":0.42,"updated":"2026-11-20T10:00:00Z"}"#

    @Test func removeDeletesTheContentAndKeepsTheIssueAndItsPlace() throws {
        var result = try sandbox.run("download", issue, "--wait")
        #expect(result.status == 0, "\(result.output)")
        _ = try sandbox.sql("UPDATE issue SET locator = '\(place)' WHERE name = '\(issue)'")

        result = try sandbox.run("remove", issue)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Removed the content of \(issue)"), "\(result.output)")
        let line = try sandbox.run("issues").output.components(separatedBy: "\n").first { $0.contains(issue) } ?? ""
        #expect(line.contains("\tnot downloaded"), "the issue left the library: \(line)")
        #expect(try sandbox.sql("SELECT locator FROM issue WHERE name = '\(issue)'") == place)

        result = try sandbox.run("download", issue, "--wait")
        #expect(result.status == 0, "\(result.output)")
        #expect(try sandbox.sql("SELECT status FROM issue WHERE name = '\(issue)'") == "available")
        #expect(try sandbox.sql("SELECT locator FROM issue WHERE name = '\(issue)'") == place)
    }

    @Test func removeFromLibraryDeletesTheEntryAndSaysSo() throws {
        #expect(try sandbox.run("refresh").status == 0)
        let result = try sandbox.run("remove", "--from-library", issue)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Removed \(issue) from the library"), "\(result.output)")
        #expect(!(try sandbox.run("issues").output.contains(issue)))
    }

    @Test func removingWhatIsNotDownloadedSaysSo() throws {
        #expect(try sandbox.run("refresh").status == 0)
        let result = try sandbox.run("remove", issue)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.hasPrefix("newsstand: ") && result.output.contains("\(issue) is not downloaded"), "\(result.output)")
    }
}
