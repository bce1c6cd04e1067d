import Foundation
import Testing
import Terminal
@testable import Shelf

/// Whole screens against text files in `Tests/ShelfTests/Goldens`, in the manner of
/// ratatui's `assert_buffer_lines`: every row compared, each differing row reported with its
/// number, expected and got side by side, then the whole screen as drawn.
///
/// `NEWSSTAND_RECORD_GOLDENS=1 swift test --filter 'ScreenGoldenTests|ReaderGoldenTests'` writes the screens
/// drawn now in place of the files (and the tests pass); read every changed file by eye
/// (`git diff Tests/ShelfTests/Goldens`) before committing it.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static let recording = ProcessInfo.processInfo.environment["NEWSSTAND_RECORD_GOLDENS"] == "1"

    static func file(_ name: String) -> URL { directory.appendingPathComponent(name + ".txt") }

    /// The rows that differ between two screens, numbered, as a reader wants to see them.
    static func differences(got: [String], expected: [String]) -> [String] {
        var lines: [String] = []
        if got.count != expected.count { lines.append("\(got.count) rows, expected \(expected.count)") }
        for number in 0..<max(got.count, expected.count) {
            let row = got.indices.contains(number) ? got[number] : "(none)"
            let line = expected.indices.contains(number) ? expected[number] : "(none)"
            let label = number < 10 ? " \(number)" : "\(number)"
            if row != line { lines.append("row \(label) got      |\(row)|\n       expected |\(line)|") }
        }
        return lines
    }
}

/// The canvas's text against the golden file `name` (trailing spaces aside).
func expectGolden(_ canvas: Canvas, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let file = Golden.file(name)
    let got = canvas.text
    if Golden.recording {
        do {
            try FileManager.default.createDirectory(at: Golden.directory, withIntermediateDirectories: true)
            try (got + "\n").write(to: file, atomically: true, encoding: .utf8)
        } catch {
            Issue.record(Comment(rawValue: "cannot record \(file.path): \(error)"), sourceLocation: sourceLocation)
        }
        return
    }
    guard let text = try? String(contentsOf: file, encoding: .utf8) else {
        Issue.record(Comment(rawValue: "no golden \(file.lastPathComponent): record it with NEWSSTAND_RECORD_GOLDENS=1, then read it\n" + got),
                     sourceLocation: sourceLocation)
        return
    }
    var expected = text.components(separatedBy: "\n")
    if expected.last == "" { expected.removeLast() }
    let differences = Golden.differences(got: got.components(separatedBy: "\n"), expected: expected)
    if !differences.isEmpty {
        let report = "\(name) differs from \(file.lastPathComponent):\n" + differences.joined(separator: "\n")
        Issue.record(Comment(rawValue: report + "\nthe whole screen as drawn:\n" + got), sourceLocation: sourceLocation)
    }
}

/// App screens made by name at a window size, each compared whole with its golden at 80x24
/// and 120x40 (`name-WxH`): a suite's `@Test(arguments: goldens.cases)` calls `expect`.
struct ScreenGoldens: Sendable {
    let screens: [(name: String, make: @Sendable (Int, Int) -> ShelfApp.State)]

    var cases: [(String, Int, Int)] {
        screens.flatMap { screen in [(80, 24), (120, 40)].map { (screen.name, $0.0, $0.1) } }
    }

    func expect(_ name: String, _ width: Int, _ height: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let make = try #require(screens.first { $0.name == name }?.make, sourceLocation: sourceLocation)
        let canvas = ShelfApp.view(make(width, height), ShelfApp.ViewContext(theme: .classic, covers: KnownCovers()))
        expectGolden(canvas, "\(name)-\(width)x\(height)", sourceLocation: sourceLocation)
    }
}
