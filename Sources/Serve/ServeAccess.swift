import Foundation
import NewsstandKit

/// Who may read the shelf. Without a user, anyone who can reach the address (127.0.0.1 by
/// default). With one, every request must answer HTTP Digest (RFC 7616, MD5, `qop=auth`):
/// the password never crosses the wire. Basic sends the password as it is, so over plain
/// http it is accepted only when the person running the server said `--insecure`.
public struct ServeAccess: Sendable {
    public static let realm = "Newsstand"
    let user: String?
    let password: String
    let allowsBasic: Bool
    /// Signs nonces, so any nonce this process handed out is recognised without keeping it.
    private let secret: String
    /// Digest's HA1 (`user:realm:password`) and KOReader's key (the password's MD5), made once.
    private let known: String
    private let syncKey: String

    public static let open = ServeAccess(user: nil, password: "", allowsBasic: false)

    public init(user: String?, password: String, allowsBasic: Bool) {
        self.user = user
        self.password = password
        self.allowsBasic = allowsBasic
        secret = (0..<4).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 16) }.joined()
        known = user.map { Self.md5("\($0):\(Self.realm):\(password)") } ?? ""
        syncKey = user == nil ? "" : KOSyncWire.userKey(password: password)
    }

    /// Whether a request with this `Authorization` header (for `method` and the request target `uri`) may go on.
    public func admits(authorization: String?, method: String, uri: String, now: Date = Date()) -> Bool {
        guard let user else { return true }
        guard let authorization else { return false }
        if authorization.lowercased().hasPrefix("basic ") {
            guard allowsBasic, let data = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
                  let pair = String(data: data, encoding: .utf8) else { return false }
            return Self.same(pair, "\(user):\(password)")
        }
        guard authorization.lowercased().hasPrefix("digest ") else { return false }
        let fields = Self.parameters(String(authorization.dropFirst(7)))
        guard let name = fields["username"], Self.same(name, user), fields["realm"] == Self.realm,
              let nonce = fields["nonce"], isFresh(nonce, now: now), fields["uri"] == uri,
              let response = fields["response"], fields["qop"] == "auth",
              let count = fields["nc"], let cnonce = fields["cnonce"],
              (fields["algorithm"] ?? "MD5").uppercased() == "MD5" else { return false }
        guard !known.isEmpty else { return false }
        let request = Self.md5("\(method):\(uri)")
        return Self.same(response.lowercased(), Self.md5("\(known):\(nonce):\(count):\(cnonce):auth:\(request)"))
    }

    /// Whether a KOReader sync request may go on: its `x-auth-user` is the serve user and its
    /// `x-auth-key` the MD5 of the password (KOReader never sends the password itself).
    public func admitsSync(user given: String?, key: String?) -> Bool {
        guard let user else { return true }
        // An empty key (no MD5 could be made) never matches: not even an empty `x-auth-key`.
        guard let given, let key, !syncKey.isEmpty else { return false }
        return Self.same(given, user) && Self.same(key.lowercased(), syncKey)
    }

    /// Whether a device may make an account named `name` (`POST /users/create`): only on an
    /// open shelf; a shelf with a user has that one alone.
    func isSyncUser(_ name: String) -> Bool { user.map { Self.same(name, $0) } ?? true }

    /// The `WWW-Authenticate` values of a 401: Digest always, Basic too where it is allowed.
    public func challenges(now: Date = Date()) -> [String] {
        var values = [#"Digest realm="\#(Self.realm)", qop="auth", algorithm=MD5, nonce="\#(nonce(at: now))""#]
        if allowsBasic { values.append(#"Basic realm="\#(Self.realm)", charset="UTF-8""#) }
        return values
    }

    /// A nonce good for an hour: when it was made, signed.
    func nonce(at date: Date) -> String {
        let stamp = String(Int(date.timeIntervalSince1970))
        return stamp + "-" + Self.md5(stamp + ":" + secret)
    }

    private func isFresh(_ nonce: String, now: Date) -> Bool {
        let parts = nonce.split(separator: "-")
        guard parts.count == 2, let stamp = TimeInterval(parts[0]),
              Self.same(String(parts[1]), Self.md5(String(parts[0]) + ":" + secret)) else { return false }
        return (0...3600).contains(now.timeIntervalSince1970 - stamp)
    }

    /// The `key=value` and `key="value"` pairs of a Digest header.
    static func parameters(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        var rest = Substring(text)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "," }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...]
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var escaped = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaped { value.append(character); escaped = false }
                    else if character == "\\" { escaped = true }
                    else if character == "\"" { break }
                    else { value.append(character) }
                }
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            fields[key] = value
        }
        return fields
    }

    static func md5(_ text: String) -> String {
        LibcryptoDigest.hex(of: text, .md5)
    }

    /// Compares in time that does not depend on where two secrets first differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
