import Foundation

/// How the library's services reach the network: the one HTTP client (chosen by scheme in
/// use, an in-memory one in tests) and the credentials config.toml gives each host, so a
/// feed, a cover and a download from one host are asked for the same way.
struct HTTPAccess: Sendable {
    /// Nil: `SocketHTTPClient` for http, `URLSessionHTTPClient` for https.
    var client: (any HTTPFetching)?
    /// `[credentials."host"]` for a URL, answered to that host's 401 as downloads do.
    var credentials: @Sendable (URL) -> Credentials?

    static let anonymous = HTTPAccess(client: nil, credentials: { _ in nil })

    /// The credentials in the user's config.toml. A config.toml that does not parse is
    /// reported by the command that reads it; here it only means no credentials.
    static func system(paths: Paths) -> HTTPAccess {
        let config = (try? Config.load(paths: paths)) ?? Config()
        return HTTPAccess(client: nil, credentials: { config.credentials(for: $0) })
    }

    /// A transfer of `url` into `partFile` through this client, with its host's credentials.
    func transfer(_ url: URL, headers: [String: String] = [:], into partFile: URL, timeout: TimeInterval,
                  maximumLength: Int64?, lowSpeedLimit: Transfer.LowSpeedLimit) -> Transfer {
        let transfer = Transfer(request: TransferRequest(url: url, headers: headers), partFile: partFile,
                                credentials: credentials(url), timeout: timeout, maximumLength: maximumLength,
                                lowSpeedLimit: lowSpeedLimit)
        transfer.clientOverride = client
        return transfer
    }
}
