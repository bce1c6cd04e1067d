import Foundation
import Testing
@testable import NewsstandKit

@Suite struct ConfigTests {
    @Test func credentialsAndConcurrencyAreRead() throws {
        let config = try Config.parse("""
            max_concurrent_downloads = 4
            [credentials."News.Example.com"]
            user = "reader"
            password = "s3cret"
            [credentials."127.0.0.1:8080"]
            token = "abc"
            """, file: "config.toml")
        #expect(config.maxConcurrentDownloads == 4)
        guard case .basic(let user, let password)? = config.credentials(for: URL(string: "https://news.example.com/a.epub")!) else {
            Issue.record("no basic credentials for news.example.com"); return
        }
        #expect(user == "reader" && password == "s3cret")
        guard case .bearer(let token)? = config.credentials(for: URL(string: "http://127.0.0.1:8080/x")!) else {
            Issue.record("no bearer token for 127.0.0.1:8080"); return
        }
        #expect(token == "abc")
        #expect(config.credentials(for: URL(string: "http://127.0.0.1:9999/x")!) == nil)
        #expect(config.credentials(for: URL(string: "https://other.example.com/")!) == nil)
    }

    @Test(arguments: [
        ("max_concurent_downloads = 3", "'max_concurent_downloads' is not a setting"),
        ("max_concurrent_downloads = 0", "from 1 to 16"),
        ("[credentials.\"h\"]\nuser = \"u\"", "needs user and password"),
        ("[credentials.\"h\"]\npasword = \"p\"", "is not a credential field"),
        ("max_concurrent_downloads = ", "config.toml: line 1"),
    ])
    func mistakesAreRefusedWithTheFileAndWhy(text: String, expected: String) {
        #expect {
            try Config.parse(text, file: "config.toml")
        } throws: { error in
            "\(error)".hasPrefix("config.toml: ") && "\(error)".contains(expected)
        }
    }

    @Test func noFileMeansDefaults() throws {
        let temp = try TemporaryLibrary()
        let config = try Config.load(paths: temp.library.paths)
        #expect(config.maxConcurrentDownloads == 2)
        #expect(config.credentials.isEmpty)
    }
}
