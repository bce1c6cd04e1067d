import Foundation
import NewsstandKit
import Terminal

/// A server asked for a user name and password (a 401): the catalog screen asks for them
/// on the status line, the user first, then the password (shown as dots), and tries what
/// it was doing again. The password lives here only until Enter hands it to the effect
/// that keeps it (`CredentialStore`: the keyring, or a file only the user can read).
struct CatalogSignIn: Equatable {
    /// Where the credentials are kept (`host` or `host:port`).
    var host: String
    /// How the server names itself (its authentication document's title, its realm, or the host).
    var server: String
    /// The user name or password sent were refused.
    var wrong: Bool
    /// What to do again once signed in.
    var retry: ShelfApp.Effect
    private var userField = TextField(limit: 256)
    private var passwordField = TextField(limit: 1024)
    var user: String { userField.text }
    var password: String { passwordField.text }
    private(set) var typingPassword = false

    /// `user`: the name sent before, when the server refused it: typed again only if it was wrong.
    init(host: String, server: String, wrong: Bool, retry: ShelfApp.Effect, user: String = "") {
        self.host = host
        self.server = server
        self.wrong = wrong
        self.retry = retry
        userField = TextField(user, limit: 256)
    }

    var line: String {
        let refused = wrong ? "Wrong user name or password. " : ""
        if typingPassword { return refused + "Password for \(user) at \(server): " + String(repeating: "•", count: password.count) }
        return refused + "\(server) asks you to sign in. User: " + user
    }

    static let hints = "Enter next  Esc cancel"

    enum Outcome: Equatable {
        case stay
        /// Escape: not signed in.
        case cancel
        /// Enter on the password: keep the credentials, then do this again.
        case signIn(ShelfApp.Effect)
    }

    /// Typed as every prompt is (`TextField`); Enter goes on (user, then password, then
    /// the retry), Escape gives up.
    mutating func update(_ key: Key) -> Outcome {
        let outcome = typingPassword ? passwordField.update(key) : userField.update(key)
        switch outcome {
        case .cancel:
            return .cancel
        case .submit where !typingPassword:
            if !user.isEmpty { typingPassword = true }
        case .submit:
            return .signIn(.signIn(host: host, user: user, password: password, retry: retry))
        case .edited, .unchanged:
            break
        }
        return .stay
    }
}
