import Foundation
import Imaging
import Testing
@testable import PDF

/// `PDFWorker.draw`, what `newsstand render FILE.pdf` does: `newsstand-pdf draw` writes the
/// same cells as the page drawn through a worker, and a crash, hang or runaway allocation
/// is still one error.
@Suite struct PDFPageDrawingTests {
    /// `request` drawn by `worker` into two files: whether it was drawn, the cells, the errors.
    private func draw(_ request: DrawRequest, with worker: PDFWorker) throws -> (drawn: Bool, cells: [UInt8], errors: String) {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cells = folder.appendingPathComponent("cells"), errors = folder.appendingPathComponent("errors")
        let cellsFile = open(cells.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errorsFile = open(errors.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(cellsFile); close(errorsFile) }
        let drawn = try worker.draw(request, output: (cellsFile, errorsFile))
        return (drawn, Array(try Data(contentsOf: cells)), String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }

    private func withSample<Result>(_ body: (URL) throws -> Result) throws -> Result { try SamplePDF.withSample(body) }

    /// What `render` drew before: the page through a worker, into cells, in this process.
    private func throughAWorker(_ file: URL, page: Int, options: RenderOptions) -> (output: [UInt8], failures: [String]) {
        let documents = DocumentRenderers()
        documents.register(PDFPageRenderer(worker: PDFWorker(executable: builtWorker)), for: .pdf)
        return RenderTool.render([file.path], page: page, options: options, documents: documents)
    }

    /// `newsstand-pdf-draw` (what `render` starts), and `newsstand-pdf draw`: asked for, or
    /// standing in for a drawer that is not there.
    static let drawers: [URL?] = [builtDrawer, nil, URL(fileURLWithPath: "/nonexistent/newsstand-pdf-draw")]

    @Test(arguments: drawers) func drawsTheSameCellsAsTheWorkerPath(_ drawer: URL?) throws {
        try withSample { file in
            let worker = PDFWorker(executable: builtWorker, drawer: drawer)
            for options in [RenderOptions(columns: 120, rows: 40, colorMode: .truecolor, letterbox: false),
                            RenderOptions(columns: 30, rows: 12, colorMode: .palette256, symbols: .ascii, cellAspect: 0.45, letterbox: true)] {
                let expected = throughAWorker(file, page: 2, options: options)
                #expect(expected.failures.isEmpty && expected.output.count > 1000)
                let drawn = try draw(DrawRequest(document: file.path, page: 2, options: options), with: worker)
                #expect(drawn.drawn && drawn.errors.isEmpty, "\(drawn.errors)")
                #expect(drawn.cells == expected.output)
            }
        }
    }

    @Test func aPageTheDocumentDoesNotHaveIsTheWorkerPathsOneLine() throws {
        try withSample { file in
            let options = RenderOptions(columns: 40, rows: 20, letterbox: false)
            let expected = throughAWorker(file, page: 9, options: options).failures
            #expect(expected == ["\(file.path): sample.pdf has no page 9 (it has 3)"])
            let drawn = try draw(DrawRequest(document: file.path, page: 9, options: options), with: PDFWorker(executable: builtWorker, drawer: builtDrawer))
            #expect(!drawn.drawn && drawn.cells.isEmpty)
            #expect(drawn.errors == expected.map { "newsstand: \($0)\n" }.joined())
        }
    }

    @Test(arguments: [(Misbehaviour.crash, PDFError.Kind.crashed, "crashed"), (.exhaustMemory, .crashed, "crashed"),
                      (.spin, .tookTooLong, "took too long (it used up its CPU time)"),
                      (.block, .tookTooLong, "took too long (no answer within 1 s)")])
    func aCrashARunawayOrAHangIsOneErrorAndNoPicture(_ fault: Misbehaviour, _ kind: PDFError.Kind, _ said: String) throws {
        try withSample { file in
            // The spin must meet the CPU limit, not the clock (the message says which): only the blocked one waits for it.
            let limits = PDFWorker.Limits(cpuSeconds: 1, memoryBytes: 256 << 20, wallSeconds: fault == .block ? 1 : 50)
            for drawer in Self.drawers {
                let worker = PDFWorker(executable: builtWorker, drawer: drawer, limits: limits, testFaults: true)
                let request = DrawRequest(document: file.path, page: 1, options: RenderOptions(columns: 40, rows: 20), misbehave: fault)
                #expect(throws: PDFError(kind, "page 1 could not be drawn: the PDF library \(said)")) { try draw(request, with: worker) }
                // A fault asked of a drawer started without test faults is not honoured.
                let plain = try draw(request, with: PDFWorker(executable: builtWorker, drawer: drawer))
                #expect(plain.drawn && plain.cells.count > 100)
            }
        }
    }

    @Test func aDrawerPreparedAndNeverAskedEndsWithItsWorker() throws {
        var worker: PDFWorker? = PDFWorker(executable: builtWorker, drawer: builtDrawer)
        worker?.prepareDrawing("/nonexistent/never-opened.pdf")
        let drawer = try #require(worker?.drawerID)
        #expect(kill(drawer, 0) == 0)
        worker = nil
        #expect(kill(drawer, 0) == -1 && errno == ESRCH)
    }

    @Test func itsWordsReadBackAsTheyWereWritten() throws {
        let request = DrawRequest(document: "/tmp/a b/--page.pdf", page: 4,
                                  options: RenderOptions(columns: 7, rows: 3, colorMode: .none, symbols: .ascii, cellAspect: 0.4375, letterbox: true),
                                  misbehave: .spin)
        #expect(DrawRequest(arguments: request.arguments) == request)
        #expect(DrawRequest(arguments: ["--page", "1", "--", "/tmp/a.pdf"]) == nil)
        var sockets: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &sockets) == 0)
        defer { close(sockets[0]) }
        #expect(WorkerSocket.writeAll(request.frame, to: sockets[1]))
        close(sockets[1])
        #expect(DrawRequest.read(from: sockets[0]) == request)
        #expect(DrawRequest.read(from: sockets[0]) == nil)
    }
}
