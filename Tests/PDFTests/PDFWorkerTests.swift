import Foundation
import Imaging
import Testing
@testable import PDF

private let newsstand = builtNewsstand

@Suite struct PDFWorkerTests {
    private func withSample<Result>(_ body: (URL) throws -> Result) throws -> Result {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sample.pdf")
        SamplePDF.write(to: file, pages: 3)
        return try body(file)
    }

    @Test func answersWhatTheDocumentAnswersInProcess() throws {
        try withSample { file in
            let worker = PDFWorker(executable: newsstand)
            let document = try PDFDocument(url: file)
            let info = try document.info(), picture = try document.render(page: 1, fitting: (width: 100, height: 100))
            let text = try document.text(page: 2)
            #expect(try worker.info(of: file) == info)
            #expect(try worker.render(page: 1, of: file, fitting: (width: 100, height: 100)) == picture)
            #expect(try worker.text(page: 2, of: file) == text)
        }
    }

    @Test func aDocumentsOwnErrorsComeBackAsTheyAre() throws {
        try withSample { file in
            let worker = PDFWorker(executable: newsstand)
            #expect(throws: PDFError(.noSuchPage, "sample.pdf has no page 9 (it has 3)")) {
                try worker.render(page: 8, of: file, fitting: nil)
            }
            let garbage = file.deletingLastPathComponent().appendingPathComponent("garbage.pdf")
            try Data("%PDF-1.4 not much else".utf8).write(to: garbage)
            do { _ = try worker.info(of: garbage); Issue.record("a garbage PDF opened") } catch let error as PDFError {
                #expect(error.kind == .unreadable)
            }
        }
    }

    @Test func aCrashIsOneErrorAndTheNextRequestWorks() throws {
        try withSample { file in
            let worker = PDFWorker(executable: newsstand, testFaults: true)
            #expect(throws: PDFError(.crashed, "the test request failed: the PDF library crashed")) { try worker.misbehave(.crash) }
            let pages = try worker.info(of: file).pageCount
            #expect(pages == 3)
        }
    }

    @Test func aHangEndsAtTheWallClockLimit() throws {
        try withSample { file in
            let worker = PDFWorker(executable: newsstand, limits: PDFWorker.Limits(cpuSeconds: 60, wallSeconds: 2), testFaults: true)
            let started = Date()
            #expect(throws: PDFError(.tookTooLong, "the test request failed: the PDF library took too long")) { try worker.misbehave(.block) }
            #expect(Date().timeIntervalSince(started) < 10)
            let pages = try worker.info(of: file).pageCount
            #expect(pages == 3)
        }
    }

    @Test func aHangEndsAtTheCPULimit() throws {
        let worker = PDFWorker(executable: newsstand, limits: PDFWorker.Limits(cpuSeconds: 1, wallSeconds: 30), testFaults: true)
        let started = Date()
        #expect(throws: PDFError(.tookTooLong, "the test request failed: the PDF library took too long")) { try worker.misbehave(.spin) }
        // SIGXCPU, not the 30 s clock, ended it.
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func runawayMemoryEndsAtTheAddressSpaceLimit() throws {
        let worker = PDFWorker(executable: newsstand, limits: PDFWorker.Limits(memoryBytes: 512 << 20, wallSeconds: 30), testFaults: true)
        #expect(throws: PDFError(.crashed, "the test request failed: the PDF library crashed")) { try worker.misbehave(.exhaustMemory) }
    }

    @Test func theWorkerHoldsNoneOfItsParentsFiles() throws {
        try withSample { file in
            // Opened without close-on-exec, as a library's database or lock might be.
            let held = file.deletingLastPathComponent().appendingPathComponent("held")
            let descriptor = open(held.path, O_WRONLY | O_CREAT, 0o600)
            #expect(descriptor >= 0)
            defer { close(descriptor) }
            let worker = PDFWorker(executable: newsstand)
            _ = try worker.info(of: file)
            let pid = try #require(worker.processID)
            let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
            }
            #expect(!open.isEmpty)
            #expect(!open.contains(held.path))
        }
    }

    @Test func testFaultsAreOffUnlessAsked() throws {
        let worker = PDFWorker(executable: newsstand)
        #expect(throws: PDFError(.workerUnavailable, "test faults are off")) { try worker.misbehave(.crash) }
    }
}
