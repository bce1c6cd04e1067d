// Benchmark driver for benchmarks/transfer/run.sh: downloads one URL into a file with
// NewsstandKit's Transfer (the same path the agent uses) and prints the throughput.
//
//   newsstand-bench-transfer URL OUTPUT [--sha256 HEX] [--length BYTES]
import Foundation
import NewsstandKit

var arguments = Array(CommandLine.arguments.dropFirst())
var sha256: String?
var length: Int64?
if let index = arguments.firstIndex(of: "--sha256"), index + 1 < arguments.count {
    sha256 = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
}
if let index = arguments.firstIndex(of: "--length"), index + 1 < arguments.count {
    length = Int64(arguments[index + 1])
    arguments.removeSubrange(index...(index + 1))
}
guard arguments.count == 2, let url = URL(string: arguments[0]) else {
    FileHandle.standardError.write(Data("usage: newsstand-bench-transfer URL OUTPUT [--sha256 HEX] [--length BYTES]\n".utf8))
    exit(2)
}
let output = URL(fileURLWithPath: arguments[1])
let transfer = Transfer(request: TransferRequest(url: url), partFile: output, expectedLength: length, expectedSHA256: sha256)
let start = DispatchTime.now().uptimeNanoseconds
do {
    let result = try TransferRunner.run(transfer, validator: nil, policy: .standard, progress: { _ in })
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print(String(format: "bytes=%lld seconds=%.3f MBps=%.1f", result.bytes, seconds, Double(result.bytes) / seconds / 1e6))
} catch {
    FileHandle.standardError.write(Data("newsstand-bench-transfer: \(error)\n".utf8))
    exit(1)
}
