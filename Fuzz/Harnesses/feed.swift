// libFuzzer target: feed bytes → FeedParser (every format it sniffs: Atom, RSS, OPDS,
// JSON Feed, plist) → the one-line report the CLI prints. Any crash, trap or
// AddressSanitizer report is a bug; thrown errors are expected.
import Feeds
import Foundation

private let base = URL(fileURLWithPath: "/fuzz/feeds/index.xml")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeed(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let document = try? FeedParser.parse(data, url: base) {
        // Touch everything a caller reads so lazy paths run too.
        _ = document.entries.count
        _ = FeedReport.text(document)
        _ = try? FeedReport.json(document)
    }
    return 0
}
