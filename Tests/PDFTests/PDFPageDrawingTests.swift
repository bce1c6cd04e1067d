import Foundation
import Imaging
import Testing
@testable import PDF

/// `newsstand-pdf draw`, what `newsstand render FILE.pdf` becomes: the same cells as the
/// page drawn through a worker, and a crash, hang or runaway allocation still one line.
@Suite struct PDFPageDrawingTests {
    /// The executable run with `request`'s words: its exit status, standard output and error.
    /// A drawing that never ends is stopped after a minute (and the test fails on its status).
    private func draw(_ request: DrawRequest) throws -> (status: Int32, output: [UInt8], errors: String) {
        let process = Process()
        process.executableURL = builtWorker
        process.arguments = request.arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let watchdog = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        let drawn = output.fileHandleForReading.readDataToEndOfFile()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        #expect(process.terminationReason == .exit, "ended by a signal: \(process.terminationStatus)")
        return (process.terminationStatus, Array(drawn), String(decoding: said, as: UTF8.self))
    }

    private func withSample<Result>(_ body: (URL) throws -> Result) throws -> Result { try SamplePDF.withSample(body) }

    /// What `render` drew before: the page through a worker, into cells, in this process.
    private func throughAWorker(_ file: URL, page: Int, options: RenderOptions) -> (output: [UInt8], failures: [String]) {
        let documents = DocumentRenderers()
        documents.register(PDFPageRenderer(worker: PDFWorker(executable: builtWorker)), for: .pdf)
        return RenderTool.render([file.path], page: page, options: options, documents: documents)
    }

    @Test func drawsTheSameCellsAsTheWorkerPath() throws {
        try withSample { file in
            for options in [RenderOptions(columns: 120, rows: 40, colorMode: .truecolor, letterbox: false),
                            RenderOptions(columns: 30, rows: 12, colorMode: .palette256, symbols: .ascii, cellAspect: 0.45, letterbox: true)] {
                let expected = throughAWorker(file, page: 2, options: options)
                #expect(expected.failures.isEmpty && expected.output.count > 1000)
                let drawn = try draw(DrawRequest(document: file.path, page: 2, options: options, limits: WorkerOptions(), wallSeconds: 60))
                #expect(drawn.status == 0 && drawn.errors.isEmpty, "\(drawn.errors)")
                #expect(drawn.output == expected.output)
            }
        }
    }

    @Test func aPageTheDocumentDoesNotHaveIsTheWorkerPathsOneLine() throws {
        try withSample { file in
            let options = RenderOptions(columns: 40, rows: 20, letterbox: false)
            let expected = throughAWorker(file, page: 9, options: options).failures
            #expect(expected == ["\(file.path): sample.pdf has no page 9 (it has 3)"])
            let drawn = try draw(DrawRequest(document: file.path, page: 9, options: options, limits: WorkerOptions(), wallSeconds: 60))
            #expect(drawn.status == 1 && drawn.output.isEmpty)
            #expect(drawn.errors == expected.map { "newsstand: \($0)\n" }.joined())
        }
    }

    @Test(arguments: [(Misbehaviour.crash, "crashed"), (.exhaustMemory, "crashed"), (.spin, "took too long"), (.block, "took too long")])
    func aCrashARunawayOrAHangIsOneLineAndNoPicture(_ fault: Misbehaviour, _ said: String) throws {
        try withSample { file in
            var limits = WorkerOptions()
            limits.cpuSecondsPerRequest = 1
            limits.memoryBytes = 256 << 20
            limits.testFaults = true
            // The spin must meet the CPU limit, not the clock: only the blocked one waits for it.
            let request = DrawRequest(document: file.path, page: 1, options: RenderOptions(columns: 40, rows: 20), limits: limits,
                                      wallSeconds: fault == .block ? 1 : 50, misbehave: fault)
            let drawn = try draw(request)
            #expect(drawn.status == 1 && drawn.output.isEmpty)
            #expect(drawn.errors == "newsstand: \(file.path): page 1 could not be drawn: the PDF library \(said)\n")
        }
    }

    @Test func itsWordsReadBackAsTheyWereWritten() {
        var limits = WorkerOptions()
        limits.testFaults = true
        let request = DrawRequest(document: "/tmp/a b/--page.pdf", page: 4,
                                  options: RenderOptions(columns: 7, rows: 3, colorMode: .none, symbols: .ascii, cellAspect: 0.4375, letterbox: true),
                                  limits: limits, wallSeconds: 12, misbehave: .spin)
        #expect(DrawRequest(arguments: request.arguments) == request)
        #expect(DrawRequest(arguments: limits.arguments) == nil)
    }
}
