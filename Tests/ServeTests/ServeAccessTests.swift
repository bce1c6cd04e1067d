import Foundation
import Testing

@Suite struct ServeAccessTests {
    /// A Digest answer as RFC 7616 computes it (MD5, qop=auth), from the server's challenge.
    static func digest(challenge: String, user: String, password: String, method: String = "GET", uri: String) -> String {
        let nonce = challenge.components(separatedBy: "nonce=\"")[1].components(separatedBy: "\"")[0]
        let known = md5("\(user):Newsstand:\(password)")
        let request = md5("\(method):\(uri)")
        let response = md5("\(known):\(nonce):00000001:abcdef:auth:\(request)")
        return #"Digest username="\#(user)", realm="Newsstand", nonce="\#(nonce)", uri="\#(uri)", qop=auth, nc=00000001, cnonce="abcdef", response="\#(response)", algorithm=MD5"#
    }

    static func md5(_ text: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import hashlib,sys; print(hashlib.md5(sys.argv[1].encode()).hexdigest())", text]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        process.waitUntilExit()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aSignedInDeviceAnswersDigestAndAWrongPasswordIsRefused() async throws {
        try await ServedShelf.with(user: "kobo", password: "s3cret") { shelf in
            let challenge = try shelf.get("/opds")
            #expect(challenge.status == 401)
            let offered = try #require(challenge.header("WWW-Authenticate"))
            #expect(offered.hasPrefix("Digest ") && !offered.contains("Basic"))
            let good = Self.digest(challenge: offered, user: "kobo", password: "s3cret", uri: "/opds")
            #expect(try shelf.get("/opds", headers: ["Authorization": good]).status == 200)
            let wrong = Self.digest(challenge: offered, user: "kobo", password: "guess", uri: "/opds")
            #expect(try shelf.get("/opds", headers: ["Authorization": wrong]).status == 401)
            // An answer for one address does not open another.
            #expect(try shelf.get("/opds2", headers: ["Authorization": good]).status == 401)
            let forged = good.replacingOccurrences(of: #"nonce=""#, with: #"nonce="1"#)
            #expect(try shelf.get("/opds", headers: ["Authorization": forged]).status == 401)
            let basic = "Basic " + Data("kobo:s3cret".utf8).base64EncodedString()
            #expect(try shelf.get("/opds", headers: ["Authorization": basic]).status == 401, "Basic over http without --insecure")
        }
    }

    @Test func basicIsAcceptedOnlyWhenInsecureWasAskedFor() async throws {
        try await ServedShelf.with(user: "kobo", password: "s3cret", insecure: true) { shelf in
            let offered = try #require(try shelf.get("/opds").header("WWW-Authenticate"))
            #expect(offered.contains("Basic realm="))
            #expect(try shelf.get("/opds", headers: ["Authorization": "Basic " + Data("kobo:s3cret".utf8).base64EncodedString()]).status == 200)
            #expect(try shelf.get("/opds", headers: ["Authorization": "Basic " + Data("kobo:nope".utf8).base64EncodedString()]).status == 401)
        }
    }
}
