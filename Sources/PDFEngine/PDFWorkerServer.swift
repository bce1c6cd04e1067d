#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PDF

/// The child side of `PDFWorker`: `newsstand-pdf` reads requests on its standard
/// input and answers on its standard output, under CPU-time and address-space limits, so
/// that whatever poppler does with a hostile PDF ends in this process only.
public enum PDFWorkerServer {
    /// Serves until the parent closes the socket; the process's exit status.
    public static func main(arguments: [String]) -> Int32 {
        let options = WorkerOptions(arguments: arguments)
        // Started by hand or by another parent, it may still have inherited files: none are its own.
        closefrom(3)
        limitItself(options)
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
            do { (request, _) = try WorkerFraming.read(WorkerRequest.self) { try WorkerSocket.readExactly($0, from: input) } } catch { return 0 }
            allowCPU(seconds: options.cpuSecondsPerRequest)
            let (reply, payload) = server.answer(request)
            guard let frame = try? WorkerFraming.frame(reply, payload: payload), WorkerSocket.writeAll(frame, to: output) else { return 0 }
        }
    }

    /// One worker's state: the document it has open.
    struct Session {
        let options: WorkerOptions
        var open: (path: String, file: FileIdentity?, password: String?, document: PDFDocument)?

        mutating func answer(_ request: WorkerRequest) -> (WorkerReply, [UInt8]) {
            do {
                if case .misbehave(let fault) = request.action {
                    if options.testFaults { misbehave(fault) }
                    return (.failure(PDFError(.workerUnavailable, "test faults are off")), [])
                }
                let document = try self.document(request.document, password: request.password)
                switch request.action {
                case .info: return (.info(try document.info()), [])
                case .render(let page, let width, let height, let region):
                    let size = width.flatMap { width in height.map { (width: width, height: $0) } }
                    let image = try document.render(page: page, region: region, fitting: size)
                    return (.image(width: image.width, height: image.height), image.pixels)
                case .text(let page): return (.text(try document.text(page: page)), [])
                case .readingText(let page):
                    let text = try document.text(page: page)
                    let neighbours = PDFReflow.neighbourOffsets.map { offset -> PDFPageText? in
                        // A neighbour that cannot be read only means its headers are not compared.
                        (try? document.text(page: page + offset, figures: false))?.runningBands
                    }
                    return (.readingText(page: text, neighbours: neighbours), [])
                case .pageTexts(let first, let count): return (.pageTexts(document.pageTexts(first: first, count: count)), [])
                case .misbehave: return (.failure(PDFError(.workerUnavailable, "test faults are off")), [])
                }
            } catch let error as PDFError {
                return (.failure(error), [])
            } catch {
                return (.failure(PDFError(.unreadable, "\(error)")), [])
            }
        }

        mutating func document(_ path: String, password: String?) throws -> PDFDocument {
            let file = FileIdentity(path: path)
            if let open, open.path == path, open.file == file, open.password == password { return open.document }
            self.open = nil
            let document = try PDFDocument(url: URL(fileURLWithPath: path), password: password)
            self.open = (path, file, password, document)
            return document
        }
    }

    /// A file as it is now: a PDF replaced or rewritten at the same path (a download
    /// installed again) is opened afresh rather than read through the old one's state.
    struct FileIdentity: Equatable {
        var device: UInt, inode: UInt, size: Int, modified: Int, modifiedNanoseconds: Int

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt(status.st_dev)
            inode = UInt(status.st_ino)
            size = Int(status.st_size)
            modified = Int(status.st_mtim.tv_sec)
            modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
        }
    }

    /// No core files, the address space the parent chose, and SIGXCPU able to end it.
    static func limitItself(_ options: WorkerOptions) {
        setLimit(RLIMIT_CORE, 0)
        // A parent's threads may block or ignore signals, and a spawned child inherits that:
        // SIGXCPU must end this process when the CPU limit is reached.
        signal(SIGXCPU, SIG_DFL)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGXCPU)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        setLimit(RLIMIT_AS, options.memoryBytes)
    }

    static func misbehave(_ fault: Misbehaviour) -> Never {
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
    static func allowCPU(seconds: Int) {
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
}
