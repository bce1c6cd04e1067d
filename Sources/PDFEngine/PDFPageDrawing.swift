#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Imaging
import PDF
import TextLayout

/// `newsstand-pdf draw …` (`DrawRequest`): one page of one PDF drawn as half-block cells on
/// standard output by this process alone. `newsstand render FILE.pdf` execs it in its own
/// place rather than start a worker and wait for it, so one process, not two in a row, is
/// on the page's critical path (BENCHMARKS.md). Contained like the worker: the same CPU-time
/// and address-space limits set on itself, a wall-clock alarm, and a crash, a limit reached
/// or a hang ends it with one line on standard error ("FILE: page 3 could not be drawn: the
/// PDF library crashed") and nothing half-written on standard output.
public enum PDFPageDrawing {
    /// Draws the page; the process's exit status (1 when it could not be drawn).
    package static func main(_ request: DrawRequest) -> Int32 {
        closefrom(3)
        let context = "\(request.document): page \(request.page) could not be drawn"
        PDFWorkerServer.limitItself(request.limits)
        FatalSignals.install(crashed: problemLine("\(context): the PDF library crashed"),
                             tookTooLong: problemLine("\(context): the PDF library took too long"))
        PDFWorkerServer.allowCPU(seconds: request.limits.cpuSecondsPerRequest)
        alarm(UInt32(max(1, request.wallSeconds)))
        if request.limits.testFaults, let fault = request.misbehave { PDFWorkerServer.misbehave(fault) }
        let documents = DocumentRenderers()
        documents.register(InProcessRenderer(), for: .pdf)
        // Drawn: the clock stops, so a reader slow to take the output (a pager) is not "too long".
        let drawn = RenderTool.run([request.document], page: request.page, options: request.options, documents: documents,
                                   drawn: { alarm(0) }) { problem in
            let line = problemLine(problem)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        return drawn ? 0 : 1
    }

    /// A line as `newsstand` prints its problems (`printProblem`): named, cleaned, one line.
    static func problemLine(_ message: String) -> [UInt8] {
        Array("newsstand: \(Sanitizer.clean(message, multiline: true))\n".utf8)
    }

    /// Pages drawn by poppler in this process, with the worker's errors and words.
    struct InProcessRenderer: DocumentRenderer {
        func render(_ page: DocumentPage, fitting size: (width: Int, height: Int)?) throws -> RGBAImage {
            do {
                return try PDFDocument(url: page.document).render(page: page.index, region: page.region, fitting: size)
            } catch let error as PDFError {
                throw ImageError(.corrupt, error.description)
            }
        }
    }
}

/// The last words of a process that poppler crashed or kept too long: one prepared line on
/// standard error and exit status 1, written from the signal handler with nothing but
/// `write` and `_exit` (nothing else is safe there).
enum FatalSignals {
    private static var crashed: UnsafeMutableBufferPointer<UInt8>?
    private static var tookTooLong: UnsafeMutableBufferPointer<UInt8>?
    /// Where a handler runs when the stack itself overflowed (deep recursion in a hostile PDF).
    private static let alternateStackSize = 256 << 10

    static func install(crashed crashedLine: [UInt8], tookTooLong tooLongLine: [UInt8]) {
        crashed = copy(crashedLine)
        tookTooLong = copy(tooLongLine)
        var stack = stack_t()
        stack.ss_sp = malloc(alternateStackSize)
        stack.ss_size = alternateStackSize
        stack.ss_flags = 0
        sigaltstack(&stack, nil)
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS] { handle(signal) { _ in FatalSignals.say(FatalSignals.crashed) } }
        for signal in [SIGXCPU, SIGALRM] { handle(signal) { _ in FatalSignals.say(FatalSignals.tookTooLong) } }
        // A parent's threads may block signals, and exec keeps the mask: these must arrive.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGXCPU, SIGALRM] { sigaddset(&signals, signal) }
        sigprocmask(SIG_UNBLOCK, &signals, nil)
    }

    private static func copy(_ bytes: [UInt8]) -> UnsafeMutableBufferPointer<UInt8> {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }

    private static func handle(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        action.sa_flags = Int32(SA_ONSTACK) | Int32(bitPattern: UInt32(SA_RESETHAND))
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }

    private static func say(_ line: UnsafeMutableBufferPointer<UInt8>?) -> Never {
        if let line { _ = write(STDERR_FILENO, line.baseAddress, line.count) }
        _exit(1)
    }
}
