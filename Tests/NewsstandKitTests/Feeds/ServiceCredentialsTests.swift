import Foundation
import Synchronization
import Testing
@testable import NewsstandKit

/// Feeds and covers go through the one HTTP seam, with the credentials config.toml gives
/// their host (as downloads always did).
@Suite struct ServiceCredentialsTests {
    let feedURL = URL(string: "http://news.example.com/feed.json")!
    let coverURL = URL(string: "http://news.example.com/covers/1.png")!
    let otherCoverURL = URL(string: "http://cdn.example.org/covers/2.png")!

    func feed() -> Data {
        Data("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "Locked Weekly", "icon": "\(coverURL.absoluteString)",
             "_newsstand": {"binding": {"type": "newspaper"}},
             "items": [{"id": "lw-1", "title": "One", "date_published": "2026-10-01T00:00:00Z", "image": "\(otherCoverURL.absoluteString)",
                        "attachments": [{"url": "http://news.example.com/issues/1.zip", "mime_type": "application/zip"}]}]}
            """.utf8)
    }

    @Test func aFeedAndItsCoverAreAskedForWithTheHostsCredentials() throws {
        let web = MemoryHTTPClient()
        let credentials = Credentials.basic(user: "reader", password: "secret")
        web.serve(feedURL, headers: ["Content-Type": "application/feed+json"], body: feed(), requiring: credentials)
        web.serve(coverURL, body: Data("cover".utf8), requiring: credentials)
        web.serve(otherCoverURL, body: Data("other".utf8))
        let temp = try TemporaryLibrary(access: HTTPAccess(client: web) { $0.host == "news.example.com" ? credentials : nil })

        let (publication, result) = try temp.library.subscriptions.subscribe(feedURL: feedURL)
        #expect(result.added == ["lw-1"])
        #expect(publication.title == "Locked Weekly")
        let cover = try #require(temp.library.covers.localFile(forCover: coverURL.absoluteString))
        #expect(try String(contentsOf: cover, encoding: .utf8) == "cover")
        #expect(temp.library.covers.localFile(forCover: otherCoverURL.absoluteString) != nil)

        let authorized = web.requests.filter { $0.header("Authorization") == credentials.authorizationHeader }.map(\.url)
        #expect(Set(authorized) == [feedURL, coverURL])
        // Another host is never sent them.
        #expect(web.requests.filter { $0.url.host == "cdn.example.org" }.allSatisfy { $0.header("Authorization") == nil })
    }

    @Test func aPasswordWrittenIntoTheFeedURLIsKeptApartNeverInTheLibrary() throws {
        let web = MemoryHTTPClient()
        let credentials = Credentials.basic(user: "reader", password: "s3cret word")
        web.serve(feedURL, headers: ["Content-Type": "application/feed+json"], body: feed(), requiring: credentials)
        web.serve(coverURL, body: Data("cover".utf8), requiring: credentials)
        web.serve(otherCoverURL, body: Data("other".utf8))
        let kept = Mutex<[String: Credentials]>([:])
        let access = HTTPAccess(client: web, credentials: { url in kept.withLock { $0[HTTPAuthenticationRequired.host(of: url)] } },
                                keep: { given, host in kept.withLock { $0[host] = given } })
        let temp = try TemporaryLibrary(access: access)

        let typed = try #require(URL(string: "http://reader:s3cret%20word@news.example.com/feed.json"))
        let (publication, result) = try temp.library.subscriptions.subscribe(feedURL: typed)
        #expect(result.added == ["lw-1"])
        #expect(publication.feedURL == feedURL.absoluteString)
        #expect(kept.withLock { $0["news.example.com"] } == credentials)
        let files = try FileManager.default.contentsOfDirectory(at: temp.library.paths.data, includingPropertiesForKeys: nil)
        #expect(!files.isEmpty)
        for file in files {
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: Data("s3cret".utf8)) == nil, "\(file.lastPathComponent)")
        }
    }

    @Test func theLibraryTakesCredentialsFromConfigToml() throws {
        let probe = try TemporaryLibrary()
        let paths = probe.library.paths
        try """
            [credentials."news.example.com"]
            token = "t0k3n"
            """.write(to: paths.configFile, atomically: true, encoding: .utf8)
        let access = HTTPAccess.system(paths: paths)
        #expect(try access.credentials(feedURL) == .bearer("t0k3n"))
        #expect(try access.credentials(otherCoverURL) == nil)
    }

    @Test func whatTheUserSignedInWithIsAskedAfterConfigToml() throws {
        let probe = try TemporaryLibrary()
        let paths = probe.library.paths
        try """
            [credentials."news.example.com"]
            token = "from-config"
            """.write(to: paths.configFile, atomically: true, encoding: .utf8)
        let store = CredentialStore(paths: paths, environment: ["NEWSSTAND_KEYRING": "off"])
        try store.save(.basic(user: "signed", password: "in"), for: "news.example.com")
        try store.save(.basic(user: "cdn", password: "pw"), for: "cdn.example.org")
        let access = HTTPAccess.system(paths: paths, environment: ["NEWSSTAND_KEYRING": "off"])
        #expect(try access.credentials(feedURL) == .bearer("from-config"))
        #expect(try access.credentials(otherCoverURL) == .basic(user: "cdn", password: "pw"))

        // A store others may read stops the request with its one line, not a silent 401.
        chmod(store.file.path, 0o640)
        let web = MemoryHTTPClient()
        web.serve(otherCoverURL, body: Data("cover".utf8), requiring: .basic(user: "cdn", password: "pw"))
        var locked = access
        locked.client = web
        let part = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: part) }
        let transfer = locked.transfer(otherCoverURL, into: part, timeout: 5, maximumLength: nil, lowSpeedLimit: .standard)
        let error = #expect(throws: CredentialStoreError.self) { try transfer.run(validator: nil) { _ in } }
        #expect(error?.description.contains("may be read by others") == true)
    }

    @Test func aLockedFeedWithoutCredentialsSaysSoAndNamesTheHost() throws {
        let web = MemoryHTTPClient()
        web.serve(feedURL, body: feed(), requiring: .basic(user: "reader", password: "secret"))
        let temp = try TemporaryLibrary(access: HTTPAccess(client: web) { _ in nil })
        let error = #expect(throws: HTTPAuthenticationRequired.self) { try temp.library.subscriptions.subscribe(feedURL: feedURL) }
        #expect(error?.host == "news.example.com")
        #expect(error?.realm == "memory")
        #expect(error?.credentialsSent == false)
        #expect(try temp.library.store.publications().isEmpty)
    }

    @Test func theBindingOfAFeedIsStoredAsItsType() throws {
        let web = MemoryHTTPClient()
        web.serve(feedURL, body: feed())
        let temp = try TemporaryLibrary(access: HTTPAccess(client: web) { _ in nil })
        let (publication, _) = try temp.library.subscriptions.subscribe(feedURL: feedURL)
        let stored = try #require(try temp.library.store.publication(id: publication.id ?? 0))
        #expect(stored.bindingType == .newspaper)
        #expect(stored.bindingEdge == .bottom)   // a newspaper is folded at the bottom
    }
}
