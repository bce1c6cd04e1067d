// In-process timings for the imaging module: one cover (decode, render, ANSI) and a
// shelf of 24 different covers through CoverCache (its worker threads, cold: decode +
// resample + cells + ANSI), then again from memory and from disk. Built by run.sh
// against the release build's object files:
//   shelf [--rounds N] [--workers N] COVER_DIR_OR_IMAGE...
// Every PNG or JPEG found is a cover; with fewer than 24, the first ones are re-encoded
// as JPEG (quality 90) to make 24 different files, as feeds mix both formats.
import Foundation
import Imaging

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// CPU time of the whole process (all threads), in ms: on a machine shared with other
/// work this says what the wall time would be with the cores to ourselves.
func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let seconds = Double(usage.ru_utime.tv_sec) + Double(usage.ru_stime.tv_sec)
    let microseconds = Double(usage.ru_utime.tv_usec) + Double(usage.ru_stime.tv_usec)
    return seconds * 1000 + microseconds / 1000
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

var arguments = Array(CommandLine.arguments.dropFirst())
var rounds = 5, workers = 2
while let flag = arguments.first, flag.hasPrefix("--"), arguments.count >= 2 {
    if flag == "--rounds" { rounds = Int(arguments[1]) ?? rounds }
    if flag == "--workers" { workers = Int(arguments[1]) ?? workers }
    arguments.removeFirst(2)
}
var files: [URL] = []
for argument in arguments {
    let url = URL(fileURLWithPath: argument)
    if let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) {
        for case let file as URL in walker where ["png", "jpg", "jpeg"].contains(file.pathExtension.lowercased()) {
            files.append(file)
        }
    } else {
        files.append(url)
    }
}
files.sort { $0.path < $1.path }
guard !files.isEmpty else {
    FileHandle.standardError.write(Data("usage: shelf [--rounds N] [--workers N] COVER_DIR_OR_IMAGE...\n".utf8))
    exit(2)
}
let options = RenderOptions(columns: 30, rows: 22, colorMode: .truecolor)

// One cover, step by step (medians of 15).
for file in Set(files.map { $0.pathExtension.lowercased() }).sorted().compactMap({ ext in files.first { $0.pathExtension.lowercased() == ext } }) {
    let data = try Data(contentsOf: file)
    let bytes = [UInt8](data)
    var image = try ImageDecoder.decode(bytes, drawnWith: options)
    var picture = CoverRenderer.render(image, options: options)
    var decode: [Double] = [], render: [Double] = [], ansi: [Double] = []
    for _ in 0..<15 {
        decode.append(try milliseconds { image = try ImageDecoder.decode(bytes, drawnWith: options) })
        render.append(milliseconds { picture = CoverRenderer.render(image, options: options) })
        ansi.append(milliseconds { _ = picture.ansi() })
    }
    print(String(format: "%@ (%d×%d): decode %.2f ms, resample + cells %.2f ms, ANSI %.2f ms (medians of 15)",
                 file.lastPathComponent, image.width, image.height, median(decode), median(render), median(ansi)))
}

// 24 different covers in a fresh directory.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
var covers: [URL] = []
for index in 0..<24 {
    let source = files[index % files.count]
    let url: URL
    if index < files.count {
        url = directory.appendingPathComponent("cover-\(index).\(source.pathExtension)")
        try Data(contentsOf: source).write(to: url)
    } else {
        let image = try ImageDecoder.decode(Data(contentsOf: source))
        url = directory.appendingPathComponent("cover-\(index).jpg")
        try Data(ImageEncoder.jpeg(image, quality: 90)).write(to: url)
    }
    covers.append(url)
}
let formats = Dictionary(grouping: covers, by: { $0.pathExtension }).mapValues(\.count)

/// Asks for every cover, waits for the workers, then encodes every picture as ANSI.
func openShelf(_ cache: CoverCache) -> Double {
    let group = DispatchGroup()
    return milliseconds {
        for cover in covers {
            group.enter()
            if cache.picture(for: cover, options: options, onReady: { group.leave() }) != nil { group.leave() }
        }
        group.wait()
        var bytes: [UInt8] = []
        for cover in covers {
            guard let picture = cache.picture(for: cover, options: options, onReady: {}) else {
                print("missing picture for \(cover.lastPathComponent): \(String(describing: cache.error(for: cover, options: options)))")
                continue
            }
            picture.appendANSI(to: &bytes)
        }
        precondition(!bytes.isEmpty)
    }
}

var coldCPU: [Double] = []
var cold: [Double] = [], memory: [Double] = [], disk: [Double] = []
for round in 0..<rounds {
    let cells = directory.appendingPathComponent("cells-\(round)")
    let cache = CoverCache(directory: cells, workers: workers)
    let cpuBefore = cpuMilliseconds()
    cold.append(openShelf(cache))
    coldCPU.append(cpuMilliseconds() - cpuBefore)
    memory.append(openShelf(cache))
    cache.shutDown()
    let fromDisk = CoverCache(directory: cells, workers: workers)
    disk.append(openShelf(fromDisk))
    fromDisk.shutDown()
}
print(String(format: "shelf of 24 different covers (%@), %d workers, %d cores, medians of %d rounds: first open (cold) %.1f ms wall (min %.1f), %.1f ms CPU (all threads; ÷ %d workers = %.1f ms), again from memory %.3f ms, a new cache from disk %.1f ms",
             formats.map { "\($0.value) \($0.key)" }.sorted().joined(separator: ", "), workers,
             ProcessInfo.processInfo.activeProcessorCount, rounds, median(cold), cold.min() ?? 0, median(coldCPU), workers, median(coldCPU) / Double(workers), median(memory), median(disk)))
