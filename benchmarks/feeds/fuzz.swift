// Mutation fuzzing of Markup and FeedParser: takes the fixtures, mutates them (bytes, markup
// tokens, copies, cuts) with a seeded generator and parses each result. A crash stops the
// process with a backtrace; a clean run prints how many inputs were read or refused.
// Usage: benchmarks/feeds/fuzz.sh [SEED] [ROUNDS]
import Feeds
import Markup
import Foundation

var state: UInt64 = UInt64(CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 1 : 1)
func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
}
let dir = URL(fileURLWithPath: CommandLine.arguments[1])
let files = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
let seeds = files.compactMap { try? Data(contentsOf: $0) }
let tokens: [[UInt8]] = ["<", ">", "</", "/>", "&", "&#x", ";", "\"", "'", "<![CDATA[", "]]>", "<!--", "-->", "<!DOCTYPE x [", "]>", "<!ENTITY a \"&a;\">", "xmlns:a=\"u\"", "a:", "<entry>", "</entry>", "<item>", "</item>", "<link rel=\"enclosure\" href=\"", "{", "}", "[", "]", "\"version\":", "\u{1B}[", "\u{202E}", "\u{FEFF}", "\r\n", "<?xml encoding=\"utf-16\"?>", "+9999", "Feb", ":"].map { Array($0.utf8) }
let url = URL(string: "https://fuzz.example/a/feed.xml")!
let rounds = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 10000 : 10000
var ok = 0, refused = 0
for round in 0..<rounds {
    var bytes = [UInt8](seeds[next(seeds.count)])
    for _ in 0..<(1 + next(12)) {
        let at = next(bytes.count + 1)
        switch next(5) {
        case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] = UInt8(next(256))
        case 1 where !bytes.isEmpty: bytes.remove(at: min(at, bytes.count - 1))
        case 2: bytes.insert(contentsOf: tokens[next(tokens.count)], at: at)
        case 3 where !bytes.isEmpty:
            let from = next(bytes.count); let len = next(200)
            bytes.insert(contentsOf: bytes[from..<min(bytes.count, from + len)], at: at)
        default: bytes = Array(bytes.prefix(at))
        }
    }
    _ = MarkupParser.parse(Data(bytes))
    do { _ = try FeedParser.parse(Data(bytes), url: url); ok += 1 } catch { refused += 1 }
    if round % 5000 == 0 { print("round \(round)") }
}
print("done: \(ok) read, \(refused) refused")
