#if canImport(Glibc)
import Glibc
#endif
import CSpawn
import Foundation
import IssueArchive
import Imaging
import Synchronization

/// PDF work done in a child process (`newsstand-pdf`, the only executable that links
/// poppler) with CPU-time and memory
/// limits and a wall-clock timeout here: a crash, hang or runaway allocation in poppler
/// becomes one `PDFError` for that request, and the next request starts a fresh worker.
public final class PDFWorker: Sendable {
    public struct Limits: Sendable {
        /// CPU time one request may use in the worker.
        public var cpuSeconds: Int
        /// The worker's address space.
        public var memoryBytes: Int
        /// How long one request may take, as the parent sees it.
        public var wallSeconds: Double

        public init(cpuSeconds: Int = 10, memoryBytes: Int = 1 << 30, wallSeconds: Double = 20) {
            self.cpuSeconds = cpuSeconds
            self.memoryBytes = memoryBytes
            self.wallSeconds = wallSeconds
        }
    }

    /// The worker's executable name; it is built and installed beside `newsstand`.
    public static let executableName = "newsstand-pdf"

    /// The drawer's executable name (`draw`): MuPDF without poppler, installed beside `newsstand`.
    public static let drawerName = "newsstand-pdf-draw"

    /// The worker this program starts: `newsstand-pdf` beside the running executable (where
    /// SwiftPM's build directory and `scripts/install.sh` put both), and `newsstand-pdf-draw`
    /// for `render FILE.pdf`.
    public static let shared: PDFWorker = {
        let folder = programFolder
        return PDFWorker(executable: folder.appendingPathComponent(executableName), drawer: folder.appendingPathComponent(drawerName))
    }()

    /// `newsstand-pdf` in the running executable's folder (symbolic links followed).
    public static var besideThisProgram: URL { beside(executableName) }

    /// `name` in the running executable's folder (symbolic links followed).
    public static func beside(_ name: String) -> URL { programFolder.appendingPathComponent(name) }

    /// The running executable's folder (symbolic links followed).
    private static var programFolder: URL {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent()
    }

    private let executable: URL
    /// What draws a page as cells: `drawer` itself, else `executable draw`.
    private let drawer: URL?
    private let options: WorkerOptions
    private let limits: Limits
    private let passwords: DocumentPasswords
    // Held for a whole request: one request at a time goes to the worker, from any thread.
    private let processes = Mutex(Processes())

    /// The worker's processes, each with its end of the socket pair.
    private struct Processes {
        var child: (pid: pid_t, socket: Int32)?
        /// The drawer (`newsstand-pdf-draw`) started ahead, waiting for its one page (`prepareDrawing`).
        var drawer: (pid: pid_t, socket: Int32)?

        /// Ends the worker (killing it first when asked) and reaps it: how it ended.
        @discardableResult
        mutating func stop(killing: Bool) -> Int32? {
            guard let worker = child else { return nil }
            child = nil
            close(worker.socket)
            if killing { kill(worker.pid, SIGKILL) }
            var status: Int32 = 0
            while waitpid(worker.pid, &status, 0) < 0 && errno == EINTR {}
            return status
        }
    }

    /// A worker started as `executable --cpu-seconds …`, pages drawn as cells by `drawer`
    /// (nil: by `executable draw`); `testFaults` lets tests make it fail.
    public init(executable: URL, drawer: URL? = nil, limits: Limits = Limits(), testFaults: Bool = false,
                passwords: DocumentPasswords = .shared) {
        self.executable = executable
        self.drawer = drawer
        self.limits = limits
        self.passwords = passwords
        var options = WorkerOptions()
        options.cpuSecondsPerRequest = limits.cpuSeconds
        options.memoryBytes = limits.memoryBytes
        options.testFaults = testFaults
        self.options = options
    }

    deinit {
        processes.withLock { processes in
            processes.stop(killing: true)
            // A drawer never asked ends at the closed socket; it is reaped here.
            if let drawer = processes.drawer {
                close(drawer.socket)
                var status: Int32 = 0
                while waitpid(drawer.pid, &status, 0) < 0 && errno == EINTR {}
            }
        }
    }

