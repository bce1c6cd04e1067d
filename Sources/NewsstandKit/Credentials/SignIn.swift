import Foundation
import Synchronization

/// Signing in to a server: ask `url` with the credentials, and keep them in the store only
/// when the server took them. The catalog screen and `newsstand login` both come here.
public enum SignIn {
    /// Fetches `url` (at most 16 MiB, no retries) with `credentials` for its host; on
    /// success saves them under `HTTPAuthenticationRequired.host(of: url)`. A refusal throws
    /// `HTTPAuthenticationRequired` (`credentialsSent` true) and saves nothing; a network
    /// failure throws its `TransferError`.
    /// Returns false when the server let `url` be read without asking for them (they are
    /// kept all the same, for the parts that do ask).
    @discardableResult
    public static func signIn(to url: URL, with credentials: Credentials, store: CredentialStore) throws -> Bool {
        let asked = try verify(url, with: credentials, access: HTTPAccess(client: nil, credentials: { _ in nil }))
        try store.save(credentials, for: HTTPAuthenticationRequired.host(of: url))
        return asked
    }

    /// True when the server asked for the credentials (and took them).
    static func verify(_ url: URL, with credentials: Credentials, access: HTTPAccess) throws -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw DownloadError(message: "'\(url.absoluteString)' is not an http or https URL")
        }
        let host = HTTPAuthenticationRequired.host(of: url)
        let part = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-signin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: part) }
        let wasAsked = Mutex(false)
        var asking = access
        // Only this URL's host gets them (a redirect elsewhere does not).
        asking.credentials = { url in
            guard HTTPAuthenticationRequired.host(of: url) == host else { return nil }
            wasAsked.withLock { $0 = true }
            return credentials
        }
        let transfer = asking.transfer(url, headers: ["Accept": "application/atom+xml, application/opds+json, */*;q=0.5"], into: part,
                                      timeout: 20, maximumLength: 16 << 20, lowSpeedLimit: FeedFetcher.interactiveLowSpeed)
        _ = try transfer.run(validator: nil) { _ in }
        return wasAsked.withLock { $0 }
    }
}
