import Foundation
import TestSupport
import Testing

/// Clients that hold the server: silent, too many, or with too much to say.
@Suite struct ServeHostileClientTests {
    /// Waits for the server to close `fd` (a read of 0 bytes); the socket gives up after 20 s on its own.
    static func closedByServer(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 { return false }
        }
    }

    @Test func aClientThatSendsHalfARequestLineIsCutOffWhileOthersAreServed() async throws {
        try await ServedShelf.with(clientTimeout: 2) { shelf in
            let slow = try RawHTTP.connect(port: shelf.port)
            defer { close(slow) }
            let silent = try RawHTTP.connect(port: shelf.port)
            defer { close(silent) }
            RawHTTP.send(slow, Data("GET /op".utf8))
            let started = Date()
            #expect(try shelf.get("/opds").status == 200, "served while the slow client waits")
            #expect(Self.closedByServer(slow), "the server closed it (not this test's own 20 s limit)")
            let waited = Date().timeIntervalSince(started)
            #expect(waited >= 1.5 && waited < 15, "cut off after about 2 s, not \(waited)")
            #expect(Self.closedByServer(silent), "a client that sends nothing at all is cut off too")
            #expect(try shelf.get("/opds").status == 200)
        }
    }

    @Test func aClientThatSendsAByteNowAndThenIsCutOffWhenItsRequestTakesTooLong() async throws {
        try await ServedShelf.with(clientTimeout: 2) { shelf in
            let trickle = try RawHTTP.connect(port: shelf.port)
            defer { close(trickle) }
            let request = Array("GET /opds HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 200)
            let started = Date()
            var last = started, longestGap: TimeInterval = 0, closed = false
            // A byte every 200 ms, never silent for the 2 s a wait may last: the request as a whole has 4 s.
            for byte in request {
                RawHTTP.send(trickle, Data([byte]))
                longestGap = max(longestGap, Date().timeIntervalSince(last))
                last = Date()
                var ready = pollfd(fd: trickle, events: Int16(POLLIN), revents: 0)
                if poll(&ready, 1, 200) > 0 { closed = Self.closedByServer(trickle); break }
            }
            let waited = Date().timeIntervalSince(started)
            #expect(closed, "cut off before its 200 bytes were sent (\(waited) s)")
            #expect(waited >= 3 && waited < 15, "after about 4 s, not \(waited)")
            #expect(longestGap < 2, "this client was never silent for a whole wait (longest gap \(longestGap) s)")
        }
    }

    /// How many descriptors process `pid` has open.
    static func descriptors(of pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// Sends one header line that never ends, as fast as the server takes it; the seconds until
    /// the server shut the connection (a send refused or an end read), nil if it had not after `limit`.
    static func secondsUntilCut(flooding fd: Int32, limit: TimeInterval) -> TimeInterval? {
        let started = Date()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 65536)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date().timeIntervalSince(started) < limit {
            let sent = send(fd, chunk, chunk.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            if sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK { return Date().timeIntervalSince(started) }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, sent < 0 ? 50 : 0) > 0 {
                let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { return Date().timeIntervalSince(started) }
            }
        }
        return nil
    }

    /// What is sent before the endless header: a request's start, or (`kept`) one whole
    /// request the server answers with the endless one sent behind it before the answer comes,
    /// which counts from where the first ended.
    @Test(arguments: [("first", "GET /opds HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Endless: "),
                      ("kept", "GET /opds HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /opds HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Endless: ")])
    func aClientThatNeverStopsSendingOneHeaderIsCutOffAtOnce(_ request: (name: String, start: String)) async throws {
        // The default 30 s a client may wait, 60 s a request may take: only its size cuts it off this soon.
        try await ServedShelf.with { shelf in
            #expect(try shelf.get("/opds").status == 200)  // the library opened: its files are counted
            let open = Self.descriptors(of: shelf.process.processIdentifier)
            let flood = try RawHTTP.connect(port: shelf.port)
            defer { close(flood) }
            RawHTTP.send(flood, Data(request.start.utf8))
            let seconds = Self.secondsUntilCut(flooding: flood, limit: 20)
            #expect(seconds.map { $0 < 10 } == true, "\(request.name): cut off after \(seconds.map { "\($0) s" } ?? "more than 20 s")")
            #expect(try shelf.get("/opds").status == 200)
            // And it is over: the server let the connection go, rather than go on reading what
            // the client had sent (it did, for seconds, at a third of a core).
            let server = shelf.process.processIdentifier
            #expect(waitUntil(timeout: 2) { Self.descriptors(of: server) <= open },
                    "\(request.name): \(Self.descriptors(of: server)) descriptors open, \(open) before the client came")
        }
    }

    @Test func downloadsNobodyReadsAreCutOffAndGiveTheirSlotsBack() async throws {
        try await ServedShelf.with(clientTimeout: 2) { shelf in
            let issue = try shelf.bigIssue()
            var held: [Int32] = []
            defer { held.forEach { close($0) } }
            let started = Date()
            held = try shelf.downloadsNobodyReads(of: issue)
            // All three slots are held by clients that read nothing, until the server gives up on them.
            let refused = try poll(timeout: 20) {
                try shelf.get("/issues/\(issue.id!).cbz", headers: ["Range": "bytes=0-0"]).status == 429 ? true : nil
            }
            #expect(refused == true, "\(shelf.lines.all.filter { !$0.contains(" 206 1 B") }.suffix(30))")
            let again = try #require(try poll(timeout: 20) { () -> HTTPAnswer? in
                let answer = try shelf.get("/issues/\(issue.id!).cbz", headers: ["Range": "bytes=0-0"])
                return answer.status == 206 ? answer : nil
            }, "\(shelf.lines.all.suffix(6))")
            let waited = Date().timeIntervalSince(started)
            #expect(again.body.count == 1)
            #expect(waited >= 1.5 && waited < 15, "slots back after about 2 s, not \(waited)")
        }
    }

    @Test func aThousandConnectionsOpenAtOnceDoNotStopANormalClient() async throws {
        try await ServedShelf.with { shelf in
            var held: [Int32] = []
            defer { held.forEach { close($0) } }
            for index in 0..<1000 {
                let fd = try RawHTTP.connect(port: shelf.port)
                held.append(fd)
                if index.isMultiple(of: 2) { RawHTTP.send(fd, Data("GET /opds HTTP/1.1\r\nHost: x\r\n".utf8)) }
            }
            let started = Date()
            let answer = try shelf.get("/opds")
            #expect(answer.status == 200 && answer.text.contains("<feed"))
            #expect(Date().timeIntervalSince(started) < 10, "answered in \(Date().timeIntervalSince(started)) s")
        }
    }

    @Test func headersPastTheDefaultCapAreRefusedWith431() async throws {
        try await ServedShelf.with { shelf throws in
            // FlyingFox reads a header a byte at a time (slow in a debug build on a busy machine): a few long ones.
            let long = Dictionary(uniqueKeysWithValues: (0..<5).map { ("X-Long-\($0)", String(repeating: "a", count: 3500)) })
            #expect(try shelf.get("/opds", headers: long).status == 431, "past 16 KB together")
            let many = Dictionary(uniqueKeysWithValues: (0..<450).map { ("X-Header-\($0)", String(repeating: "b", count: 24)) })
            #expect(try shelf.get("/opds", headers: many).status == 431, "many small headers count together")
            #expect(try shelf.get("/opds", headers: ["X-Fine": String(repeating: "c", count: 2000)]).status == 200)
        }
    }
}
