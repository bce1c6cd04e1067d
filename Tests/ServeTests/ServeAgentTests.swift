import Foundation
import NewsstandKit
import TestSupport
import Testing

/// `newsstand serve --agent`: the agent serves the shelf after the command has ended, and
/// stops serving when it stops.
@Suite struct ServeAgentTests {
    @Test func theAgentServesTheShelfAfterTheCommandEndsAndStopsServingWhenItStops() async throws {
        try await ServedShelf.onItsOwnThread {
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("serve-agent-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: home) }
            let environment = ["NEWSSTAND_HOME": home.path, "NEWSSTAND_KEYRING": "off"]
            let paths = Paths(environment: environment)
            _ = try ServeSyncTests.run(ServedShelf.binary.path, ["serve", "--agent", "--listen", "127.0.0.1:0"], environment: environment)

            // The agent's child says where it listens in the agent's log.
            let port = poll(timeout: 120) { () -> UInt16? in
                let log = (try? String(contentsOf: paths.agentLog, encoding: .utf8)) ?? ""
                return log.split(separator: "\n").lazy.compactMap { ServedShelf.port(announcedIn: String($0)) }.first
            }
            let agent = try #require(poll { try? String(contentsOf: paths.agentLock, encoding: .utf8) }
                .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
            defer { kill(agent, SIGKILL) }
            let served = try #require(port, "the agent's log: \((try? String(contentsOf: paths.agentLog, encoding: .utf8)) ?? "")")
            let answer = try RawHTTP.exchange(port: served, Data("GET /opds HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            #expect(answer.status == 200 && answer.text.contains("<feed"))

            // `serve --agent-off` stops the agent, and its server with it.
            let off = try ServeSyncTests.run(ServedShelf.binary.path, ["serve", "--agent-off"], environment: environment)
            #expect(off.contains("stopped it"), "\(off)")
            #expect(waitUntil(timeout: 60) { kill(agent, 0) != 0 }, "the agent ends")
            #expect(waitUntil(timeout: 30) {
                guard let fd = try? RawHTTP.connect(port: served) else { return true }
                close(fd)
                return false
            }, "and the shelf is served no more")
            #expect(ServeUnderAgent.wanted(paths: paths) == nil, "and the next agent serves nothing")
            #expect(try ServeSyncTests.run(ServedShelf.binary.path, ["serve", "--agent-off"], environment: environment)
                    == "The agent does not serve the shelf.")
        }
    }
}
