import Foundation
import Testing

/// What `newsstand serve` and the server it starts refuse before listening: an address that
/// is not one, and another machine's reach without a user. The server checks again, since it
/// can be started by itself.
@Suite struct ServeOptionsTests {
    /// Runs `program` with `arguments` and an empty stdin; its exit status and standard error.
    static func refusal(_ program: URL, _ arguments: [String]) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = ["NEWSSTAND_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("serve-options-\(UUID().uuidString)").path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func anAddressThatIsNotOneIsRefusedByTheCommandAndTheServer() throws {
        let command = try Self.refusal(ServedShelf.binary, ["serve", "--listen", "bogus"])
        #expect(command.status == 64 && command.error.contains("--listen takes HOST:PORT or PORT with an IPv4 address, not 'bogus'"), "\(command)")
        let agent = try Self.refusal(ServedShelf.binary, ["serve", "--agent", "--listen", "300.1.1.1:80"])
        #expect(agent.status == 64, "nothing is kept for the agent: \(agent)")
        let server = try Self.refusal(ServedShelf.binary.deletingLastPathComponent().appendingPathComponent("newsstand-serve"), ["bogus"])
        #expect(server.status == 1 && server.error.contains("IPv4 address"), "\(server)")
    }

    @Test func anotherMachinesReachNeedsAUserEvenWhenTheServerIsStartedByItself() throws {
        let server = ServedShelf.binary.deletingLastPathComponent().appendingPathComponent("newsstand-serve")
        let open = try Self.refusal(server, ["0.0.0.0:1"])
        #expect(open.status == 1 && open.error.contains("lets other machines in"), "\(open)")
        let nameless = try Self.refusal(server, ["127.0.0.1:1", "--user"])
        #expect(nameless.status == 1 && nameless.error.contains("--user takes a name"), "\(nameless)")
    }
}
