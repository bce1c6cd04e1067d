import Foundation
import Testing
@testable import Feeds

enum Fixture {
    static func data(_ name: String) throws -> Data {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return try Data(contentsOf: folder.appendingPathComponent(name))
    }

    static func parse(_ name: String, url: String) throws -> FeedDocument {
        try FeedParser.parse(data(name), url: try #require(URL(string: url)))
    }
}

func utc(_ text: String) -> Date {
    // Test-side expected values, written as ISO 8601 and parsed by Foundation (not by FeedDates).
    let formatter = ISO8601DateFormatter()
    return formatter.date(from: text) ?? .distantFuture
}

/// True when no scalar is a C0/C1 control, DEL or a bidirectional override.
func isClean(_ text: String?) -> Bool {
    guard let text else { return true }
    return !text.unicodeScalars.contains { s in
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || (0x202A...0x202E).contains(s.value) || (0x2066...0x2069).contains(s.value)
    }
}
