#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Imaging
import IssueArchive
import NewsstandKit
import PDF
import Shelf
import Terminal

/// The reader on a PDF issue (issue 22's figures), through the real ShelfApp run loop and
/// the real contained worker: open to the first page's picture, page turns looked at for a
/// while (the next page rendered ahead) and back to back, a jump to the last page, the text
/// view of a page, and a search of the whole document for a word on the last page and for
/// one it lacks. Prints a summary and `RESULT name value` lines for benchmarks/pdf/reader.sh.
enum PDFReaderBenchmark {
    static let width = 120, height = 40

    /// The PDF worker: `newsstand-pdf` beside this program, as `newsstand` starts it.
    static let workerExecutable = PDFWorker.besideThisProgram

    static func run(pdf: URL, turns: Int, pause: Double) throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-bench-pdf-\(getpid())")
        defer { try? FileManager.default.removeItem(at: home) }
        let library = try Library(paths: Paths(environment: ["NEWSSTAND_HOME": home.path]))
        let publication = try library.store.save(Publication(feedURL: "file:///bench.xml", title: "Benchmark Monthly"))
        var issue = try library.store.addIssue(name: "bench-pdf", date: Date(), publicationID: publication.id, title: "Benchmark")
        // Installed as the agent does, through a worker of its own that is gone before the
        // reader opens: the reader starts its worker cold, as `newsstand read` does.
        func install() throws {
            let formats = IssueFormats()
            formats.register(PDFIssueFormat(worker: PDFWorker(executable: workerExecutable)))
            _ = try IssueInstaller.install(download: pdf, into: library.downloads.contentDirectory(for: issue), formats: formats)
        }
        try install()
        issue.status = .available
        issue = try library.store.save(issue)
        let worker = PDFWorker(executable: workerExecutable)
        PDFSupport.register(worker: worker)
        let bytes = try Data(contentsOf: library.downloads.contentDirectory(for: issue).appendingPathComponent(PDFIssueFormat.fileName)).count

        let picture = ReaderFrameText.showsPagePicture
        var reading = [ReaderStep(label: "open", keys: [], pause: 0.5, done: picture)]
        reading += Array(repeating: ReaderStep(label: "turn, rendered ahead", keys: [.pageDown], pause: pause, done: picture), count: turns)
        reading += Array(repeating: ReaderStep(label: "turn, back to back", keys: [.pageDown], done: picture), count: turns)
        reading.append(ReaderStep(label: "G, last page", keys: [.character("G")], pause: 0.3, done: picture))
        reading.append(ReaderStep(label: "g, first page", keys: [.character("g")], pause: 0.3, done: picture))
        // The text view of pages ten apart, so no page's words were read ahead for it.
        for _ in 0..<10 {
            reading.append(ReaderStep(label: "text view", keys: [.character("v")], pause: 0.1, done: { ReaderFrameText.showsText($0) }))
            reading.append(ReaderStep(label: "back to pages", keys: [.character("v")], pause: 0.1, done: picture))
            reading.append(ReaderStep(label: "skip", keys: Array(repeating: .pageDown, count: 10), pause: 0.1, done: picture))
        }
        let reader = try read(issue, in: library, steps: reading)

        func search(_ word: String, until shown: @escaping (Canvas) -> Bool) throws -> ScriptedReaderBackend {
            try read(issue, in: library, steps: [
                ReaderStep(label: "open", keys: [], pause: 0.3, done: picture),
                ReaderStep(label: "search", keys: [.character("/")] + word.map { .character($0) } + [.enter], done: shown),
                ReaderStep(label: "found page drawn", keys: [], done: picture),
            ])
        }
        let found = try search("zanzibar") { $0.text.contains("“zanzibar”: 1 on page 350") }
        let absent = try search("quixotic") { $0.text.contains("No match for “quixotic”") }

        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let readerPeak = Double(usage.ru_maxrss) / 1024
        let workerPeak = workerPeakMegabytes()

