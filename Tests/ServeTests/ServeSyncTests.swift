import Foundation
import Testing

/// The shelf as a KOReader sync server: a device sends its place for a file it was served,
/// the issue's place here moves (or is offered), and the shelf's place is read back. The
/// client is written here from KOReader's published API (kosync.koplugin's api.json:
/// `/users/create`, `/users/auth`, `/syncs/progress`), in plain HTTP.
@Suite struct ServeSyncTests {
    /// A KOReader device, as its kosync plugin speaks.
    struct Device {
        let shelf: ServedShelf
        var user = "reader"
        var key = "0123456789abcdef0123456789abcdef"

        func send(_ method: String, _ path: String, json: String? = nil, signed: Bool = true) throws -> HTTPAnswer {
            var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(shelf.port)", "Connection: close",
                         "Accept: application/vnd.koreader.v1+json"]
            if signed { lines += ["x-auth-user: \(user)", "x-auth-key: \(key)"] }
            let body = Data((json ?? "").utf8)
            if json != nil { lines += ["Content-Type: application/json", "Content-Length: \(body.count)"] }
            return try RawHTTP.exchange(port: shelf.port, Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body)
        }

        func put(document: String, progress: String, percentage: Double, device: String = "Kobo Libra", id: String = "KOBO1") throws -> HTTPAnswer {
            try send("PUT", "/syncs/progress", json: #"{"document":"\#(document)","progress":"\#(progress)","percentage":\#(percentage),"device":"\#(device)","device_id":"\#(id)"}"#)
        }

        func place(of document: String) throws -> [String: Any] {
            let answer = try send("GET", "/syncs/progress/\(document)")
            #expect(answer.status == 200)
            return try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        }
    }

