#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The child side of `PDFWorker`: `newsstand pdf-worker` reads requests on its standard
/// input and answers on its standard output, under CPU-time and address-space limits, so
/// that whatever poppler does with a hostile PDF ends in this process only.
public enum PDFWorkerServer {
    /// The hidden first argument that makes `newsstand` a PDF worker.
    public static let command = "pdf-worker"

    struct Options {
        var cpuSecondsPerRequest = 10
        var memoryBytes = 1 << 30
        var testFaults = false

        init(arguments: [String]) {
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                switch argument {
                case "--cpu-seconds": cpuSecondsPerRequest = rest.popFirst().flatMap { Int($0) }.map { max(1, $0) } ?? cpuSecondsPerRequest
                case "--memory-bytes": memoryBytes = rest.popFirst().flatMap { Int($0) }.map { max(64 << 20, $0) } ?? memoryBytes
                case "--test-faults": testFaults = true
                default: continue
                }
            }
        }

        var arguments: [String] {
            ["--cpu-seconds", String(cpuSecondsPerRequest), "--memory-bytes", String(memoryBytes)] + (testFaults ? ["--test-faults"] : [])
        }
    }

    /// Serves until the parent closes the socket; the process's exit status.
    public static func main(arguments: [String]) -> Int32 {
        let options = Options(arguments: arguments)
        // Started by hand or by another parent, it may still have inherited files: none are its own.
        closefrom(3)
        setLimit(RLIMIT_CORE, 0)
        // A parent's threads may block or ignore signals, and a spawned child inherits that:
        // SIGXCPU must end this process when the CPU limit is reached.
        signal(SIGXCPU, SIG_DFL)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGXCPU)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        setLimit(RLIMIT_AS, options.memoryBytes)
        // Only frames may reach the parent: anything a library prints goes to /dev/null.
        let input = dup(STDIN_FILENO), output = dup(STDOUT_FILENO)
        let null = open("/dev/null", O_RDWR)
        guard input >= 0, output >= 0, null >= 0 else { return 1 }
        dup2(null, STDIN_FILENO)
        dup2(null, STDOUT_FILENO)
        dup2(null, STDERR_FILENO)
        var server = Session(options: options)
        while true {
            let request: WorkerRequest
            do { (request, _) = try WorkerFraming.read(WorkerRequest.self) { try readExactly($0, from: input) } } catch { return 0 }
            allowCPU(seconds: options.cpuSecondsPerRequest)
            let (reply, payload) = server.answer(request)
            guard let frame = try? WorkerFraming.frame(reply, payload: payload), writeAll(frame, to: output) else { return 0 }
        }
    }

    /// One worker's state: the document it has open.
    struct Session {
        let options: Options
        var open: (path: String, password: String?, document: PDFDocument)?

        mutating func answer(_ request: WorkerRequest) -> (WorkerReply, [UInt8]) {
            do {
                if case .misbehave(let fault) = request.action {
                    if options.testFaults { misbehave(fault) }
                    return (.failure(PDFError(.workerUnavailable, "test faults are off")), [])
                }
                let document = try self.document(request.document, password: request.password)
                switch request.action {
                case .info: return (.info(try document.info()), [])
                case .render(let page, let width, let height):
                    let size = width.flatMap { width in height.map { (width: width, height: $0) } }
                    let image = try document.render(page: page, fitting: size)
                    return (.image(width: image.width, height: image.height), image.pixels)
                case .text(let page): return (.text(try document.text(page: page)), [])
                case .misbehave: return (.failure(PDFError(.workerUnavailable, "test faults are off")), [])
                }
            } catch let error as PDFError {
                return (.failure(error), [])
            } catch {
                return (.failure(PDFError(.unreadable, "\(error)")), [])
            }
        }

        private mutating func document(_ path: String, password: String?) throws -> PDFDocument {
            if let open, open.path == path, open.password == password { return open.document }
            self.open = nil
            let document = try PDFDocument(url: URL(fileURLWithPath: path), password: password)
            self.open = (path, password, document)
            return document
        }
    }

    private static func misbehave(_ fault: Misbehaviour) -> Never {
        switch fault {
        case .spin:
            var counter = 0
            while true { counter = counter &+ Int(getpid()) }
        case .block:
            while true { pause() }
        case .crash:
            abort()
        case .exhaustMemory:
            var blocks: [UnsafeMutableRawPointer] = []
            while true {
                // Address space, not memory: malloc fails at the limit without a page being
                // touched, so the test puts no pressure on the machine.
                guard let block = malloc(64 << 20) else { abort() }
                blocks.append(block)
            }
        }
    }

    /// The next request may use `seconds` more CPU time; past it the kernel sends SIGXCPU,
    /// which ends the worker.
    private static func allowCPU(seconds: Int) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let used = Int(usage.ru_utime.tv_sec) + Int(usage.ru_stime.tv_sec) + 1
        setLimit(RLIMIT_CPU, used + seconds)
    }

    private static func setLimit(_ resource: __rlimit_resource, _ value: Int) {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(resource.rawValue), &limit)
        let wanted = rlim_t(value)
        // RLIM_INFINITY (all ones) does not import as an unsigned constant.
        limit.rlim_cur = limit.rlim_max == rlim_t.max ? wanted : min(wanted, limit.rlim_max)
        setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
    }

    static func readExactly(_ count: Int, from descriptor: Int32) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, count - filled) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw PDFError(.workerUnavailable, "the connection closed") }
            filled += got
        }
        return bytes
    }

    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }
}
