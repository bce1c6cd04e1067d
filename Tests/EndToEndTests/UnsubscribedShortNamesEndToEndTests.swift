import Foundation
import Testing

/// Issues of a publication unsubscribed from stay in the library (issue #30, item 1) and
/// keep their short names: `issues` shows them and commands take them.
@Suite struct UnsubscribedShortNamesEndToEndTests {
    let sandbox = Sandbox(["NEWSSTAND_RESOURCES=\(Sandbox.repository.path)"], samples: true)

    @Test func anUnsubscribedPublicationsIssuesKeepTheirShortNames() throws {
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        let before = try sandbox.run("issues").output.split(separator: "\n").filter { $0.hasPrefix("Tidewater\t") }
        let unsubscribed = try sandbox.run("unsubscribe", "Tidewater")
        #expect(unsubscribed.status == 0, "\(unsubscribed.output)")
        let after = try sandbox.run("issues").output.split(separator: "\n").filter { $0.hasPrefix("Tidewater\t") }
        #expect(!after.isEmpty && after == before, "\(after)")
        #expect(after.last?.hasSuffix("\ttidewater/1") == true, "\(after)")
        let download = try sandbox.run("download", "tidewater/1", "--wait")
        #expect(download.status == 0, "\(download.output)")
        let read = try sandbox.run("read", "--plain", "tidewater/1")
        #expect(read.status == 0 && read.output.count > 200, "\(read.output.prefix(300))")
    }
}
