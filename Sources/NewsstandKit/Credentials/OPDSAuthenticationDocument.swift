import Foundation

/// An OPDS Authentication Document (Authentication for OPDS 1.0): what a catalog sends
/// with its 401 as `application/opds-authentication+json`, so a reader can show the
/// server's name, logo and the labels of its own login form. Only what a sign-in prompt
/// needs is kept; strings are made printable (one line, no control characters).
public struct OPDSAuthenticationDocument: Sendable, Equatable {
    public static let mediaType = "application/opds-authentication+json"
    /// The type of HTTP Basic authentication, the one a user and password answer.
    public static let basicType = "http://opds-spec.org/auth/basic"

    /// One way the server accepts to sign in.
    public struct Method: Sendable, Equatable {
        /// A URI: `http://opds-spec.org/auth/basic`, `…/auth/oauth/implicit`, …
        public var type: String
        /// The label of the login field ("Library card"), when the server gives one.
        public var loginLabel: String?
        /// The label of the password field ("PIN").
        public var passwordLabel: String?
        public var links: [Link]
        public init(type: String, loginLabel: String? = nil, passwordLabel: String? = nil, links: [Link] = []) {
            self.type = type
            self.loginLabel = loginLabel
            self.passwordLabel = passwordLabel
            self.links = links
        }
    }

    public struct Link: Sendable, Equatable {
        public var rel: String
        public var href: URL
        public var type: String?
        public init(rel: String, href: URL, type: String? = nil) { self.rel = rel; self.href = href; self.type = type }
    }

    public var id: String?
    public var title: String
    public var description: String?
    public var methods: [Method]
    /// The document's own links: `logo`, `register`, `help`, `logout`, …
    public var links: [Link]

    public init(id: String? = nil, title: String, description: String? = nil, methods: [Method], links: [Link] = []) {
        self.id = id
        self.title = title
        self.description = description
        self.methods = methods
        self.links = links
    }

    /// The Basic method, whose labels a user-and-password prompt shows.
    public var basic: Method? { methods.first { $0.type == Self.basicType } }
    public var logo: URL? { links.first { $0.rel == "logo" }?.href }
    /// Where a new account can be made.
    public var register: URL? { links.first { $0.rel == "register" }?.href }

    /// Parses `data` (relative links against `url`); nil when it is not such a document
    /// (not JSON, no title, or no authentication array).
    public static func parse(_ data: Data, url: URL) -> OPDSAuthenticationDocument? {
        guard data.count <= maximumSize,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let title = text(object["title"]),
              let methods = object["authentication"] as? [Any] else { return nil }
        return OPDSAuthenticationDocument(
            id: text(object["id"]), title: title, description: text(object["description"], limit: 400),
            methods: methods.compactMap { item -> Method? in
                guard let item = item as? [String: Any], let type = text(item["type"]) else { return nil }
                let labels = item["labels"] as? [String: Any]
                return Method(type: type, loginLabel: text(labels?["login"]), passwordLabel: text(labels?["password"]),
                              links: links(item["links"], url: url))
            },
            links: links(object["links"], url: url))
    }

    /// The most of a 401's body read for a document.
    static let maximumSize = 256 * 1024

    private static func links(_ value: Any?, url: URL) -> [Link] {
        (value as? [Any] ?? []).compactMap { item in
            guard let item = item as? [String: Any], let rel = text(item["rel"]), let href = item["href"] as? String,
                  let target = URL(string: href, relativeTo: url)?.absoluteURL else { return nil }
            return Link(rel: rel, href: target, type: text(item["type"]))
        }
    }

    private static func text(_ value: Any?, limit: Int = 80) -> String? {
        guard let string = value as? String else { return nil }
        let line = HTTPAuthenticationRequired.printable(string.trimmingCharacters(in: .whitespacesAndNewlines), limit: limit)
        return line.isEmpty ? nil : line
    }
}
