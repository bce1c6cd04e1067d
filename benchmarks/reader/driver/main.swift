// Reader benchmark driver (issue 8): opens a generated EPUB of about 2 MB of text to its
// first page, then turns pages, through the real ShelfApp run loop with a terminal backend
// that only keeps frames (the time to copy a frame to ncurses is not counted). Built by
// benchmarks/reader/run.sh in release mode; never part of `swift test`.
//
//   newsstand-bench-reader [--shape one|chapters] [--turns N] [--pause-ms MS]
//   newsstand-bench-reader --pdf FILE [--turns N] [--pause-ms MS]   (PDFReaderBenchmark)
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Imaging
import IssueArchive
import NewsstandKit
import Shelf
import Terminal
import TextLayout

func milliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
}

func cpuMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
}

/// Deterministic prose: paragraphs with emphasis, links and entities, a heading every ten
/// paragraphs, a Japanese paragraph now and then; `bytes` of XHTML in `count` chapters.
func chapters(totalBytes: Int, count: Int) -> [String] {
    let words = ["harbour", "morning", "boats", "quiet", "tide", "fishermen", "nets", "gulls", "lighthouse",
                 "weather", "the", "a", "of", "and", "came", "early", "before", "fog", "rolled", "over",
                 "water", "while", "ropes", "creaked", "against", "pier", "keeper", "lamp", "island"]
    let japanese = "朝の港は静かだった。漁船がゆっくりと戻ってくる。霧が海の上に広がり、カモメが鳴いていた。"
    var seed: UInt64 = 8
    func next(_ bound: Int) -> Int {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return Int(truncatingIfNeeded: seed >> 33) % bound
    }
    let perChapter = totalBytes / count
    return (0..<count).map { chapter in
        var body = "<h1>Chapter \(chapter + 1)</h1>\n"
        var paragraph = 0
        while body.utf8.count < perChapter {
            paragraph += 1
            if paragraph % 10 == 0 { body += "<h2 id=\"c\(chapter)s\(paragraph)\">Section \(paragraph / 10)</h2>\n" }
            if paragraph % 17 == 0 { body += "<p>\(japanese)\(japanese)</p>\n"; continue }
            body += "<p>"
            for index in 0..<(50 + next(40)) {
                let word = words[next(words.count)]
                switch next(20) {
                case 0: body += "<em>\(word)</em>"
                case 1: body += "<strong>\(word)</strong>"
                case 2: body += "<a href=\"https://example.com/\(word)\">\(word)</a>"
                case 3: body += "\(word)&nbsp;&#8212;"
                default: body += word
                }
                body += index % 12 == 11 ? ". " : " "
            }
            body += "</p>\n"
        }
        if chapter == count - 1 { body += "<p>The last word is zanzibar.</p>\n" }
        return """
        <?xml version="1.0" encoding="utf-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter \(chapter + 1)</title></head>
        <body>\(body)</body></html>
        """
    }
}

/// Writes an extracted EPUB (what the agent installs) into `directory`; returns its text bytes.
func writeEPUB(_ chapters: [String], to directory: URL) throws -> Int {
    func write(_ text: String, _ path: String) throws {
        let file = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }
    try write("application/epub+zip", "mimetype")
    try write("""
    <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
    <rootfiles><rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
    """, "META-INF/container.xml")
    var manifest = "", spine = "", nav = ""
    for (index, chapter) in chapters.enumerated() {
        try write(chapter, "OEBPS/c\(index).xhtml")
        manifest += "<item id=\"c\(index)\" href=\"c\(index).xhtml\" media-type=\"application/xhtml+xml\"/>\n"
        spine += "<itemref idref=\"c\(index)\"/>"
        nav += "<li><a href=\"c\(index).xhtml\">Chapter \(index + 1)</a></li>"
    }
    try write("""
    <?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
    <nav epub:type="toc"><ol>\(nav)</ol></nav></body></html>
    """, "OEBPS/nav.xhtml")
    try write("""
    <?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
    <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">bench</dc:identifier><dc:title>Benchmark Monthly</dc:title></metadata>
    <manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    \(manifest)</manifest><spine>\(spine)</spine></package>
    """, "OEBPS/book.opf")
    return chapters.reduce(0) { $0 + $1.utf8.count }
}

