import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where to listen: `127.0.0.1:8080`, `0.0.0.0:8080`, or a port alone (on 127.0.0.1).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String = "127.0.0.1", port: UInt16) {
        self.host = host
        self.port = port
    }

    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: guard let port = UInt16(parts[0]) else { return nil }; self.init(port: port)
        case 2:
            guard let port = UInt16(parts[1]), Self.isIPv4(String(parts[0])) else { return nil }
            self.init(host: String(parts[0]), port: port)
        default: return nil
        }
    }

    /// A dotted IPv4 address, as the kernel reads one.
    static func isIPv4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    /// 127.0.0.0/8: only this machine reaches it.
    public var isLoopback: Bool { host.hasPrefix("127.") }
    public var description: String { "\(host):\(port)" }
}
