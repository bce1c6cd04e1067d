import Foundation
import Synchronization

/// Answers a 401: picks, among the server's challenges, the one our credentials can
/// answer (Digest with SHA-256 before Digest with MD5 before Basic, for a user and
/// password; Bearer for a token) and writes the `Authorization` field of each request,
/// Digest's counting its uses of the server's nonce (RFC 7616, RFC 2617's qop=auth).
struct HTTPAuthorization: Sendable {
    let credentials: Credentials
    /// The Digest challenge being answered; nil for Basic and Bearer.
    private(set) var digest: DigestChallenge?
    private(set) var nonceCount = 0

    /// Nil when no challenge offered can be answered with `credentials` (a token to a
    /// server that asks only for Basic or Digest, say). No `WWW-Authenticate` at all gets
    /// Basic or Bearer, as sent before there was Digest.
    init?(credentials: Credentials, challenges: [HTTPChallenge]) {
        self.credentials = credentials
        switch credentials {
        case .bearer:
            guard challenges.isEmpty || challenges.contains(where: { $0.is("Bearer") }) else { return nil }
        case .basic:
            let digests = challenges.compactMap(DigestChallenge.init)
            if let best = digests.max(by: { $0.algorithm.preference < $1.algorithm.preference }) {
                digest = best
            } else {
                guard challenges.isEmpty || challenges.contains(where: { $0.is("Basic") }) else { return nil }
            }
        }
    }

    /// The field for a GET of `uri` (the request target: path and query, as sent).
    mutating func header(method: String = "GET", uri: String, cnonce: String = HTTPAuthorization.makeCnonce()) -> String {
        guard let digest, case let .basic(user, password) = credentials else { return credentials.authorizationHeader }
        nonceCount += 1
        return digest.response(user: user, password: password, method: method, uri: uri, nonceCount: nonceCount, cnonce: cnonce)
    }

    /// A fresh nonce after `stale=true` (the password was right, the nonce too old).
    mutating func renew(_ challenge: DigestChallenge) {
        digest = challenge
        nonceCount = 0
    }

    static func makeCnonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }.lowercaseHex
    }

    /// The request target a client sends for `url`: its path (or "/") and query, still percent-encoded.
    static func requestTarget(of url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "/" }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        return target
    }
}

/// A `Digest` challenge we can answer: MD5 or SHA-256 (and their `-sess` forms), with
/// `qop=auth` (or `auth-int`, whose empty GET body is hashed) or no qop (RFC 2069).
struct DigestChallenge: Sendable, Equatable {
    enum Algorithm: String, Sendable {
        case md5 = "MD5", md5Session = "MD5-sess", sha256 = "SHA-256", sha256Session = "SHA-256-sess"
        var preference: Int { self == .sha256 || self == .sha256Session ? 2 : 1 }
        var isSession: Bool { self == .md5Session || self == .sha256Session }
        func hash(_ text: String) -> String { HTTPAuthorization.hex(text, sha256: preference == 2) }
    }

    var realm: String
    var nonce: String
    var opaque: String?
    var algorithm: Algorithm
    /// "auth", "auth-int" or nil (no qop offered).
    var qop: String?
    var stale: Bool
    var userhash: Bool

    init?(_ challenge: HTTPChallenge) {
        guard challenge.is("Digest"), let nonce = challenge.parameters["nonce"] else { return nil }
        let name = challenge.parameters["algorithm"] ?? "MD5"
        guard let algorithm = Algorithm.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self.realm = challenge.realm ?? ""
        self.nonce = nonce
        self.opaque = challenge.parameters["opaque"]
        self.algorithm = algorithm
        self.stale = challenge.parameters["stale"]?.lowercased() == "true"
        self.userhash = challenge.parameters["userhash"]?.lowercased() == "true"
        if let offered = challenge.parameters["qop"] {
            let options = offered.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            if options.contains("auth") { qop = "auth" } else if options.contains("auth-int") { qop = "auth-int" } else { return nil }
        } else {
            qop = nil
        }
    }

    /// The `Authorization` field: `Digest username="…", realm="…", …, response="…"`.
    func response(user: String, password: String, method: String, uri: String, nonceCount: Int, cnonce: String) -> String {
        let nc = String(format: "%08x", nonceCount)
        var ha1 = algorithm.hash("\(user):\(realm):\(password)")
        if algorithm.isSession { ha1 = algorithm.hash("\(ha1):\(nonce):\(cnonce)") }
        let ha2 = algorithm.hash(qop == "auth-int" ? "\(method):\(uri):\(algorithm.hash(""))" : "\(method):\(uri)")
        let digest = qop.map { algorithm.hash("\(ha1):\(nonce):\(nc):\(cnonce):\($0):\(ha2)") } ?? algorithm.hash("\(ha1):\(nonce):\(ha2)")
        let username = userhash ? algorithm.hash("\(user):\(realm)") : user
        var fields = ["username=\(Self.quoted(username))", "realm=\(Self.quoted(realm))", "uri=\(Self.quoted(uri))",
                      "algorithm=\(algorithm.rawValue)", "nonce=\(Self.quoted(nonce))"]
        if let qop { fields += ["nc=\(nc)", "cnonce=\(Self.quoted(cnonce))", "qop=\(qop)"] }
        fields.append("response=\(Self.quoted(digest))")
        if let opaque { fields.append("opaque=\(Self.quoted(opaque))") }
        if userhash { fields.append("userhash=true") }
        return "Digest " + fields.joined(separator: ", ")
    }

    static func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

extension DigestChallenge.Algorithm: CaseIterable {}

extension HTTPAuthorization {
    /// MD5 or SHA-256 of `text`'s UTF-8 bytes, as lower-case hex (libcrypto).
    static func hex(_ text: String, sha256: Bool) -> String {
        LibcryptoDigest.hex(of: text, sha256 ? .sha256 : .md5)
    }
}

/// The answers that worked, by origin, shared by the transfers of one `HTTPAccess`: later
/// requests to that origin send them at once instead of meeting a 401 first (one round
/// trip less per cover or page of a Digest server). A Digest answer's nonce count goes up
/// under the lock, so concurrent transfers never repeat one. An answer that meets a 401
/// is forgotten and the challenge answered afresh.
final class HTTPAuthorizationCache: Sendable {
    private let answers = Mutex<[String: HTTPAuthorization]>([:])

    init() {}

    /// The field for a request of `uri` to `origin`, when an answer worked there before.
    func header(origin: String, uri: String) -> String? {
        answers.withLock { answers in
            guard var answer = answers[origin] else { return nil }
            let header = answer.header(uri: uri)
            answers[origin] = answer
            return header
        }
    }

    func remember(_ answer: HTTPAuthorization, origin: String) {
        answers.withLock { answers in
            // Keep the higher nonce count when another transfer already stored this nonce.
            if let known = answers[origin], known.digest?.nonce == answer.digest?.nonce, known.nonceCount >= answer.nonceCount { return }
            answers[origin] = answer
        }
    }

    func forget(origin: String) { _ = answers.withLock { $0.removeValue(forKey: origin) } }
}
