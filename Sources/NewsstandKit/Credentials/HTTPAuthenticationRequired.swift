import Foundation

/// A server asked for credentials (401) that we do not have, or refused the ones we sent.
/// Every fetch through `HTTPAccess` (feeds, covers, downloads, pages) throws it, so a
/// screen can ask for a user and password, `CredentialStore.save` them under `host`, and
/// try again. It never carries a password.
public struct HTTPAuthenticationRequired: Error, CustomStringConvertible, Sendable, Equatable {
    /// The URL that answered 401.
    public var url: URL
    /// Where credentials for it are kept: the host, with `:port` when the URL names one
    /// (the key of `CredentialStore` and of config.toml's `[credentials]`).
    public var host: String
    /// The schemes the server offered, as it spelled them ("Digest", "Basic", "Bearer");
    /// empty when it sent no `WWW-Authenticate`.
    public var schemes: [String]
    /// The realm of the first challenge that names one.
    public var realm: String?
    /// True when credentials were sent and refused: a wrong user or password.
    public var credentialsSent: Bool
    /// The OPDS Authentication Document of the 401's body, when it carried one: the
    /// server's title, the labels of its login form, its logo and registration links.
    public var document: OPDSAuthenticationDocument?

    public init(url: URL, host: String, schemes: [String], realm: String?, credentialsSent: Bool,
                document: OPDSAuthenticationDocument? = nil) {
        self.url = url
        self.host = host
        self.schemes = schemes
        self.realm = realm
        self.credentialsSent = credentialsSent
        self.document = document
    }

    /// The name a prompt shows for the server: the document's title, else the realm, else the host.
    public var serverName: String { document?.title ?? realm ?? host }

    /// One line: "HOST refused the user name or password (401)" or "HOST asks for a user
    /// name and password (401); sign in with `newsstand login URL`".
    public var description: String {
        let asked = realm.map { " for \"\(Self.printable($0))\"" } ?? ""
        if credentialsSent {
            return "\(host) refused the user name or password\(asked) (401): wrong password?"
        }
        let what = schemes.allSatisfy { $0.lowercased() == "bearer" } && !schemes.isEmpty ? "a token" : "a user name and password"
        return "\(host) asks for \(what)\(asked) (401); sign in with: newsstand login \(url.absoluteString)"
    }

    /// The key credentials are kept under for `url`: its host, lower-cased, with `:port` when given.
    public static func host(of url: URL) -> String {
        let host = url.host?.lowercased() ?? ""
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// A server's text shown in one line: no control characters, at most `limit` characters.
    static func printable(_ text: String, limit: Int = 80) -> String {
        String(String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) }).prefix(limit))
    }
}
