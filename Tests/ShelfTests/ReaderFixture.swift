import Foundation
import Synchronization
import Imaging
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// Issues written by the tests straight into a library's content directory, as the agent
/// would have installed them: a small EPUB magazine and comic books.
enum ReaderFixture {
    struct Missing: Error { var name: String }

    /// Installs `files` (path inside the issue → bytes) as an available, unread issue.
    static func install(_ files: [String: Data], in h: ShelfHarness, name: String, title: String = "Fixture") throws -> Issue {
        let publication = try h.library.store.save(Publication(feedURL: "file:///\(name).xml", title: "Publication \(name)"))
        var issue = try h.library.store.addIssue(name: name, date: Date(), publicationID: publication.id, title: title)
        let directory = h.library.downloads.contentDirectory(for: issue)
        for (path, data) in files {
            let file = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        issue.status = .available
        issue.unread = true
        return try h.library.store.save(issue)
    }

    /// Words unique in the whole magazine: `p12w3` is word 3 of paragraph 12 of an article
    /// (prefixed by the article's letter), so a test can tell exactly which text is shown.
    static func paragraph(_ article: String, _ number: Int, words: Int = 14) -> String {
        (0..<words).map { "\(article)p\(number)w\($0)" }.joined(separator: " ")
    }

    static func chapter(title: String, body: String) -> Data {
        Data("""
        <?xml version="1.0" encoding="utf-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml"><head><title>\(title)</title></head>
        <body>\(body)</body></html>
        """.utf8)
    }

    /// Four articles; the nav names three of them and a heading inside the second; the
    /// fourth is found only by its own title. "lighthouse" occurs once in the first article,
    /// twice in the second, once in the fourth.
    static func magazine() -> [String: Data] {
        var second = "<h1>Keeper of the Light</h1><p>The LIGHTHOUSE stood tall; a lighthouse keeper lived there.</p>"
        for number in 0..<40 { second += "<p>\(paragraph("b", number))</p>" }
        second += "<h2 id=\"night\">Night Watch</h2>"
        for number in 40..<80 { second += "<p>\(paragraph("b", number))</p>" }
        var first = "<h1>Harbour News</h1>"
        for number in 0..<6 { first += "<p>\(paragraph("a", number))</p>" }
        first += "<p>The old Lighthouse was painted.</p><p>Fresh coffee at the CAFÉ on the quay.</p>"
        let third = "<h1>Weather at Sea</h1><p>Calm seas and light winds.</p>"
            + "<p><img src=\"broken.png\" alt=\"Broken chart\"/></p><p><img src=\"missing.png\" alt=\"Missing map\"/></p>"
        let fourth = "<h1>Letters to the Editor</h1><p>Dear editor, the lighthouse lamp is too bright.</p>"
        let nav = """
        <?xml version="1.0" encoding="utf-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head>
        <body><nav epub:type="toc"><ol>
        <li><a href="ch1.xhtml">Harbour News</a></li>
        <li><a href="ch2.xhtml">The Lighthouse Keeper</a><ol><li><a href="ch2.xhtml#night">Night Watch</a></li></ol></li>
        <li><a href="ch3.xhtml">Weather at Sea</a></li>
        </ol></nav></body></html>
        """
        let package = """
        <?xml version="1.0" encoding="utf-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
        <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">fixture</dc:identifier>
        <dc:title>Harbour Monthly</dc:title><dc:language>en</dc:language></metadata>
        <manifest>
        <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
        <item id="c1" href="ch1.xhtml" media-type="application/xhtml+xml"/>
        <item id="c2" href="ch2.xhtml" media-type="application/xhtml+xml"/>
        <item id="c3" href="ch3.xhtml" media-type="application/xhtml+xml"/>
        <item id="c4" href="ch4.xhtml" media-type="application/xhtml+xml"/>
        </manifest>
        <spine><itemref idref="c1"/><itemref idref="c2"/><itemref idref="c3"/><itemref idref="c4"/></spine>
        </package>
        """
        return [
            "mimetype": Data("application/epub+zip".utf8),
            "META-INF/container.xml": Data("""
            <?xml version="1.0"?>
            <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
            <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
            """.utf8),
            "OEBPS/content.opf": Data(package.utf8),
            "OEBPS/nav.xhtml": Data(nav.utf8),
            "OEBPS/ch1.xhtml": chapter(title: "Harbour News", body: first),
            "OEBPS/ch2.xhtml": chapter(title: "Keeper of the Light", body: second),
            "OEBPS/ch3.xhtml": chapter(title: "Weather at Sea", body: third),
            "OEBPS/ch4.xhtml": chapter(title: "Letters to the Editor", body: fourth),
            "OEBPS/broken.png": Data("\u{89}PNG not really a picture".utf8),
        ]
    }

    /// One article of `paragraphs` paragraphs of unique words (`cp12w3`), a heading every
    /// hundred: 4,000 make about 450 KB, enough to be opened from its first part.
    static func longArticle(paragraphs: Int = 4000) -> [String: Data] {
        var body = ""
        for number in 0..<paragraphs {
            if number % 100 == 0 { body += "<h2 id=\"s\(number / 100)\">Section \(number / 100)</h2>\n" }
            body += "<p>\(paragraph("c", number))</p>\n"
        }
        var files = magazine()
        files["OEBPS/ch1.xhtml"] = chapter(title: "The Long Read", body: body)
        return files
    }

    static let red: (UInt8, UInt8, UInt8) = (230, 20, 20)
    static let blue: (UInt8, UInt8, UInt8) = (20, 20, 230)
    static let green: (UInt8, UInt8, UInt8) = (20, 200, 20)

    /// Three 200×300 pages: the first red on its top 45% and blue below (so panning shows),
    /// the second green, the third blue. `manga` adds ComicInfo's right-to-left.
    static func comic(manga: Bool) throws -> [String: Data] {
        func page(_ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) throws -> Data {
            var pixels: [UInt8] = []
            pixels.reserveCapacity(200 * 300 * 4)
            for y in 0..<300 {
                for x in 0..<200 {
                    let (r, g, b) = colour(x, y)
                    pixels += [r, g, b, 255]
                }
            }
            return Data(try ImageEncoder.png(RGBAImage(width: 200, height: 300, pixels: pixels)))
        }
        var files: [String: Data] = [
            "page01.png": try page { _, y in y < 135 ? red : blue },
            "page02.png": try page { _, _ in green },
            "page03.png": try page { _, _ in blue },
        ]
        if manga {
            files["ComicInfo.xml"] = Data("""
            <?xml version="1.0"?>
            <ComicInfo><Title>Badger Manga</Title><Manga>YesAndRightToLeft</Manga></ComicInfo>
            """.utf8)
        }
        return files
    }
}

extension ShelfHarness {
    /// A harness reading a fixture issue, opened the way `newsstand read` opens it.
    static func reading(_ files: [String: Data], name: String, width: Int, height: Int, clock: TestClock? = nil) throws -> ShelfHarness {
        var now: @Sendable () -> Date = { Date() }
        if let clock { now = { clock.now } }
        let h = try ShelfHarness(width: width, height: height, samples: false, clock: now)
        h.app.startReading(try ReaderFixture.install(files, in: h, name: name))
        _ = h.settle()   // what the reader asked for at the start (the next article) is read
        return h
    }

