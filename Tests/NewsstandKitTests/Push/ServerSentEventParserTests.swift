import Foundation
import Testing
@testable import NewsstandKit

@Suite struct ServerSentEventParserTests {
    private func events(_ text: String, pieces: Int = 1) throws -> ([ServerSentEvent], ServerSentEventParser) {
        var parser = ServerSentEventParser()
        let bytes = Array(text.utf8)
        var out: [ServerSentEvent] = []
        let size = max(1, bytes.count / pieces)
        var start = 0
        while start < bytes.count {
            out += try parser.consume(bytes[start..<min(bytes.count, start + size)])
            start += size
        }
        return (out, parser)
    }

    @Test func fieldsAndMultiLineData() throws {
        let (got, parser) = try events("event: push\nid: 7\ndata: {\"aps\":\ndata:  {}}\nretry: 2500\n\n")
        #expect(got == [ServerSentEvent(type: "push", data: "{\"aps\":\n {}}", lastEventID: "7", id: "7")])
        #expect(parser.reconnectionTime == 2500)
    }

    @Test func lineEndingsOfEveryKindEvenSplitAcrossPieces() throws {
        let text = "data: one\r\n\r\ndata: two\r\rdata: three\n\n"
        for pieces in [1, 3, text.utf8.count] {
            let (got, _) = try events(text, pieces: pieces)
            #expect(got.map(\.data) == ["one", "two", "three"], "in \(pieces) pieces")
        }
    }

    @Test func commentsEmptyEventsAndUnfinishedEventsAreNotDispatched() throws {
        let (got, parser) = try events(": keep-alive\n\nevent: x\n\nid: 3\n\ndata: kept\n\ndata: cut off")
        // The id came in a block without data: "kept" inherits it but gave none itself.
        #expect(got == [ServerSentEvent(data: "kept", lastEventID: "3", id: nil)])
        #expect(parser.lastEventID == "3")
    }

    @Test func oddFieldsFollowTheSpec() throws {
        // No space after the colon; a field with no colon; an id with NUL is ignored;
        // retry with non-digits is ignored; unknown fields are ignored; BOM at the start.
        let (got, parser) = try events("\u{FEFF}data:a\ndata\nid: 1\u{0}2\nretry: 12ms\nfoo: bar\n\n")
        #expect(got == [ServerSentEvent(data: "a\n", lastEventID: "")])
        #expect(parser.reconnectionTime == nil)
        // An empty id resets the last event ID.
        let (second, _) = try events("id: 5\ndata: x\n\nid\ndata: y\n\n")
        #expect(second.map(\.lastEventID) == ["5", ""])
        #expect(second.map(\.id) == ["5", ""])
        let (third, _) = try events("id: 8\ndata: x\n\ndata: y\n\n")
        #expect(third.map(\.lastEventID) == ["8", "8"])
        #expect(third.map(\.id) == ["8", nil])
    }

    @Test func invalidUTF8IsReplacedNotFatal() throws {
        var parser = ServerSentEventParser()
        let got = try parser.consume(Array("data: ".utf8) + [0xFF, 0xFE] + Array("ok\n\n".utf8))
        #expect(got.first?.data == "\u{FFFD}\u{FFFD}ok")
    }

    @Test func anEndlessLineIsAnError() {
        var parser = ServerSentEventParser()
        #expect(throws: ServerSentEventParser.LineTooLong.self) {
            _ = try parser.consume([UInt8](repeating: 0x61, count: ServerSentEventParser.maximumLineLength + 1))
        }
    }
}

@Suite struct PushPayloadTests {
    @Test func contentAvailableAlertAndIssue() throws {
        #expect(try PushPayload.parse(#"{"aps":{"content-available":1}}"#) == .newContent)
        #expect(try PushPayload.parse(#"{"aps":{"content-available":1},"issue":"tw-2026-12"}"#).issueName == "tw-2026-12")
        let alert = try PushPayload.parse(#"{"aps":{"alert":{"title":"Breaking","body":"Ferry \u001b]52;c;x\u0007 late"}}}"#)
        #expect(alert.alert == "Breaking: Ferry late")
        #expect(!alert.contentAvailable)
    }

    @Test func badPayloadsAreErrorsWithReasons() {
        for text in ["nope", "{}", #"{"aps":{}}"#, #"{"aps":{"content-available":"yes"}}"#, #"{"aps":{"alert":3}}"#] {
            #expect(throws: PushError.self, "\(text)") { try PushPayload.parse(text) }
        }
    }
}