    /// The document's metadata, pages, outline and labels. Without `password`, the one the
    /// user gave for the document in this process (`DocumentPasswords`) is used, if any.
    public func info(of document: URL, password: String? = nil) throws -> PDFInfo {
        let (reply, _) = try ask(WorkerRequest(document: document.path, password: password ?? passwords.password(for: document), action: .info),
                                 failing: "\(PDFError.naming(document)) could not be opened")
        guard case .info(let info) = reply else { throw Self.unexpected }
        return info
    }

    /// Page `index` (0 is the first), or the `region` of it, drawn on white, fitted inside `size` pixels.
    public func render(page index: Int, of document: URL, password: String? = nil, region: PageRegion? = nil,
                       fitting size: (width: Int, height: Int)?) throws -> RGBAImage {
        let (reply, pixels) = try ask(WorkerRequest(document: document.path, password: password ?? passwords.password(for: document),
                                                    action: .render(page: index, width: size?.width, height: size?.height, region: region)),
                                      failing: "page \(index + 1) could not be drawn")
        guard case .image(let width, let height) = reply, width > 0, height > 0, pixels.count == width * height * 4 else {
            throw Self.unexpected
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Page `index`'s text layer.
    public func text(page index: Int, of document: URL, password: String? = nil) throws -> PDFPageText {
        let (reply, _) = try ask(WorkerRequest(document: document.path, password: password ?? passwords.password(for: document),
                                               action: .text(page: index)),
                                 failing: "the text of page \(index + 1) could not be read")
        guard case .text(let text) = reply else { throw Self.unexpected }
        return text
    }

    /// Page `index`'s text layer and its neighbours' running bands, as `PDFReflow` reads
    /// them (`WorkerRequest.Action.readingText`).
    public func readingText(page index: Int, of document: URL, password: String? = nil) throws -> (page: PDFPageText, neighbours: [PDFPageText?]) {
        let (reply, _) = try ask(WorkerRequest(document: document.path, password: password ?? passwords.password(for: document),
                                               action: .readingText(page: index)),
                                 failing: "the text of page \(index + 1) could not be read")
        guard case .readingText(let page, let neighbours) = reply, neighbours.count == PDFReflow.neighbourOffsets.count else {
            throw Self.unexpected
        }
        return (page, neighbours)
    }

    /// The identifiers the document's XMP metadata gives (an ISBN, a DOI), in its order.
    public func identifiers(of document: URL, password: String? = nil) throws -> [BookIdentifier] {
        let (reply, _) = try ask(WorkerRequest(document: document.path, password: password ?? passwords.password(for: document), action: .identifiers),
                                 failing: "\(PDFError.naming(document)) could not be opened")
        guard case .identifiers(let identifiers) = reply else { throw Self.unexpected }
        return identifiers
    }

    /// The plain text of the pages in `pages` that exist (every page's without), in page order.
    public func pageTexts(of document: URL, pages: Range<Int> = 0..<Int.max, password: String? = nil) throws -> [String] {
        let (reply, _) = try ask(WorkerRequest(document: document.path, password: password ?? passwords.password(for: document),
                                               action: .pageTexts(first: pages.lowerBound, count: pages.count)),
                                 failing: "the text of \(PDFError.naming(document)) could not be read")
        guard case .pageTexts(let texts) = reply else { throw Self.unexpected }
        return texts
    }

    /// Starts the drawer (`newsstand-pdf-draw`) now, without waiting for it: `render FILE.pdf`
    /// lets it load MuPDF and open `document` on the other core while it parses its arguments,
    /// then hands it the page (`draw`). Not asked, it ends when this process does.
    public func prepareDrawing(_ document: String) {
        processes.withLock { processes in
            if processes.drawer == nil {
                processes.drawer = try? spawnDrawer(options.arguments + ["--open", document], output: (STDOUT_FILENO, STDERR_FILENO))
            }
        }
    }

    /// Page `page` (1 is the first) of `document` drawn as cells with `options` by the
    /// drawer itself (`newsstand-pdf-draw`, or `newsstand-pdf draw`), written straight to
    /// `output`, so one process, not two in a row, stands between the file and the picture
    /// (benchmarks/HISTORY.md, "Session 9: one PDF page as a whole process"). It runs under
    /// this worker's limits and clock like any request. False when the page could not be
    /// drawn for a reason of the document's, which the drawer wrote to `errors` in `render`'s
    /// words ("newsstand: FILE: …"); a crash, a limit reached or a hang throws.
    public func draw(page: Int, of document: String, options cells: RenderOptions,
                     output: (cells: Int32, errors: Int32) = (STDOUT_FILENO, STDERR_FILENO)) throws -> Bool {
        try draw(DrawRequest(document: document, page: page, options: cells), output: output)
    }

    /// `request` drawn as `draw(page:of:options:output:)` does.
    func draw(_ request: DrawRequest, output: (cells: Int32, errors: Int32)) throws -> Bool {
        let context = "page \(request.page) could not be drawn"
        return try processes.withLock { processes in
            let prepared = output == (STDOUT_FILENO, STDERR_FILENO) ? processes.drawer : nil
            if prepared != nil { processes.drawer = nil }
            let process = try prepared ?? spawnDrawer(options.arguments, output: output)
            defer { close(process.socket) }
            let deadline = Date().addingTimeInterval(limits.wallSeconds)
            var status: Int32 = 0
            do {
                guard WorkerSocket.writeAll(request.frame, to: process.socket) else { throw WorkerEnded.closed }
                // It says nothing on the socket: its end closes it.
                _ = try read(1, from: process.socket, before: deadline)
            } catch WorkerEnded.timedOut {
                kill(process.pid, SIGKILL)
                while waitpid(process.pid, &status, 0) < 0 && errno == EINTR {}
                throw PDFError(.tookTooLong, "\(context): the PDF library took too long (no answer within \(Self.seconds(limits.wallSeconds)))")
            } catch {}
            while waitpid(process.pid, &status, 0) < 0 && errno == EINTR {}
            guard status & 0x7f == 0 else { throw PDFError(ended: status, context: context) }
            return (status >> 8) & 0xff == 0
        }
    }

    /// The running worker's process, if one runs.
    var processID: pid_t? { processes.withLock { $0.child?.pid } }

    /// The drawer started ahead and not asked yet, if any.
    var drawerID: pid_t? { processes.withLock { $0.drawer?.pid } }

    /// Makes a worker started with `testFaults` fail in the given way.
    func misbehave(_ fault: Misbehaviour) throws {
        _ = try ask(WorkerRequest(document: "", password: nil, action: .misbehave(fault)), failing: "the test request failed")
    }

    private static let unexpected = PDFError(.workerUnavailable, "the PDF worker gave an answer that does not fit the question")

    /// Sends one request and waits for its answer; a failure of the worker itself becomes
    /// "`failing`: the PDF library crashed / took too long (…why)".
    private func ask(_ request: WorkerRequest, failing context: String) throws -> (WorkerReply, [UInt8]) {
        try processes.withLock { processes in
            let worker = try processes.child ?? start(&processes)
            let deadline = Date().addingTimeInterval(limits.wallSeconds)
            do {
                let frame = try WorkerFraming.frame(request)
                guard WorkerSocket.writeAll(frame, to: worker.socket) else { throw WorkerEnded.closed }
                let (reply, payload) = try WorkerFraming.read(WorkerReply.self) { try read($0, from: worker.socket, before: deadline) }
                if case .failure(let error) = reply { throw error }
                return (reply, payload)
            } catch WorkerEnded.timedOut {
                processes.stop(killing: true)
                throw PDFError(.tookTooLong, "\(context): the PDF library took too long (no answer within \(Self.seconds(limits.wallSeconds)))")
            } catch WorkerEnded.closed {
                throw PDFError(ended: processes.stop(killing: false), context: context)
            } catch let error as PDFError {
                // The worker's own answer: the document's error for this request.
                throw error
            } catch {
                // A worker still talking, but not in frames: it cannot be trusted with the next request.
                processes.stop(killing: true)
                throw PDFError(.workerUnavailable, "\(context): the PDF worker sent a malformed answer")
            }
        }
    }

    private enum WorkerEnded: Error { case closed, timedOut }

    /// "20 s", "2.5 s".
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    private func read(_ count: Int, from socket: Int32, before deadline: Date) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw WorkerEnded.timedOut }
            var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Int32(min(remaining * 1000, 60_000).rounded(.up)))
            if polled < 0 && errno == EINTR { continue }
            guard polled >= 0 else { throw WorkerEnded.closed }
            if polled == 0 { continue }
            let got = bytes.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + filled, count - filled, 0) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw WorkerEnded.closed }
            filled += got
        }
        return bytes
    }

    /// Starts the worker on one end of a socket pair (its standard input and output).
    private func start(_ processes: inout Processes) throws -> (pid: pid_t, socket: Int32) {
        let started = try spawn(options.arguments, output: nil)
        processes.child = started
        return started
    }

    /// The drawer started with `arguments`, writing to `output`; `executable draw` when there
    /// is no drawer beside it (a tree where only `newsstand-pdf` was built).
    private func spawnDrawer(_ arguments: [String], output: (cells: Int32, errors: Int32)) throws -> (pid: pid_t, socket: Int32) {
        if let drawer, FileManager.default.isExecutableFile(atPath: drawer.path) { return try spawn(arguments, output: output, executable: drawer) }
        return try spawn(["draw"] + arguments, output: output)
    }

    /// `executable arguments` on one end of a socket pair: its standard input, and its
    /// output too unless `output` names the files it writes to (its cells and its errors).
    private func spawn(_ arguments: [String], output: (cells: Int32, errors: Int32)?,
                       executable: URL? = nil) throws -> (pid: pid_t, socket: Int32) {
        let executable = executable ?? self.executable
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw PDFError(.workerUnavailable, "PDFs cannot be read: the PDF worker \(executable.lastPathComponent) is missing "
                + "(looked for \(executable.path); it is built and installed beside newsstand)")
        }
        var sockets: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw PDFError(.workerUnavailable, "cannot start the PDF worker: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output.cells, STDOUT_FILENO)
            posix_spawn_file_actions_adddup2(&actions, output.errors, STDERR_FILENO)
            posix_spawn_file_actions_adddup2(&actions, sockets[1], STDIN_FILENO)
        } else {
            posix_spawn_file_actions_adddup2(&actions, sockets[1], STDIN_FILENO)
            posix_spawn_file_actions_adddup2(&actions, sockets[1], STDOUT_FILENO)
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        // The worker outlives requests: it must not hold this process's other files (the
        // library's database, the agent's lock, a file being written) open behind it.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var status = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
        // A worker just written (an upgrade being installed, a test's stand-in) can be open
        // for writing in some other process's child between its fork and its exec, which
        // makes exec fail with ETXTBSY for that moment: try again a few times.
        for _ in 0..<20 where status == ETXTBSY {
            usleep(25_000)
            status = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
        }
        close(sockets[1])
        guard status == 0 else {
            close(sockets[0])
            throw PDFError(.workerUnavailable, "cannot start the PDF worker \(executable.path): \(String(cString: strerror(status)))")
        }
        return (pid, sockets[0])
    }
}

extension PDFError {
    /// What a worker's end (its wait status) means for the request it was on.
    init(ended status: Int32?, context: String) {
        guard let status else {
            self.init(.workerUnavailable, "\(context): the PDF worker is not running")
            return
        }
        let signal = status & 0x7f
        if signal == SIGXCPU {
            self.init(.tookTooLong, "\(context): the PDF library took too long (it used up its CPU time)")
        } else {
            self.init(.crashed, "\(context): the PDF library crashed")
        }
    }
}
