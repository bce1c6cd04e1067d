import Foundation

/// A one-issue Atom feed beside a stored zip of random (incompressible) bytes, written by the test.
struct IssueFeedFixture {
    let payload: URL
    let archive: URL
    let feed: URL

    init(in directory: URL, id: String, title: String, payloadBytes: Int) throws {
        payload = directory.appendingPathComponent("payload.bin")
        var bytes = [UInt8](repeating: 0, count: payloadBytes)
        var generator = SystemRandomNumberGenerator()
        bytes.withUnsafeMutableBytes { buffer in
            for offset in stride(from: 0, to: buffer.count - 7, by: 8) { buffer.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self) }
        }
        try Data(bytes).write(to: payload)
        archive = directory.appendingPathComponent("issue.zip")
        _ = try Tmux.run(["python3", "-c", """
            import zipfile, sys
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_STORED) as z:
                z.writestr("index.html", "<h1>\\(title)</h1><p>Bytes follow.</p>")
                z.write(sys.argv[2], "payload.bin")
            """, archive.path, payload.path])
        feed = directory.appendingPathComponent("feed.xml")
        try """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>\(title) Weekly</title><id>urn:\(id)</id><updated>2026-11-01T00:00:00Z</updated>
            <entry><id>\(id)</id><title>\(title)</title><updated>2026-11-01T00:00:00Z</updated>
            <link rel="http://opds-spec.org/acquisition" type="application/zip" href="issue.zip"/></entry></feed>
            """.write(to: feed, atomically: true, encoding: .utf8)
    }
}
