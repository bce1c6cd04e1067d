// Parses a feed (a file path or an http://127.0.0.1 URL) several times and prints the
// entry count, the fastest and median wall-clock times and the fastest CPU time (the
// machine is shared: CPU time is the steadier figure). Built by run.sh against the
// release build of the Feeds and Markup modules.
import Feeds
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2, let source = arguments.last else {
    print("usage: bench [--runs N] FILE|URL")
    exit(2)
}
let runs = arguments.count >= 4 && arguments[1] == "--runs" ? Int(arguments[2]) ?? 5 : 5
let url = source.hasPrefix("http") ? URL(string: source)! : URL(fileURLWithPath: source)

func cpuSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

var times: [Double] = []
var cpu: [Double] = []
var entries = 0
for _ in 0..<runs {
    let cpuStart = cpuSeconds()
    let start = DispatchTime.now().uptimeNanoseconds
    let data = try Data(contentsOf: url)  // over loopback for an http URL: fetch included
    let document = try FeedParser.parse(data, url: url)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    times.append(elapsed)
    cpu.append(cpuSeconds() - cpuStart)
    entries = document.entries.count
    if !document.problems.isEmpty { print("problems: \(document.problems.prefix(3))") }
}
times.sort()
cpu.sort()
print(String(format: "entries %d  runs %d  wall fastest %.3f s median %.3f s  cpu fastest %.3f s",
             entries, runs, times[0], times[times.count / 2], cpu[0]))