    /// KOReader's partial MD5 of a file (util.partialMD5), written from its description in
    /// Python: 1 KiB samples at 0 and at 1024 << 2i for i = 0…10, until one starts past the end.
    static func partialMD5(_ data: Data) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kosync-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import hashlib, sys
            data = open(sys.argv[1], 'rb').read()
            digest = hashlib.md5()
            for offset in [0] + [1024 << (2 * i) for i in range(11)]:
                if offset >= len(data): break
                digest.update(data[offset:offset + 1024])
            print(digest.hexdigest())
            """
        return try Self.run("/usr/bin/env", ["python3", "-c", script, file.path])
    }

    /// `newsstand place ISSUE --json` in the shelf's library, as a script would ask.
    static func place(_ shelf: ServedShelf, _ issue: String, set: String? = nil) throws -> [String: Any] {
        let text = try run(ServedShelf.binary.path, ["place", issue, "--json"] + (set.map { ["--set", $0] } ?? []),
                           environment: ["NEWSSTAND_HOME": shelf.home.path, "NEWSSTAND_KEYRING": "off"])
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aDevicesPlaceMovesTheIssueHereAndTheShelfsPlaceIsOfferedBack() async throws {
        try await ServedShelf.with { shelf in
            let issue = try shelf.installed(ServedShelf.epub, in: try shelf.publication("Tidewater"), title: "November")
            let served = try shelf.get("/issues/\(issue.id!).epub")
            #expect(served.status == 200)
            let document = try Self.partialMD5(served.body)
            let device = Device(shelf: shelf)

            #expect(try device.place(of: document).isEmpty, "no place kept yet")
            let put = try device.put(document: document, progress: "/body/DocFragment[3]/body/p[1]", percentage: 0.25)
            #expect(put.status == 200)
            let updated = try #require(try JSONSerialization.jsonObject(with: put.body) as? [String: Any])
            #expect(updated["document"] as? String == document && updated["timestamp"] is Int)

            var here = try Self.place(shelf, issue.name)
            #expect((here["place"] as? [String: Any])?["percentage"] as? Double == 25, "\(here)")
            // The device reads its own place back as it sent it, and knows it by its id.
            var back = try device.place(of: document)
            #expect(back["percentage"] as? Double == 0.25 && back["device_id"] as? String == "KOBO1")
            #expect(back["progress"] as? String == "/body/DocFragment[3]/body/p[1]")

            // A place set on the shelf is what the device reads next, from another device.
            here = try Self.place(shelf, issue.name, set: "60%")
            back = try device.place(of: document)
            #expect(back["percentage"] as? Double == 0.6, "\(back)")
            #expect(back["device_id"] as? String != "KOBO1" && (back["device"] as? String)?.hasPrefix("newsstand") == true)
            #expect(back["timestamp"] is Int && back["document"] as? String == document)

            // Back to a quarter is far: offered on the shelf, not taken, like any synced place.
            #expect(try device.put(document: document, progress: "/body/DocFragment[3]/body/p[1]", percentage: 0.25).status == 200)
            here = try Self.place(shelf, issue.name)
            #expect((here["place"] as? [String: Any])?["percentage"] as? Double == 60, "\(here)")
            let offer = try #require(here["offer"] as? [String: Any], "\(here)")
            #expect((offer["source"] as? String)?.contains("Kobo Libra") == true)
            #expect((offer["place"] as? [String: Any])?["percentage"] as? Double == 25)
        }
    }

    @Test func aComicsPageFromADeviceFillsTheCatalogsLastRead() async throws {
        try await ServedShelf.with { shelf in
            let comic = try shelf.installed(ServedShelf.cbz, in: try shelf.publication("Badger"), title: "Three")
            let document = try Self.partialMD5(try shelf.get("/issues/\(comic.id!).cbz").body)
            #expect(try !shelf.get("/opds/newest").text.contains("pse:lastRead"))
            #expect(try Device(shelf: shelf).put(document: document, progress: "3", percentage: 0.5).status == 200)
            #expect(try shelf.get("/opds/newest").text.contains(#"pse:lastRead="2""#), "page 3 counted from 0")
            #expect(try shelf.get("/opds2/newest").text.contains(#""lastRead":2"#))
            // A book the shelf does not hold is kept for the device's others, and changes nothing here.
            let stranger = String(repeating: "ab", count: 16)
            #expect(try Device(shelf: shelf).put(document: stranger, progress: "9", percentage: 0.9).status == 200)
            #expect(try Device(shelf: shelf).place(of: stranger)["percentage"] as? Double == 0.9)
            #expect(try Device(shelf: shelf).send("PUT", "/syncs/progress", json: #"{"progress":"1","percentage":0.1}"#).status == 403)
        }
    }

    @Test func aShelfWithAUserSignsInItsUserByKeyAndMakesNoOtherAccount() async throws {
        try await ServedShelf.with(user: "kobo", password: "s3cret") { shelf in
            let key = ServeAccessTests.md5("s3cret")
            var device = Device(shelf: shelf, user: "kobo", key: key)
            #expect(try device.send("POST", "/users/create", json: #"{"username":"kobo","password":"\#(key)"}"#, signed: false).status == 402,
                    "the account is there: sign in")
            #expect(try device.send("POST", "/users/create", json: #"{"username":"other","password":"\#(key)"}"#, signed: false).status == 403)
            let auth = try device.send("GET", "/users/auth")
            #expect(auth.status == 200 && auth.text.contains(#""authorized":"OK""#))
            #expect(try device.send("GET", "/syncs/progress/\(String(repeating: "0", count: 32))").status == 200)
            device.key = ServeAccessTests.md5("guess")
            let refused = try device.send("GET", "/users/auth")
            #expect(refused.status == 401 && refused.text.contains("2001"))
            #expect(try device.put(document: String(repeating: "0", count: 32), progress: "1", percentage: 0.1).status == 401)
            #expect(try device.send("GET", "/users/auth", signed: false).status == 401)
            // The catalogs still want Digest: the sync key opens only the sync paths.
            #expect(try shelf.get("/opds", headers: ["x-auth-user": "kobo", "x-auth-key": key]).status == 401)
        }
    }

    @Test func anOpenShelfTakesAnyAccount() async throws {
        try await ServedShelf.with { shelf in
            let created = try Device(shelf: shelf).send("POST", "/users/create", json: #"{"username":"reader","password":"x"}"#, signed: false)
            #expect(created.status == 201 && created.text.contains(#""username":"reader""#))
            #expect(try Device(shelf: shelf).send("POST", "/users/create", json: "{", signed: false).status == 403)
        }
    }
}
