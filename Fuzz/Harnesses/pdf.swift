// libFuzzer target over the contained PDF worker. Two kinds of input:
// - a PDF (anything not starting "NSWF"): bytes → a file → `PDFWorker` (the real
//   `newsstand-pdf`, tight limits) → info, page 1 drawn into 40×40 pixels, page 1's text.
//   Each answer is a result or one `PDFError`: never another error, a crash or a hang of
//   this process (libFuzzer's -timeout catches a hang), and no descriptor left behind.
// - "NSWF" + bytes: a hostile worker's frame → `WorkerFraming.read(WorkerReply.self)`,
//   the parent's decoding of whatever a compromised worker could send. It must answer or
//   throw, never trap.
// libFuzzer's coverage is this process's (the client and the decoding); poppler runs in the
// child, uninstrumented: the PDF half checks containment, not poppler's own paths.
import Foundation
import Imaging
import PDF

private let scratch: URL = {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("newsstand-fuzz-pdf-\(getpid())", isDirectory: true)
    try? FileManager.default.removeItem(at: url)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// `newsstand-pdf` from `NEWSSTAND_PDF_WORKER`, else beside this executable (build.sh links it there).
private let worker: PDFWorker = {
    let path = ProcessInfo.processInfo.environment["NEWSSTAND_PDF_WORKER"].map { URL(fileURLWithPath: $0) }
        ?? PDFWorker.besideThisProgram
    check(FileManager.default.isExecutableFile(atPath: path.path), "no PDF worker at \(path.path): run Fuzz/build.sh pdf")
    return PDFWorker(executable: path, limits: PDFWorker.Limits(cpuSeconds: 2, memoryBytes: 512 << 20, wallSeconds: 5),
                     passwords: DocumentPasswords())
}()

private let frameMark = Array("NSWF".utf8)
private var inputs = 0

/// What this process has open, by descriptor.
private func openDescriptors() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.map { "\($0) → " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) ?? "?") }
}

/// A broken invariant, with its message (`precondition` drops messages in -O builds).
private func check(_ holds: Bool, _ message: @autoclosure () -> String) {
    if !holds { fatalError(message()) }
}

/// A result or a `PDFError`; anything else thrown is a finding.
private func answered<Result>(_ body: () throws -> Result) -> Result? {
    do { return try body() } catch is PDFError { return nil } catch {
        fatalError("the PDF worker's client threw something other than a PDFError: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPDF(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = UnsafeBufferPointer(start: bytes, count: count)
    if data.starts(with: frameMark) {
        decodeFrame(Array(data.dropFirst(frameMark.count)))
        return 0
    }
    inputs += 1
    // A new name each time, as a new download would have.
    let file = scratch.appendingPathComponent("input-\(inputs).pdf")
    defer { try? FileManager.default.removeItem(at: file) }
    guard FileManager.default.createFile(atPath: file.path, contents: Data(buffer: data)) else { return 0 }
    if let info = answered({ try worker.info(of: file) }) {
        check(info.pageSizes.count == info.pageCount, "\(info.pageCount) pages but \(info.pageSizes.count) sizes")
        if let image = answered({ try worker.render(page: 0, of: file, fitting: (width: 40, height: 40)) }) {
            check(image.width <= 40 && image.height <= 40 && image.pixels.count == image.width * image.height * 4,
                         "page 1 drawn \(image.width)×\(image.height) for a 40×40 box")
        }
        _ = answered { try worker.text(page: 0, of: file) }
    }
    // The worker is one child on one socket, whether it lived or was restarted, and no
    // input file stays open. (Other descriptors come and go with the runtimes: dispatch's
    // pipes are made on first use.)
    let descriptors = openDescriptors()
    check(descriptors.filter { $0.contains("socket:") }.count <= 1 && !descriptors.contains { $0.contains(scratch.path) },
          "descriptors left open: \(descriptors)")
    return 0
}

/// The parent's side of a frame, read from `bytes` as if from the socket.
private func decodeFrame(_ bytes: [UInt8]) {
    var offset = 0
    do {
        _ = try WorkerFraming.read(WorkerReply.self) { wanted in
            guard wanted <= bytes.count - offset else { throw PDFError(.workerUnavailable, "the connection closed") }
            defer { offset += wanted }
            return Array(bytes[offset..<offset + wanted])
        }
    } catch {
        _ = String(describing: error)
    }
}
