import Foundation
import Imaging
import Pictures
import Testing

/// kitty's pictures as Unicode placeholder cells, through tmux (kitty 0.28 or later shows
/// them; Debian's 0.26.5 cannot, so no screenshot here): with `kitty_placeholders = "on"`
/// the reader's page reaches the pane as text, U+10EEEE cells numbered by their diacritics
/// in the id's colour, which tmux keeps like any text; the picture itself is sent once
/// through tmux's passthrough with one virtual placement, and deleted by id on quitting.
struct KittyPlaceholdersEndToEndTests {
    static let placeholder: Unicode.Scalar = "\u{10EEEE}"

    @Test func aComicPageReachesTmuxAsPlaceholderCellsAndIsSentOnce() throws {
        let sandbox = Sandbox()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("placeholders-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = sandbox.home.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "images = \"kitty\"\nkitty_placeholders = \"on\"\n".write(to: config.appendingPathComponent("config.toml"),
                                                                     atomically: true, encoding: .utf8)
        let comic = directory.appendingPathComponent("Greys.cbz")
        try Self.writeComic(to: comic, in: directory)
        #expect(try sandbox.run("subscribe", comic.path).status == 0)
        let downloaded = try sandbox.run("download", "file://" + comic.path, "--wait")
        try #require(downloaded.status == 0, "\(downloaded.output)")
        let bytes = directory.appendingPathComponent("pane-output")

        let tmux = Tmux()
        defer { tmux.stop() }
        // The program waits for a line, so the pane's output is piped to a file from its first byte.
        let command = "env -u NO_COLOR TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 "
            + sandbox.environment.map { "'\($0)'" }.joined(separator: " ")
            + " '\(Tmux.binary.path)' read 'file://\(comic.path)'"
        try tmux.start("sh -c \"read go; exec \(command.replacingOccurrences(of: "\"", with: "\\\""))\"")
        try tmux.tmux(["set-option", "-g", "allow-passthrough", "on"])
        try tmux.tmux(["pipe-pane", "-O", "-t", tmux.session, "cat > '\(bytes.path)'"])
        try tmux.send("Enter")

        // A whole picture's cells, then the screen once it stays the same: a capture can fall
        // between the writes of one frame, and the page can be laid out again once.
        let whole = try tmux.waitFor(showing: "placeholder cells", timeout: 60) { screen in
            let grid = Self.grid(of: screen)
            return grid.count >= 10 && grid.allSatisfy { $0.count == grid[0].count && $0.allSatisfy { $0.count == grid[0][0].count } }
        }
        let screen = tmux.settled(from: whole, quiet: 1)
        // Every row of the picture numbers its row, every cell its column, all under one id.
        let grid = Self.grid(of: screen)
        let marks = grid.flatMap { $0 }.map { $0.count >= 3 ? $0[2] : 0 }
        #expect(Set(marks).count == 1 && marks.first != 0, "one id's highest byte in every cell")
        #expect(grid.allSatisfy { $0.count == grid[0].count } && grid[0].count >= 10, "\(grid.map(\.count))")
        for (row, cells) in grid.enumerated() {
            #expect(cells.map { $0[0] } == Array(repeating: Self.diacritic(row), count: cells.count), "row \(row)")
            #expect(cells.map { $0[1] } == (0..<cells.count).map(Self.diacritic), "row \(row)")
        }
        // The id's colour, as tmux keeps it: a 256-colour index (tmux-256color draws in 256),
        // nothing else between a row's cells.
        let coloured = try tmux.screen(colors: true)
        let index = try #require(Self.indexBeforePlaceholder(in: coloured), "\(coloured.debugDescription)")
        #expect((16...255).contains(index))
        for line in coloured.split(separator: "\n") where line.unicodeScalars.contains(Self.placeholder) {
            let scalars = line.unicodeScalars
            let first = scalars.firstIndex(of: Self.placeholder)!, last = scalars.lastIndex(of: Self.placeholder)!
            #expect(!scalars[first...last].contains("\u{1B}"), "\(line.debugDescription)")
        }
        // What the program wrote: the picture sent once under that id through the passthrough,
        // one virtual placement, no cursor placement.
        #expect(Tmux.waitUntil(bytes, contains: Array("a=p,U=1,".utf8)))
        let written = String(decoding: (try? Data(contentsOf: bytes)) ?? Data(), as: UTF8.self)
        let id = UInt32(marks[0] > 0 ? Self.index(ofDiacritic: marks[0]) : 0) << 24 | UInt32(index)
        #expect(written.components(separatedBy: "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,f=100,t=d,i=\(id),").count == 2, "sent once as \(id)")
        #expect(written.components(separatedBy: "\u{1B}\u{1B}_Ga=p,U=1,i=\(id),c=\(grid[0].count),r=\(grid.count),q=2").count == 2)
        #expect(!written.contains("a=p,i="))

        try tmux.send("q")
        try tmux.waitFor(showing: "no placeholder cells after quitting", timeout: 30) { Self.grid(of: $0).isEmpty }
        #expect(Tmux.waitUntil(bytes, contains: Array("\u{1B}\u{1B}_Ga=d,d=I,i=\(id),q=2".utf8), timeout: 30))
    }

    /// The placeholder cells on screen, row by row: each cell's diacritics (row, column, id's highest byte).
    static func grid(of screen: String) -> [[[UInt32]]] {
        screen.split(separator: "\n").compactMap { line -> [[UInt32]]? in
            var cells: [[UInt32]] = []
            for scalar in line.unicodeScalars {
                if scalar == placeholder { cells.append([]) } else if !cells.isEmpty, scalar.properties.generalCategory == .nonspacingMark {
                    cells[cells.count - 1].append(scalar.value)
                }
            }
            return cells.isEmpty ? nil : cells
        }
    }

    /// N of the first `ESC [ 38;5;N m` followed by a placeholder.
    static func indexBeforePlaceholder(in text: String) -> Int? {
        let scalars = Array(text.unicodeScalars)
        let prefix = Array("\u{1B}[38;5;".unicodeScalars)
        var i = 0
        while i + prefix.count < scalars.count {
            if Array(scalars[i..<i + prefix.count]) == prefix {
                var j = i + prefix.count, digits = ""
                while j < scalars.count, ("0"..."9").contains(scalars[j]) { digits.unicodeScalars.append(scalars[j]); j += 1 }
                if j + 1 < scalars.count, scalars[j] == "m", scalars[j + 1] == placeholder { return Int(digits) }
            }
            i += 1
        }
        return nil
    }

    static func diacritic(_ n: Int) -> UInt32 { KittyPlaceholders.diacritics[n].value }
    static func index(ofDiacritic value: UInt32) -> Int { KittyPlaceholders.diacritics.firstIndex { $0.value == value } ?? 0 }

    /// A CBZ of one page: 600 × 800 pixels of grey.
    static func writeComic(to comic: URL, in directory: URL) throws {
        let pages = directory.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        let page = RGBAImage(width: 600, height: 800, pixels: Array(repeating: [120, 120, 120, 255], count: 600 * 800).flatMap { $0 })
        try Data(ImageEncoder.png(page)).write(to: pages.appendingPathComponent("page01.png"))
        let (output, status) = try Tmux.runWithStatus(["sh", "-c", "cd '\(pages.path)' && python3 -c \"import zipfile,sys; "
            + "z=zipfile.ZipFile(sys.argv[1],'w'); z.write('page01.png'); z.close()\" '\(comic.path)'"])
        guard status == 0 else { throw TmuxError(message: "could not write the comic: \(output)") }
    }
}
