#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PDF
import PDFDrawing

/// The child side of `PDFWorker`: `newsstand-pdf` reads requests on its standard
/// input and answers on its standard output, under CPU-time and address-space limits, so
/// that whatever poppler does with a hostile PDF ends in this process only.
public enum PDFWorkerServer {
    /// Serves until the parent closes the socket; the process's exit status.
    public static func main(arguments: [String]) -> Int32 {
        let options = WorkerOptions(arguments: arguments)
        // Started by hand or by another parent, it may still have inherited files: none are its own.
        closefrom(3)
        WorkerLimits.limitItself(options)
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
            WorkerLimits.allowCPU(seconds: options.cpuSecondsPerRequest)
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
                    if options.testFaults { WorkerLimits.misbehave(fault) }
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
                case .identifiers: return (.identifiers(document.identifiers), [])
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
}