    /// Another session on the same library (the program started again), reading `issue`.
    func restart(reading issue: String, width: Int, height: Int) throws -> ShelfApp {
        let app = ShelfApp(environment: .init(library: library, theme: .classic, colorMode: .truecolor, symbols: .half,
                                              coverCache: CoverCache(directory: nil), startAgent: {}))
        app.state.width = width
        app.state.height = height
        guard let found = try library.store.issue(named: issue) else { throw ReaderFixture.Missing(name: issue) }
        app.startReading(found)
        // What the reader asked for at the start is read, as `settle` does.
        for _ in 0..<20 {
            app.finishEffects()
            if !app.pollChanges() { break }
        }
        return app
    }

    /// The screen once `condition` holds on it, settled again each time a picture is ready
    /// or has failed (they render on worker threads: `pictureReady`), never after a sleep;
    /// the last screen when none came within `timeout` seconds.
    func waitFor(timeout: TimeInterval = 60, _ condition: (Canvas) -> Bool) -> Canvas {
        var last = settle()
        return pictureReady.wait(timeout: timeout) { () -> Canvas? in
            last = settle()
            return condition(last) ? last : nil
        } ?? last
    }

    func type(_ text: String) {
        // Each key once the one before has been answered (articles are read off the run loop).
        for character in text { _ = send(.key(.character(character))) }
    }
}

/// A clock a test moves by hand, so that nothing waits on real time.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

extension Canvas {
    func row(_ y: Int) -> String { text.components(separatedBy: "\n")[y] }

    /// Cells whose colours are close to `rgb` (either half of a half-block cell).
    func cells(near rgb: (UInt8, UInt8, UInt8)) -> [(x: Int, y: Int)] {
        func near(_ color: Color) -> Bool {
            guard case .rgb(let r, let g, let b) = color else { return false }
            return abs(Int(r) - Int(rgb.0)) < 30 && abs(Int(g) - Int(rgb.1)) < 30 && abs(Int(b) - Int(rgb.2)) < 30
        }
        var found: [(Int, Int)] = []
        for y in 0..<height {
            for x in 0..<width where near(self[x, y].foreground) || near(self[x, y].background) { found.append((x, y)) }
        }
        return found
    }
}
