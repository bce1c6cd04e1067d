import Foundation
import Testing
@testable import NewsstandKit

@Suite("WWW-Authenticate challenges and HTTP Digest answers")
struct HTTPAuthorizationTests {
    @Test func severalChallengesInOneFieldWithCommasInQuotedStrings() {
        let field = #"Digest realm="a, \"quoted\" realm", qop="auth,auth-int", nonce="abc=", algorithm=SHA-256, Basic realm="second", Bearer"#
        let challenges = HTTPChallenge.parse(field)
        #expect(challenges.map(\.scheme) == ["Digest", "Basic", "Bearer"])
        #expect(challenges[0].realm == #"a, "quoted" realm"#)
        #expect(challenges[0].parameters["qop"] == "auth,auth-int")
        #expect(challenges[0].parameters["nonce"] == "abc=")
        #expect(challenges[0].parameters["algorithm"] == "SHA-256")
        #expect(challenges[1].realm == "second")
        #expect(challenges[2].parameters.isEmpty)
    }

    @Test func token68AndOddSpacingAndJunkAreTolerated() {
        let challenges = HTTPChallenge.parse(#" ,Negotiate YWJj/ZA==, BASIC   realm = "x" ,, Digest realm="unterminated"#)
        #expect(challenges.map(\.scheme) == ["Negotiate", "BASIC", "Digest"])
        #expect(challenges[0].token68 == "YWJj/ZA==")
        #expect(challenges[1].is("basic"))
        #expect(challenges[1].realm == "x")
        #expect(challenges[2].realm == "unterminated")
        #expect(HTTPChallenge.parse("").isEmpty)
        #expect(HTTPChallenge.parse("\"\",=,").isEmpty)
    }

    @Test func hostileFieldsNeverCrashAndKeepEveryValueWithinTheField() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["Digest", "Basic", " ", ",", "=", "==", "\"", "\\", "realm", "nonce", "a", "\t", "é", "\u{1b}[2J", "qop=\"auth", "/"]
        for _ in 0..<3000 {
            let field = (0..<Int.random(in: 0...24, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for challenge in HTTPChallenge.parse(field) {
                #expect(!challenge.scheme.isEmpty && field.contains(challenge.scheme), "\(field.debugDescription)")
                _ = DigestChallenge(challenge)
            }
        }
    }

    /// RFC 2617 §3.5: Mufasa / "Circle Of Life", MD5, qop=auth.
    @Test func rfc2617Example() throws {
        let challenge = try #require(DigestChallenge(HTTPChallenge.parse(#"Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41""#)[0]))
        let header = challenge.response(user: "Mufasa", password: "Circle Of Life", method: "GET", uri: "/dir/index.html", nonceCount: 1, cnonce: "0a4f113b")
        #expect(header.contains(#"response="6629fae49393a05397450978507c4ef1""#))
        #expect(header.contains("nc=00000001"))
        #expect(header.contains(#"opaque="5ccc069c403ebaf9f0171e9517f40e41""#))
    }

    /// RFC 7616 §3.9.1: the same request answered with MD5 and with SHA-256.
    @Test(arguments: [("MD5", "8ca523f5e9506fed4657c9700eebdbec"), ("SHA-256", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")])
    func rfc7616Example(algorithm: String, expected: String) throws {
        let field = #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm="# + algorithm
            + #", nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#
        let challenge = try #require(DigestChallenge(HTTPChallenge.parse(field)[0]))
        let header = challenge.response(user: "Mufasa", password: "Circle of Life", method: "GET", uri: "/dir/index.html", nonceCount: 1,
                                        cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ")
        #expect(header.contains(#"response="\#(expected)""#))
        #expect(header.contains("algorithm=\(algorithm)"))
    }

    @Test func theStrongestAnswerableChallengeIsChosen() throws {
        let offered = HTTPChallenge.parse(#"Basic realm="r", Digest realm="r", nonce="n", algorithm=MD5, Digest realm="r", nonce="m", algorithm=SHA-256, qop=auth, Digest realm="r", nonce="o", algorithm=SHA-512-256"#)
        var answer = try #require(HTTPAuthorization(credentials: .basic(user: "u", password: "p"), challenges: offered))
        #expect(answer.digest?.algorithm == .sha256)
        let first = answer.header(uri: "/a", cnonce: "c")
        let second = answer.header(uri: "/a", cnonce: "c")
        #expect(first.contains("nc=00000001") && second.contains("nc=00000002"))
        // Basic alone gets Basic; a token cannot answer Digest; a user cannot answer Bearer.
        var basic = try #require(HTTPAuthorization(credentials: .basic(user: "u", password: "p"), challenges: HTTPChallenge.parse("Basic realm=\"r\"")))
        #expect(basic.header(uri: "/") == "Basic " + Data("u:p".utf8).base64EncodedString())
        #expect(HTTPAuthorization(credentials: .bearer("t"), challenges: HTTPChallenge.parse("Digest realm=\"r\", nonce=\"n\"")) == nil)
        #expect(HTTPAuthorization(credentials: .basic(user: "u", password: "p"), challenges: HTTPChallenge.parse("Bearer realm=\"r\"")) == nil)
    }

    @Test func printingCredentialsNeverShowsTheSecret() {
        let credentials = Credentials.basic(user: "ann", password: "pa55word")
        for text in ["\(credentials)", String(reflecting: credentials), "\([credentials])", "\(Optional(credentials) as Any)",
                     "\(Credentials.bearer("t0ken-secret"))"] {
            #expect(!text.contains("pa55word") && !text.contains("t0ken-secret"), "\(text)")
        }
    }
}