/// A terminal that hands out scripted keys and times each key until the frame it causes.
final class TimingBackend: TerminalBackend {
    let size: (width: Int, height: Int)
    let colors = TerminalColors.direct
    var keys: [Key]
    var firstFrameAt: Double?
    var firstFrameCPU: Double?
    var keyAt: Double?
    var keyCPUAt: Double?
    var pending: Key?
    var times: [Key: [Double]] = [:]
    var cpuTimes: [Key: [Double]] = [:]
    var lastFrame: Canvas?

    init(width: Int, height: Int, keys: [Key]) {
        size = (width, height)
        self.keys = keys
    }

    /// Whether a frame answers the key: by default one that changed (the reader reads
    /// articles and searches off the main thread, so a key's first frame may still wait).
    var answers: (Key, Canvas) -> Bool = { _, _ in true }
    /// How long a key waits for its answer before the next is sent anyway.
    static let patience = 5000.0

    func draw(_ canvas: Canvas) {
        let now = milliseconds()
        if firstFrameAt == nil { firstFrameAt = now; firstFrameCPU = cpuMilliseconds() }
        defer { lastFrame = canvas }
        if let keyAt, let pending, let keyCPUAt {
            guard canvas != lastFrame, answers(pending, canvas) else { return }
            times[pending, default: []].append(now - keyAt)
            cpuTimes[pending, default: []].append(cpuMilliseconds() - keyCPUAt)
        }
        keyAt = nil
    }

    /// Seconds to look at the first page before the first key (a person reads it).
    var pauseAfterOpen = 0.0

    func nextEvent(timeout: Double?) -> Event? {
        // The key before has not been answered yet: the run loop goes on taking in results.
        if let keyAt, milliseconds() - keyAt < Self.patience {
            Thread.sleep(forTimeInterval: min(timeout ?? 0.005, 0.005))
            return nil
        }
        guard !keys.isEmpty else { return .key(.character("Q")) }
        if pauseAfterOpen > 0 {
            Thread.sleep(forTimeInterval: pauseAfterOpen)
            pauseAfterOpen = 0
        }
        let key = keys.removeFirst()
        pending = key
        keyCPUAt = cpuMilliseconds()
        keyAt = milliseconds()
        return .key(key)
    }

    func restore() {}
    func suspend() {}
}

/// A terminal made narrower and wider in turn, each resize timed until the frame it causes
/// (the first frame, the issue opened, comes before any resize).
final class ResizingBackend: TerminalBackend {
    var size: (width: Int, height: Int)
    let colors = TerminalColors.direct
    var widths: [Int]
    var resizedAt: Double?
    var opened = false
    var times: [Double] = []
    var lastFrame: Canvas?
    var lastText = ""
    /// The backgrounds of the last frame's cells, by how many cells have each.
    var backgrounds: [Color: Int] = [:]

    init(widths: [Int], height: Int) {
        size = (widths[0], height)
        self.widths = Array(widths.dropFirst())
    }

    func draw(_ canvas: Canvas) {
        defer { lastFrame = canvas }
        lastText = canvas.text
        backgrounds = canvas.cells.reduce(into: [:]) { $0[$1.background, default: 0] += 1 }
        if !opened { opened = canvas.text.contains("article 1 of"); return }
        guard let resizedAt, canvas != lastFrame else { return }
        times.append(milliseconds() - resizedAt)
        self.resizedAt = nil
    }

    func nextEvent(timeout: Double?) -> Event? {
        if !opened || (resizedAt.map { milliseconds() - $0 < 5000 } ?? false) {
            Thread.sleep(forTimeInterval: min(timeout ?? 0.005, 0.005))
            return nil
        }
        guard !widths.isEmpty else { return .key(.character("Q")) }
        size.width = widths.removeFirst()
        resizedAt = milliseconds()
        return .resize(width: size.width, height: size.height)
    }

    func restore() {}
    func suspend() {}
}