        print("PDF issue: \(bytes) bytes, window \(width)×\(height), worker \(workerExecutable.lastPathComponent); "
              + "\(turns) turns with \(Int(pause * 1000)) ms after each, then \(turns) back to back")
        report(reader, "open", as: "open_first_page", "open to the first page's picture")
        report(reader, "turn, rendered ahead", as: "turn_ahead", "page turn, rendered ahead")
        report(reader, "turn, back to back", as: "turn_cold", "page turn, back to back")
        report(reader, "G, last page", as: "jump_last", "G, the last page (never rendered)")
        report(reader, "text view", as: "text_view", "v, the text view of a page")
        report(found, "search", as: "search_found", "search \"zanzibar\" (page 350), Enter to the note")
        report(found, "found page drawn", as: "search_found_drawn", "  … then page 350 drawn")
        report(absent, "search", as: "search_absent", "search \"quixotic\" (absent), Enter to the note")
        print(String(format: "peak RSS: reader %.1f MB, worker %.1f MB", readerPeak, workerPeak))
        print(String(format: "RESULT rss_reader %.1f", readerPeak))
        print(String(format: "RESULT rss_worker %.1f", workerPeak))
        try breakdown(library.downloads.contentDirectory(for: issue).appendingPathComponent(PDFIssueFormat.fileName), worker: worker)
    }

    /// Where the text view's and the search's time goes, step by step through the same
    /// public calls the reader makes (the worker already started, as in the reader).
    static func breakdown(_ file: URL, worker: PDFWorker) throws {
        func timed<T>(_ body: () throws -> T) rethrows -> (T, wall: Double, cpu: Double) {
            let (wall, cpu) = (milliseconds(), readerAndWorkerCPU())
            let result = try body()
            return (result, milliseconds() - wall, readerAndWorkerCPU() - cpu)
        }
        let info = try timed { try worker.info(of: file) }
        let started = try timed { try PDFWorker(executable: workerExecutable).info(of: file) }
        let render = try timed { try worker.render(page: 200, of: file, fitting: (52, 74)) }
        let text = try timed { try worker.text(page: 200, of: file) }
        let encoded = try timed { try JSONEncoder().encode(text.0) }
        let decoded = try timed { try JSONDecoder().decode(PDFPageText.self, from: encoded.0) }
        let neighbours = try PDFReflow.neighbourOffsets.map { try worker.text(page: 200 + $0, of: file) }
        let reflow = timed { PDFReflow.document(of: text.0, index: 200, neighbours: neighbours) }
        let page = try timed { try PDFTextReader(worker: worker).page(260, of: file) }
        let raw = try timed { try worker.pageTexts(of: file) }
        let cleaned = try timed { try PDFTextReader(worker: worker).pageTexts(of: file) }
        print("where the time goes (wall / CPU of this process and the worker, ms; JSON coding in this process alone):")
        print(String(format: "  worker info of %d pages %.1f, from a worker not started yet %.1f (wall); render of one page at 52×74 px %.1f",
                     info.0.pageCount, info.wall, started.wall, render.wall))
        print(String(format: "  text view of a page (PDFTextReader.page: the page and 4 neighbours from the worker, reflowed) %.1f / %.1f", page.wall, page.cpu))
        print(String(format: "    worker.text of one page: %.1f / %.1f (%d characters, %d bytes of JSON: encoding %.1f, decoding %.1f CPU); reflow %.1f CPU",
                     text.wall, text.cpu, text.0.characters.count, encoded.0.count, encoded.cpu, decoded.cpu, reflow.cpu))
        let characters = raw.0.reduce(0) { $0 + $1.unicodeScalars.count }
        print(String(format: "  search's texts: worker.pageTexts %.1f / %.1f (%d characters); with Sanitizer.clean (PDFTextReader.pageTexts) %.1f / %.1f",
                     raw.wall, raw.cpu, characters, cleaned.wall, cleaned.cpu))
        for (name, value) in [("text_worker_page", text.wall), ("text_reader_page", page.wall), ("page_texts_worker", raw.wall),
                              ("page_texts_cleaned", cleaned.wall), ("render_page", render.wall),
                              ("worker_start_info", started.wall)] {
            print(String(format: "RESULT %@ %.2f", name, value))
        }
    }

    /// Opens the issue at its first page in a fresh ShelfApp and runs `steps` in it.
    static func read(_ issue: Issue, in library: Library, steps: [ReaderStep]) throws -> ScriptedReaderBackend {
        try library.store.saveLocator(Locator(resource: PagePath(file: PDFIssueFormat.fileName, index: 0).description, progression: 0,
                                        totalProgression: 0, page: 0, updated: Date()), for: issue)
        let app = ShelfApp(environment: .init(library: library, theme: .classic, colorMode: .truecolor, symbols: .half,
                                              coverCache: CoverCache(directory: nil), startAgent: {}))
        let opening = (wall: milliseconds(), cpu: readerAndWorkerCPU())
        let backend = ScriptedReaderBackend(width: width, height: height, steps: steps, opening: opening, cpu: readerAndWorkerCPU)
        app.startReading(try library.store.issue(named: issue.name) ?? issue)
        app.run(backend: backend)
        return backend
    }

    /// One line for people and one `RESULT` line per statistic for the script.
    static func report(_ backend: ScriptedReaderBackend, _ label: String, as name: String, _ title: String) {
        let times = backend.times[label] ?? []
        let done = times.map(\.done)
        let timedOut = times.filter(\.timedOut).count
        let immediate = times.filter { $0.done == $0.firstFrame }.count
        print("\(title): \(summary(done)); first frame \(summary(times.map(\.firstFrame))); CPU \(summary(times.map(\.cpu)))"
              + "; drawn in the first frame \(immediate)/\(times.count)" + (timedOut > 0 ? "; TIMED OUT \(timedOut)" : ""))
        guard !done.isEmpty else { return }
        let sorted = done.sorted()
        print(String(format: "RESULT %@_median %.2f", name, sorted[sorted.count / 2]))
        print(String(format: "RESULT %@_p95 %.2f", name, sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]))
        let cpu = times.map(\.cpu).sorted()
        print(String(format: "RESULT %@_cpu_median %.2f", name, cpu[cpu.count / 2]))
        print(String(format: "RESULT %@_cpu_p95 %.2f", name, cpu[min(cpu.count - 1, Int(Double(cpu.count) * 0.95))]))
        print("RESULT \(name)_timeouts \(timedOut)")
    }

    /// This process's children (the worker), from /proc.
    static func children() -> [Substring] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ")
        }
    }

    /// CPU milliseconds of this process and of the worker it runs now (each of its threads'
    /// time on a CPU, from /proc/PID/task/*/schedstat, to the nanosecond).
    static func readerAndWorkerCPU() -> Double {
        children().reduce(cpuMilliseconds()) { total, pid in
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return tasks.reduce(total) { sum, task in
                let stat = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
                return sum + (Double(stat.split(separator: " ").first ?? "") ?? 0) / 1_000_000
            }
        }
    }

    /// The most memory the worker (this process's child) has held, from /proc.
    static func workerPeakMegabytes() -> Double {
        children().compactMap { pid -> Double? in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                  let kilobytes = Double(line.split(separator: " ")[1]) else { return nil }
            return kilobytes / 1024
        }.max() ?? 0
    }
}
