// Scaling benchmark driver (benchmarks/scaling/run.py): opens the shelf of the library at
// NEWSSTAND_HOME through the real ShelfApp run loop on an in-memory terminal, and with
// `store` opens the first publication's store (Enter) and goes to its last issue (G), then
// quits. The shelf's reads (`ShelfReader`), its update and its view are all in the time
// run.py takes of this process. Exits 1 when no frame showed EXPECT, so a run that never
// reached the screen it was meant to time fails instead of timing nothing.
//
//   newsstand-bench-scaling shelf|store EXPECT
import Foundation
import Imaging
import NewsstandKit
import Shelf
import Terminal

/// An in-memory terminal that types the given keys and notes whether any frame showed `expected`.
final class WatchingBackend: TerminalBackend {
    private let memory = MemoryBackend(width: 120, height: 40)
    private let expected: String
    private(set) var sawExpected = false

    init(keys: [Key], expected: String) {
        self.expected = expected
        memory.send(keys: keys + [.character("Q")])
    }

    var size: (width: Int, height: Int) { memory.size }
    func draw(_ canvas: Canvas) {
        memory.draw(canvas)
        if !sawExpected, canvas.locate(expected) != nil { sawExpected = true }
    }
    func nextEvent(timeout: Double?) -> Event? { memory.nextEvent(timeout: timeout) }
    func restore() { memory.restore() }
    var lastScreen: String { memory.screen.text }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, let mode = arguments.first, ["shelf", "store"].contains(mode) else {
    FileHandle.standardError.write(Data("usage: newsstand-bench-scaling shelf|store EXPECT\n".utf8))
    exit(2)
}
do {
    let library = try Library(paths: Paths())
    let app = ShelfApp(environment: .init(library: library, theme: .classic, colorMode: .truecolor, symbols: .half,
                                          coverCache: CoverCache(directory: nil), startAgent: {}))
    let backend = WatchingBackend(keys: mode == "store" ? [.enter, .character("G")] : [], expected: arguments[1])
    app.run(backend: backend)
    guard backend.sawExpected else {
        FileHandle.standardError.write(Data("no frame showed \"\(arguments[1])\"; the last:\n\(backend.lastScreen)\n".utf8))
        exit(1)
    }
} catch {
    FileHandle.standardError.write(Data("newsstand-bench-scaling: \(error)\n".utf8))
    exit(1)
}
