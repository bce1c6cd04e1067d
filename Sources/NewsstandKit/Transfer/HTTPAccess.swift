import Foundation
import IssueArchive
import Synchronization

/// How the library's services reach the network: the one HTTP client (chosen by scheme in
/// use, an in-memory one in tests) and the credentials each host answers a 401 with, so a
/// feed, a cover, a page and a download from one host are asked for the same way. A 401
/// we cannot answer, or whose answer is refused, throws `HTTPAuthenticationRequired`.
struct HTTPAccess: Sendable {
    /// Nil: `SocketHTTPClient` for http, `CurlHTTPClient` for https.
    var client: (any HTTPFetching)?
    /// The credentials for a URL's host; asked only when the host answers 401. Throws
    /// `CredentialStoreError` when the store cannot be read (a file others may read).
    var credentials: @Sendable (URL) throws -> Credentials?

    /// Keeps credentials the user gave for a host (in a URL they typed) where signing in
    /// keeps them; without a store (tests' in-memory access) it only remembers them here.
    var keep: @Sendable (Credentials, String) throws -> Void

    /// The answers that worked, by origin, shared by every transfer made here.
    let answers = HTTPAuthorizationCache()

    init(client: (any HTTPFetching)?, credentials: @escaping @Sendable (URL) throws -> Credentials?,
         keep: @escaping @Sendable (Credentials, String) throws -> Void = { _, _ in }) {
        self.client = client
        self.credentials = credentials
        self.keep = keep
    }

    static let anonymous = HTTPAccess(client: nil, credentials: { _ in nil })

    /// config.toml's `[credentials]` first, then what the user signed in with
    /// (`CredentialStore`). A config.toml that does not parse is reported by the command
    /// that reads it; here it only means no credentials from it.
    static func system(paths: Paths, environment: [String: String] = ProcessInfo.processInfo.environment) -> HTTPAccess {
        let config = (try? Config.load(paths: paths)) ?? Config()
        let store = LazyCredentialStore(paths: paths, environment: environment)
        return HTTPAccess(client: nil, credentials: { url in
            try config.credentials(for: url) ?? store.value.credentials(for: url)
        }, keep: { try store.value.save($0, for: $1) })
    }

    /// A transfer of `url` into `partFile` through this client, with its host's credentials
    /// (`credentials`, when given, are answered first: the agent's from config.toml).
    func transfer(_ url: URL, headers: [String: String] = [:], into partFile: URL, timeout: TimeInterval = 30,
                  expectedLength: Int64? = nil, expectedSHA256: String? = nil, credentials given: Credentials? = nil,
                  storage: Storage = SystemStorage(), maximumLength: Int64?,
                  lowSpeedLimit: Transfer.LowSpeedLimit = .standard) -> Transfer {
        let transfer = Transfer(request: TransferRequest(url: url, headers: headers), partFile: partFile,
                                expectedLength: expectedLength, expectedSHA256: expectedSHA256, credentials: given,
                                timeout: timeout, storage: storage, maximumLength: maximumLength, lowSpeedLimit: lowSpeedLimit)
        transfer.credentialsLookup = credentials
        transfer.authorizationCache = answers
        transfer.clientOverride = client
        return transfer
    }
}

/// The store, made at the first 401 (finding the keyring runs `secret-tool`), then kept.
private final class LazyCredentialStore: Sendable {
    private let paths: Paths
    private let environment: [String: String]
    private let made = Mutex<CredentialStore?>(nil)
    init(paths: Paths, environment: [String: String]) { self.paths = paths; self.environment = environment }
    var value: CredentialStore {
        made.withLock { store in
            if let store { return store }
            let fresh = CredentialStore(paths: paths, environment: environment)
            store = fresh
            return fresh
        }
    }
}
