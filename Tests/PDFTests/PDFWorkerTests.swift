import Foundation
import Imaging
import IssueArchive
import Testing
@testable import PDF
@testable import PDFEngine


@Suite struct PDFWorkerTests {
    private func withSample<Result>(_ body: (URL) throws -> Result) throws -> Result { try SamplePDF.withSample(body) }

    @Test func answersWhatTheDocumentAnswersInProcess() throws {
        try withSample { file in
            let worker = PDFWorker(executable: builtWorker)
            let document = try PDFDocument(url: file)
            let info = try document.info(), picture = try document.render(page: 1, fitting: (width: 100, height: 100))
            let text = try document.text(page: 2)
            #expect(try worker.info(of: file) == info)
            #expect(try worker.render(page: 1, of: file, fitting: (width: 100, height: 100)) == picture)
            #expect(try worker.text(page: 2, of: file) == text)
        }
    }

    /// What a sync with calibre matches one's own PDF by: the identifiers in its XMP.
    @Test func theIdentifiersItsXMPGivesComeBack() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("chart.pdf")
        try HandWrittenPDF.writeCompressed(Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/"><pdfx:doi>10.5555/chart</pdfx:doi></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """.utf8), inMetadata: true, to: file)
        let worker = PDFWorker(executable: builtWorker)
        #expect(try worker.identifiers(of: file) == [BookIdentifier(value: "10.5555/chart", scheme: "doi")])
        let none = try withSample { sample in try worker.identifiers(of: sample) }
        #expect(none.isEmpty)
    }

    /// An XMP stream that inflates to 20 MB gives nothing (no real packet passes a megabyte),
    /// and the worker answers the next request.
    @Test func aMetadataBombGivesNoIdentifiers() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bomb = folder.appendingPathComponent("bomb.pdf")
        try HandWrittenPDF.writeFlateBomb(to: bomb, inMetadata: true)
        let worker = PDFWorker(executable: builtWorker)
        #expect(try worker.identifiers(of: bomb).isEmpty)
        #expect(try worker.info(of: bomb).pageCount == 1)
    }

    @Test func aDocumentsOwnErrorsComeBackAsTheyAre() throws {
        try withSample { file in
            let worker = PDFWorker(executable: builtWorker)
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

    @Test func aFileReplacedAtTheSamePathIsOpenedAfresh() throws {
        try withSample { file in
            let worker = PDFWorker(executable: builtWorker)
            let before = try worker.info(of: file).pageCount
            #expect(before == 3)
            let replacement = file.deletingLastPathComponent().appendingPathComponent("new.pdf")
            SamplePDF.write(to: replacement, pages: 5)
            #expect(rename(replacement.path, file.path) == 0)
            let after = try worker.info(of: file).pageCount
            #expect(after == 5)
        }
    }

    @Test func aCrashIsOneErrorAndTheNextRequestWorks() throws {
        try withSample { file in
            let worker = PDFWorker(executable: builtWorker, testFaults: true)
            #expect(throws: PDFError(.crashed, "the test request failed: the PDF library crashed")) { try worker.misbehave(.crash) }
            let pages = try worker.info(of: file).pageCount
            #expect(pages == 3)
        }
    }

    @Test func aHangEndsAtTheWallClockLimit() throws {
        try withSample { file in
            // The clock runs from the worker's start: the next request starts a fresh worker (poppler
            // loaded, the file opened) within it, so it is not cut to a quiet machine's measure.
            let worker = PDFWorker(executable: builtWorker, limits: PDFWorker.Limits(cpuSeconds: 60, wallSeconds: 5), testFaults: true)
            #expect(throws: PDFError(.tookTooLong, "the test request failed: the PDF library took too long (no answer within 5 s)")) {
                try worker.misbehave(.block)
            }
            let pages = try worker.info(of: file).pageCount
            #expect(pages == 3)
        }
    }

    @Test func aHangEndsAtTheCPULimit() throws {
        let worker = PDFWorker(executable: builtWorker, limits: PDFWorker.Limits(cpuSeconds: 1, wallSeconds: 300), testFaults: true)
        // SIGXCPU, not the 300 s clock, ends it: the message says which.
        #expect(throws: PDFError(.tookTooLong, "the test request failed: the PDF library took too long (it used up its CPU time)")) {
            try worker.misbehave(.spin)
        }
    }

    @Test func runawayMemoryEndsAtTheAddressSpaceLimit() throws {
        let worker = PDFWorker(executable: builtWorker, limits: PDFWorker.Limits(memoryBytes: 512 << 20, wallSeconds: 30), testFaults: true)
        #expect(throws: PDFError(.crashed, "the test request failed: the PDF library crashed")) { try worker.misbehave(.exhaustMemory) }
    }

    @Test func theWorkerHoldsNoneOfItsParentsFiles() throws {
        try withSample { file in
            // Opened without close-on-exec, as a library's database or lock might be.
            let held = file.deletingLastPathComponent().appendingPathComponent("held")
            let descriptor = open(held.path, O_WRONLY | O_CREAT, 0o600)
            #expect(descriptor >= 0)
            defer { close(descriptor) }
            let worker = PDFWorker(executable: builtWorker)
            _ = try worker.info(of: file)
            let pid = try #require(worker.processID)
            let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
            }
            #expect(!open.isEmpty)
            #expect(!open.contains(held.path))
        }
    }

    @Test func aMissingWorkerIsOneErrorSayingWhereItLooked() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sample.pdf")
        SamplePDF.write(to: file, pages: 1)
        let missing = folder.appendingPathComponent("bin/newsstand-pdf")
        let worker = PDFWorker(executable: missing)
        #expect(throws: PDFError(.workerUnavailable, "PDFs cannot be read: the PDF worker newsstand-pdf is missing (looked for "
                                 + "\(missing.path); it is built and installed beside newsstand)")) {
            try worker.info(of: file)
        }
    }

    @Test func aWorkerAnsweringNonsenseIsEndedNotWaitedFor() throws {
        try withSample { file in
            // A "worker" that answers with a frame of five bytes that are not JSON, then lingers.
            let liar = file.deletingLastPathComponent().appendingPathComponent("liar")
            try Data("#!/bin/sh\nprintf '\\005\\000\\000\\000notjs'\nexec sleep 60\n".utf8).write(to: liar)
            chmod(liar.path, 0o755)
            let worker = PDFWorker(executable: liar)
            // Waiting for it would end at the wall clock ("took too long"), not with this.
            #expect(throws: PDFError(.workerUnavailable, "sample.pdf could not be opened: the PDF worker sent a malformed answer")) {
                try worker.info(of: file)
            }
            #expect(worker.processID == nil)
            // An issue's `issue.pdf` is a name the library gave, not the user's (#31): the
            // message names "the file", and the command before it names the user's.
            let issue = file.deletingLastPathComponent().appendingPathComponent(PDFIssueFormat.fileName)
            try FileManager.default.copyItem(at: file, to: issue)
            #expect(throws: PDFError(.workerUnavailable, "the file could not be opened: the PDF worker sent a malformed answer")) {
                try worker.info(of: issue)
            }
            #expect(throws: PDFError(.workerUnavailable, "the text of the file could not be read: the PDF worker sent a malformed answer")) {
                try worker.pageTexts(of: issue)
            }
        }
    }

    @Test func aTextAnswerWhoseRunsDoNotAddUpIsRefusedNotTrappedOn() throws {
        // One character, and runs of -1 and 2 (which sum to 1 once the negative run is
        // counted as none), then runs that would overflow a sum.
        for runs in ["[{\"count\":-1,\"size\":1,\"font\":\"F\"},{\"count\":2,\"size\":1,\"font\":\"F\"}]",
                     "[{\"count\":9223372036854775807,\"size\":1,\"font\":\"F\"},{\"count\":2,\"size\":1,\"font\":\"F\"}]"] {
            let json = "{\"text\":{\"_0\":{\"text\":\"A\",\"boxes\":[0,0,1,1],\"runs\":\(runs),"
                + "\"size\":{\"width\":1,\"height\":1},\"figures\":[]}}}"
            var frame = Array(json.utf8)
            frame = withUnsafeBytes(of: UInt32(frame.count).littleEndian, Array.init) + frame + [0, 0, 0, 0]
            var offset = 0
            #expect(throws: DecodingError.self) {
                _ = try WorkerFraming.read(WorkerReply.self) { count in
                    defer { offset += count }
                    return Array(frame[offset..<offset + count])
                }
            }
        }
    }

    /// The libraries the dynamic loader would load for `executable` (`ldd`'s answer, from ld.so itself).
    private func loadedLibraries(_ executable: URL) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.environment = ["LD_TRACE_LOADED_OBJECTS": "1"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let listing = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return listing
    }

    @Test func onlyTheWorkerLoadsPoppler() throws {
        let newsstand = builtWorker.deletingLastPathComponent().appendingPathComponent("newsstand")
        let program = try loadedLibraries(newsstand), worker = try loadedLibraries(builtWorker)
        #expect(program.contains("libc.so"))
        #expect(!program.contains("libpoppler"))
        #expect(!program.contains("libcairo"))
        #expect(worker.contains("libpoppler-glib"))
    }

    @Test func testFaultsAreOffUnlessAsked() throws {
        let worker = PDFWorker(executable: builtWorker)
        #expect(throws: PDFError(.workerUnavailable, "test faults are off")) { try worker.misbehave(.crash) }
    }
}