func summary(_ values: [Double]) -> String {
    guard !values.isEmpty else { return "–" }
    let sorted = values.sorted()
    let median = sorted[sorted.count / 2]
    let p95 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
    return String(format: "median %.2f ms, p95 %.2f ms, max %.2f ms (n=%d)", median, p95, sorted.last ?? 0, sorted.count)
}

var shape = "one"
var turns = 200
var pause = 0.0
/// With --install-only DIR: make the library under DIR (NEWSSTAND_HOME) and stop, for
/// first-page.sh to time the real program on it.
var installOnly: String?
/// With --pdf FILE: the reader on FILE as a PDF issue instead (benchmarks/pdf/reader.sh).
var pdf: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--shape": shape = arguments.next() ?? shape
    case "--turns": turns = Int(arguments.next() ?? "") ?? turns
    case "--pause-ms": pause = (Double(arguments.next() ?? "") ?? 0) / 1000
    case "--install-only": installOnly = arguments.next()
    case "--pdf": pdf = arguments.next()
    default: FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8)); exit(2)
    }
}

if let pdf {
    do {
        try PDFReaderBenchmark.run(pdf: URL(fileURLWithPath: pdf), turns: turns, pause: pause)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
        exit(1)
    }
}

let home = installOnly.map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-bench-reader-\(getpid())")
defer { if installOnly == nil { try? FileManager.default.removeItem(at: home) } }
do {
    let library = try Library(paths: Paths(environment: ["NEWSSTAND_HOME": home.path]))
    let publication = try library.store.save(Publication(feedURL: "file:///bench.xml", title: "Benchmark Monthly"))
    var issue = try library.store.addIssue(name: "bench-1", date: Date(), publicationID: publication.id, title: "Benchmark")
    let bytes = try writeEPUB(chapters(totalBytes: 2 * 1024 * 1024, count: shape == "one" ? 1 : 40),
                              to: library.downloads.contentDirectory(for: issue))
    issue.status = .available
    issue = try library.store.save(issue)
    if installOnly != nil {
        print("installed bench-1 (\(bytes) bytes of XHTML) under \(home.path)")
        exit(0)
    }

    let width = 120, height = 40
    // Page turns, then to the end of the last chapter, then a search for a word only there.
    var keys = [Key](repeating: .pageDown, count: turns)
    keys += [.character("G")]
    let backend = TimingBackend(width: width, height: height, keys: keys)
    backend.pauseAfterOpen = pause
    let app = ShelfApp(environment: .init(library: library, theme: .classic, colorMode: .truecolor, symbols: .half,
                                          coverCache: CoverCache(directory: nil), startAgent: {}))
    let cpuStart = cpuMilliseconds()
    let start = milliseconds()
    app.startReading(issue)
    app.run(backend: backend)
    let firstFrame = (backend.firstFrameAt ?? start) - start

    // The search, in a second reader opened at the start of the issue (timed the same way).
    let firstArticle = try IssueReader.open(directory: library.downloads.contentDirectory(for: issue)).readingOrder[0].path
    try library.store.saveLocator(Locator(resource: firstArticle, progression: 0, totalProgression: 0, updated: Date()), for: issue)
    let searchBackend = TimingBackend(width: width, height: height,
                                      keys: [.character("/")] + "zanzibar".map { .character($0) } + [.enter])
    // Enter is answered when the status line says what was found, not by "Searching…".
    searchBackend.answers = { key, frame in key != .enter || frame.text.contains("“zanzibar”") || frame.text.contains("No match") }
    let searcher = ShelfApp(environment: .init(library: library, theme: .classic, colorMode: .truecolor, symbols: .half,
                                               coverCache: CoverCache(directory: nil), startAgent: {}))
    searcher.startReading(try library.store.issue(named: "bench-1") ?? issue)
    searcher.run(backend: searchBackend)
    let found = searchBackend.lastFrame?.text.contains("zanzibar") == true

    print("shape: \(shape == "one" ? "one 2 MB chapter" : "40 chapters of 50 KB"), \(bytes) bytes of XHTML, window \(width)×\(height), "
          + "pause after the first page \(Int(pause * 1000)) ms, then \(turns) page turns back to back")
    print(String(format: "open to first page: %.1f ms wall, %.1f ms CPU", firstFrame, (backend.firstFrameCPU ?? cpuStart) - cpuStart))
    print("page turn (PgDn → frame): wall \(summary(backend.times[.pageDown] ?? []))")
    print("page turn CPU:            \(summary(backend.cpuTimes[.pageDown] ?? []))")
    print("G (end of the issue's last article, whole layout): wall \(summary(backend.times[.character("G")] ?? [])); CPU \(summary(backend.cpuTimes[.character("G")] ?? []))")
    print("search Enter (\"zanzibar\", only in the last paragraph): wall \(summary(searchBackend.times[.enter] ?? [])); CPU \(summary(searchBackend.cpuTimes[.enter] ?? [])) — found: \(found)")

    // Highlights found again at a new width (issue 32: ≤ 5 ms): the window made narrower and
    // wider in turn, each resize timed to its frame; with no highlight, then with 50 spread
    // over the first article (each re-found in the text, every one on the page marked).
    let directory = library.downloads.contentDirectory(for: issue)
    try library.store.saveLocator(Locator(resource: firstArticle, progression: 0, totalProgression: 0, updated: Date()), for: issue)
    func resizes() throws -> (times: [Double], backgrounds: [Color: Int]) {
        let backend = ResizingBackend(widths: (0..<41).map { $0.isMultiple(of: 2) ? width : width - 20 }, height: height)
        let reader = ShelfApp(environment: .init(library: library, theme: .classic, colorMode: .truecolor, symbols: .half,
                                                 coverCache: CoverCache(directory: nil), startAgent: {}))
        reader.startReading(try library.store.issue(named: "bench-1") ?? issue)
        reader.run(backend: backend)
        return (backend.times, backend.backgrounds)
    }
    let plain = try resizes()
    guard let firstPart = try HighlightTexts().parts(ofContentIn: directory).first else { throw CocoaError(.fileReadCorruptFile) }
    let text = firstPart.text
    var made = 0
    for index in 0..<50 {
        // 30 characters from a word's start, every 1/50th of the first part (the first 40 % of
        // it when it is long, so that several are on the first pages).
        let share = min(text.count, 40_000)
        var start = text.index(text.startIndex, offsetBy: index * share / 50)
        while start < text.endIndex, !text[start].isLetter { start = text.index(after: start) }
        guard let end = text.index(start, offsetBy: 30, limitedBy: text.endIndex),
              let draft = HighlightDraft(issueID: issue.id!, locator: Locator(resource: firstPart.resource ?? firstArticle, progression: 0,
                                                                             totalProgression: 0, updated: Date()),
                                         position: firstPart.position, range: start..<end, in: text, color: .green) else { continue }
        _ = try library.highlights.add(draft)
        made += 1
    }
    let marked = try resizes()
    print("resize \(width)↔\(width - 20) columns (frame after the resize): wall \(summary(plain.times)) with no highlight; "
          + "\(summary(marked.times)) with \(made) highlights in the article, "
          + "\(marked.backgrounds.filter { plain.backgrounds[$0.key] == nil }.values.reduce(0, +)) cells in their colour on the last frame")

    // Where the first page's time goes, CPU of each step alone (the same public calls).
    var mark = cpuMilliseconds()
    func lap() -> Double { let now = cpuMilliseconds(); defer { mark = now }; return now - mark }
    let content = try IssueReader.open(directory: directory)
    let openTime = lap()
    let first = try IssueReader.resolve(content.readingOrder[0].path, in: directory)
    let html = String(decoding: try Data(contentsOf: first), as: UTF8.self)
    let readTime = lap()
    let document = HTMLReader.document(html: html)
    let parseTime = lap()
    let screen = Layout.lines(for: document, blocks: 0..<min(24, document.blocks.count), options: LayoutOptions(width: 80))
    let layoutTime = lap()
    print(String(format: "first page, CPU by step: IssueReader.open %.1f ms, read %.1f ms, HTMLReader %.1f ms (%d blocks), first %d lines %.1f ms",
                 openTime, readTime, parseTime, document.blocks.count, screen.count, layoutTime))
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
