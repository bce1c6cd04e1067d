// Times TextLayout on a generated 2 MB HTML article: parsing into blocks, then wrapping
// into lines at 80 columns. Built with the module's sources in one optimized binary by
// run.sh; never part of `swift test`.
import TextLayout
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
}

/// CPU time of the whole process (all threads): on a machine shared with other jobs, wall
/// time also counts the time spent waiting for a core.
func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
}

/// A deterministic article: English prose with inline markup, headings, lists, quotes,
/// a Japanese paragraph now and then, until `bytes` of HTML.
func makeArticle(bytes: Int) -> String {
    let words = ["harbour", "morning", "boats", "quiet", "tide", "fishermen", "nets", "gulls",
                 "lighthouse", "weather", "the", "a", "of", "and", "came", "early", "before",
                 "fog", "rolled", "over", "water", "while", "ropes", "creaked", "against", "pier"]
    let japanese = "朝の港は静かだった。漁船がゆっくりと戻ってくる。霧が海の上に広がり、カモメが鳴いていた。"
    var seed: UInt64 = 42
    func next() -> Int {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return Int(truncatingIfNeeded: seed >> 33)
    }
    var html = "<!DOCTYPE html><html><head><title>Benchmark</title><style>p{}</style></head><body>\n"
    var section = 0
    while html.utf8.count < bytes {
        section += 1
        html += "<h2 id=\"s\(section)\">Section \(section)</h2>\n"
        for paragraph in 0..<8 {
            if paragraph == 4 && section % 3 == 0 {
                html += "<p>" + String(repeating: japanese, count: 3) + "</p>\n"
                continue
            }
            html += "<p>"
            for index in 0..<(60 + next() % 40) {
                let word = words[next() % words.count]
                switch next() % 23 {
                case 0: html += "<em>\(word)</em>"
                case 1: html += "<strong>\(word)</strong>"
                case 2: html += "<a href=\"https://example.com/\(word)/\(index)\">\(word)</a>"
                case 3: html += "\(word)&nbsp;&mdash;"
                default: html += word
                }
                html += index % 11 == 10 ? ".\n" : " "
            }
            html += "</p>\n"
        }
        html += "<blockquote><p>“The sea was calm,” she said, “and the boats came home early.”</p></blockquote>\n"
        html += "<ul><li>Nets mended</li><li>Ropes coiled<ul><li>twice</li></ul></li><li>Lamps lit</li></ul>\n"
    }
    return html + "</body></html>\n"
}

let html = makeArticle(bytes: 2 * 1024 * 1024)
var parseTimes: [Double] = []
var layoutTimes: [Double] = []
var cpuTimes: [Double] = []
var parseCPUTimes: [Double] = []
var lineCount = 0
// BENCH_ITERATIONS=1 for a run under callgrind, whose instruction counts do not depend
// on what else the machine is doing.
let iterations = getenv("BENCH_ITERATIONS").flatMap { Int(String(cString: $0)) } ?? 7
for _ in 0..<max(1, iterations) {
    let cpuStart = cpuNow()
    let start = now()
    let document = HTMLReader.document(html: html)
    let parsed = now()
    parseCPUTimes.append(cpuNow() - cpuStart)
    let lines = Layout.lines(for: document, width: 80)
    let done = now()
    cpuTimes.append(cpuNow() - cpuStart)
    parseTimes.append(parsed - start)
    layoutTimes.append(done - parsed)
    lineCount = lines.count
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func ms(_ value: Double) -> String { "\((value * 10).rounded() / 10) ms" }
let totals = zip(parseTimes, layoutTimes).map { $0 + $1 }
print("input: \(html.utf8.count) bytes of HTML, \(lineCount) lines at 80 columns")
print("parse  median \(ms(median(parseTimes)))")
print("layout median \(ms(median(layoutTimes)))")
print("total  median \(ms(median(totals))) (min \(ms(totals.min() ?? 0)), max \(ms(totals.max() ?? 0)))")
print("CPU time (all threads): parse median \(ms(median(parseCPUTimes))), parse + layout median \(ms(median(cpuTimes))) (min \(ms(cpuTimes.min() ?? 0)))")
