// In-process timings for the imaging module: one cover (decode, render, ANSI) and a
// shelf of 24 covers through CoverCache (2 workers, cold, then from memory and from
// disk). Built by run.sh against the release build's object files:
//   shelf IMAGE... (the images are cycled to make 24 covers)
import Foundation
import Imaging

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let files = CommandLine.arguments.dropFirst().map { URL(fileURLWithPath: $0) }
guard !files.isEmpty else {
    FileHandle.standardError.write(Data("usage: shelf IMAGE...\n".utf8))
    exit(2)
}
let options = RenderOptions(columns: 30, rows: 22, colorMode: .truecolor)

for file in files {
    let data = try Data(contentsOf: file)
    var image = try ImageDecoder.decode(data, minimumSize: options.pixelSize)
    var picture = CoverRenderer.render(image, options: options)
    var decode: [Double] = [], render: [Double] = [], render256: [Double] = [], ansi: [Double] = []
    for _ in 0..<15 {
        decode.append(try milliseconds { image = try ImageDecoder.decode(data, minimumSize: options.pixelSize) })
        render.append(milliseconds { picture = CoverRenderer.render(image, options: options) })
        var options256 = options
        options256.colorMode = .palette256
        render256.append(milliseconds { _ = CoverRenderer.render(image, options: options256) })
        ansi.append(milliseconds { _ = picture.ansi() })
    }
    print(String(format: "%@: decode %.2f ms, render truecolor %.2f ms, render 256 %.2f ms, ansi %.2f ms (medians of 15)",
                 file.lastPathComponent, median(decode), median(render), median(render256), median(ansi)))
}

// 24 covers: distinct bytes per cover (a comment chunk would do, but copies under
// new names are enough: the cache keys by content, so make each copy differ).
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
var covers: [URL] = []
for index in 0..<24 {
    let source = files[index % files.count]
    var bytes = [UInt8](try Data(contentsOf: source))
    bytes += Array("\(index)".utf8)  // trailing bytes after IEND / EOI are ignored by decoders
    let url = directory.appendingPathComponent("cover-\(index).\(source.pathExtension)")
    try Data(bytes).write(to: url)
    covers.append(url)
}

func openShelf(_ cache: CoverCache) -> Double {
    let group = DispatchGroup()
    return milliseconds {
        for cover in covers {
            group.enter()
            if cache.picture(for: cover, options: options, onReady: { group.leave() }) != nil { group.leave() }
        }
        group.wait()
        for cover in covers where cache.picture(for: cover, options: options, onReady: {}) == nil {
            print("missing picture for \(cover.lastPathComponent): \(String(describing: cache.error(for: cover, options: options)))")
        }
    }
}

let cells = directory.appendingPathComponent("cells")
let cold = CoverCache(directory: cells, workers: 2)
let first = openShelf(cold)
let again = openShelf(cold)
cold.shutDown()
let fromDisk = CoverCache(directory: cells, workers: 2)
let disk = openShelf(fromDisk)
fromDisk.shutDown()
print(String(format: "shelf of 24 covers, 2 workers: first open %.1f ms, again (memory) %.3f ms, new process-like cache (disk) %.1f ms",
             first, again, disk))
