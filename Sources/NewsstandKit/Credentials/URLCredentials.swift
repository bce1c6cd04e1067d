import Foundation

extension Library {
    /// `url` without a user and password written into it (`https://user:pass@host/…`), and
    /// those two (percent-decoded) when it had them.
    public static func bareURL(_ url: URL) -> (url: URL, user: String?, password: String?) {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false), let user = parts.user, !user.isEmpty else {
            return (url, nil, nil)
        }
        let password = parts.password ?? ""
        parts.user = nil
        parts.password = nil
        guard let bare = parts.url else { return (url, nil, nil) }
        return (bare, user.removingPercentEncoding ?? user, password.removingPercentEncoding ?? password)
    }
}

extension HTTPAccess {
    /// `url` without its user and password, which go to the `CredentialStore` for its host
    /// (through `HTTPAccess.keep`), as `newsstand login` keeps them: the library's database
    /// only ever holds the bare URL.
    func keepingCredentialsApart(_ url: URL) throws -> URL {
        let (bare, user, password) = Library.bareURL(url)
        guard let user, let password else { return url }
        try keep(.basic(user: user, password: password), HTTPAuthenticationRequired.host(of: bare))
        return bare
    }
}
