import Foundation
import Testing

/// A PDF issue read by the real binary: `read --plain` prints each page's words reflowed,
/// `--password` opens an encrypted one, and the shelf asks for the password (issue #22).
@Suite(.serialized) struct PDFReadingEndToEndTests {
    /// A three-page PDF written by Python, byte by byte: Helvetica text on pages 1 and 3,
    /// only a filled rectangle (no text layer) on page 2.
    static func writePDF(to file: URL) throws {
        _ = try Tmux.run(["python3", "-c", """
            import sys
            pages = [["Harbour News", "The lamp at Gull Rock burned all night."], None,
                     ["Wildlife", "A zebra was seen near the lighthouse."]]
            objects = ["<< /Type /Catalog /Pages 2 0 R >>", None, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
            kids = []
            for lines in pages:
                if lines is None:
                    stream = "0 0 0 rg 100 400 200 150 re f"
                else:
                    stream = "BT /F1 20 Tf 72 760 Td (%s) Tj /F1 11 Tf 0 -30 Td (%s) Tj ET" % (lines[0], lines[1])
                objects.append("<< /Length %d >>\\nstream\\n%s\\nendstream" % (len(stream), stream))
                objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % len(objects))
                kids.append("%d 0 R" % len(objects))
            objects[1] = "<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join(kids), len(kids))
            out = b"%PDF-1.4\\n"
            offsets = []
            for number, body in enumerate(objects, 1):
                offsets.append(len(out))
                out += ("%d 0 obj\\n%s\\nendobj\\n" % (number, body)).encode("latin-1")
            xref = len(out)
            out += ("xref\\n0 %d\\n0000000000 65535 f \\n" % (len(objects) + 1)).encode()
            for offset in offsets:
                out += ("%010d 00000 n \\n" % offset).encode()
            out += ("trailer\\n<< /Size %d /Root 1 0 R >>\\nstartxref\\n%d\\n%%%%EOF\\n" % (len(objects) + 1, xref)).encode()
            open(sys.argv[1], "wb").write(out)
            """, file.path])
    }

    /// The PDF encrypted with AES-256 by qpdf: user password `tide`, owner password `keeper`.
    static func encrypt(_ file: URL, to locked: URL) throws {
        _ = try Tmux.run(["qpdf", "--encrypt", "tide", "keeper", "256", "--", file.path, locked.path])
    }

    /// Adds `file` as one of the user's own files and "downloads" it; its issue's name.
    static func add(_ file: URL, in sandbox: Sandbox) throws -> String {
        let added = try sandbox.run("subscribe", file.path)
        try #require(added.status == 0, "\(added.output)")
        let fetched = try sandbox.run("download", "--wait", file.absoluteString)
        try #require(fetched.status == 0, "\(fetched.output)")
        return file.absoluteString
    }

    /// The three pages encrypted, added to `sandbox`'s library; the issue's name.
    static func addLocked(in sandbox: Sandbox) throws -> String {
        try FileManager.default.createDirectory(at: sandbox.home, withIntermediateDirectories: true)
        let plain = sandbox.home.appendingPathComponent("plain.pdf")
        let locked = sandbox.home.appendingPathComponent("locked.pdf")
        try writePDF(to: plain)
        try encrypt(plain, to: locked)
        return try add(locked, in: sandbox)
    }

    @Test func readPlainPrintsEachPageReflowedAndSaysWhichHaveNoText() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        try FileManager.default.createDirectory(at: sandbox.home, withIntermediateDirectories: true)
        let file = sandbox.home.appendingPathComponent("harbour.pdf")
        try Self.writePDF(to: file)
        let issue = try Self.add(file, in: sandbox)

        let read = try sandbox.run("read", issue, "--plain")
        #expect(read.status == 0, "\(read.output)")
        let output = read.output
        #expect(output.contains("[page 1 of 3]") && output.contains("[page 2 of 3]") && output.contains("[page 3 of 3]"), "\(output)")
        #expect(output.contains("The lamp at Gull Rock burned all night."), "\(output)")
        #expect(output.contains("A zebra was seen near the lighthouse."), "\(output)")
        let second = output.components(separatedBy: "[page 2 of 3]").last ?? ""
        #expect(second.hasPrefix("\n[this page has no text]"), "\(output)")
    }

    /// `render FILE.pdf` alone is drawn by the PDF worker's executable in `render`'s place;
    /// two files still go through a worker: the cells are the same, and so is a failure.
    @Test func renderOfOnePDFPageDrawsWhatAWorkerDraws() throws {
        let sandbox = Sandbox()
        try FileManager.default.createDirectory(at: sandbox.home, withIntermediateDirectories: true)
        let file = sandbox.home.appendingPathComponent("harbour.pdf")
        try Self.writePDF(to: file)
        let words = ["--page", "3", "--size", "30x12", "--colors", "256", "--images", "halfblock"]
        let one = try sandbox.run(["render", file.path] + words)
        let two = try sandbox.run(["render", file.path, file.path] + words)
        #expect(one.status == 0 && two.status == 0, "\(one.output)\(two.output)")
        #expect(one.output.contains("\u{1B}[38;5;") && one.output.count > 300, "\(one.output)")
        #expect(two.output == one.output + one.output)
        let missing = try sandbox.run(["render", file.path, "--page", "9", "--size", "30x12"])
        #expect(missing.status == 1)
        #expect(missing.output == "newsstand: \(file.path): harbour.pdf has no page 9 (it has 3)\n", "\(missing.output)")
    }

    @Test func readPasswordOpensAnEncryptedPDFAndAWrongOneSaysSo() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        let issue = try Self.addLocked(in: sandbox)

        let none = try sandbox.run("read", issue, "--plain")
        #expect(none.status != 0 && none.output.lowercased().contains("password"), "\(none.output)")
        let wrong = try sandbox.run("read", issue, "--plain", "--password", "guess")
        #expect(wrong.status != 0 && wrong.output.lowercased().contains("password"), "\(wrong.output)")
        #expect(!wrong.output.contains("guess"), "the password is never printed")
        let right = try sandbox.run("read", issue, "--plain", "--password", "tide")
        #expect(right.status == 0, "\(right.output)")
        #expect(right.output.contains("A zebra was seen near the lighthouse."), "\(right.output)")
        #expect(!right.output.contains("tide\n"))
    }

    @Test func theShelfAsksForThePasswordOfAnEncryptedPDF() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        let issue = try Self.addLocked(in: sandbox)

        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("env \(sandbox.environment.map { "'\($0)'" }.joined(separator: " ")) TERM=xterm-256color LANG=C.UTF-8 "
                       + "LC_ALL=C.UTF-8 '\(Tmux.binary.path)' read '\(issue)'", width: 100, height: 30)
        #expect(tmux.waitFor("Password for") != nil, "no password prompt:\n\(tmux.lastScreen)")
        try tmux.send("-l", "guess")
        try tmux.send("Enter")
        #expect(tmux.waitFor("Wrong password.") != nil, "a wrong password not said:\n\(tmux.lastScreen)")
        #expect(!tmux.lastScreen.contains("guess"))
        try tmux.send("-l", "tide")
        try tmux.send("Enter")
        #expect(tmux.waitFor("1 of 3") != nil, "the PDF did not open:\n\(tmux.lastScreen)")
        try tmux.send("v")
        #expect(tmux.waitFor("The lamp at Gull Rock burned all night.") != nil, "no text view:\n\(tmux.lastScreen)")
        try tmux.send("Q")
        #expect(tmux.waitUntilExited())
        #expect(try sandbox.sql("SELECT readerView FROM issue WHERE readerView IS NOT NULL") == "text")
    }
}
