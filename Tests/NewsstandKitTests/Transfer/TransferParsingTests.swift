import Foundation
import Testing
@testable import NewsstandKit

@Suite("Transfer: header parsing and SHA-256")
struct TransferParsingTests {
    @Test("Content-Range values")
    func contentRange() {
        #expect(ContentRange("bytes 100-199/1000") == ContentRange(first: 100, last: 199, total: 1000))
        #expect(ContentRange("bytes 0-0/*")?.total == nil)
        #expect(ContentRange("bytes */1000")?.first == nil)
        #expect(ContentRange("bytes */1000")?.total == 1000)
        #expect(ContentRange("bytes 5-4/10") == nil)
        #expect(ContentRange("bytes 5-10/10") == nil)
        #expect(ContentRange("items 0-1/2") == nil)
        #expect(ContentRange("bytes */*") == nil)
        #expect(ContentRange(nil) == nil)
    }

    @Test("Retry-After: seconds and the three HTTP-date forms")
    func retryAfter() {
        let now = Date(timeIntervalSince1970: 784_111_717)  // Sun, 06 Nov 1994 08:48:37 GMT
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds("-3", now: now) == 0)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 60)
        #expect(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == 60)
        #expect(RetryAfter.seconds("Sun Nov  6 08:49:37 1994", now: now) == 60)
        #expect(RetryAfter.seconds("soon", now: now) == nil)
        #expect(RetryAfter.seconds(nil, now: now) == nil)
    }

    @Test("If-Range uses a strong ETag, else Last-Modified")
    func ifRange() {
        #expect(TransferValidator(etag: "\"a\"", lastModified: "x").ifRangeValue == "\"a\"")
        #expect(TransferValidator(etag: "W/\"a\"", lastModified: "x").ifRangeValue == "x")
        #expect(TransferValidator(etag: "W/\"a\"").ifRangeValue == nil)
        #expect(TransferValidator().ifRangeValue == nil)
        #expect(TransferValidator(etag: "\"a\"").differs(from: TransferValidator(etag: "\"b\"")))
        #expect(!TransferValidator(etag: "\"a\"").differs(from: TransferValidator(lastModified: "x")))
    }

    @Test("SHA-256 of known inputs")
    func sha256Vectors() throws {
        #expect(try SHA256Digest.hex(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try SHA256Digest.hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let million = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(try SHA256Digest.hex(of: million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
