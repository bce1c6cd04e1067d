import Foundation

/// One event of a `text/event-stream` (HTML Living Standard, "Server-sent events").
public struct ServerSentEvent: Sendable, Equatable {
    /// `event:`; "message" when the server named none.
    public var type: String
    /// The `data:` lines joined with line feeds.
    public var data: String
    /// The last event ID in force when the event was dispatched (sticky across events).
    public var lastEventID: String
    /// The ID this event's own block gave (`id:`), nil when it gave none: what tells a
    /// resent event from a new one.
    public var id: String?

    public init(type: String = "message", data: String, lastEventID: String = "", id: String? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.id = id
    }
}

/// Turns the bytes of an event stream, in pieces of any size, into events, following the
/// spec's parsing rules: lines end in CRLF, LF or CR (also split across pieces); a line
/// starting with ":" is a comment; `field: value` loses one space after the colon; `data`
/// lines accumulate; `id` (without NUL) sets the last event ID; `retry` (digits only)
/// sets the reconnection time; a blank line dispatches; an event with no data is dropped,
/// and so is an unfinished one when the stream ends.
public struct ServerSentEventParser: Sendable {
    /// A line longer than this is an error: a stream that never ends its line would
    /// otherwise grow without bound.
    public static let maximumLineLength = 1 << 20

    public private(set) var lastEventID = ""
    /// Milliseconds, when the server sent `retry:`.
    public private(set) var reconnectionTime: Int?

    private var line: [UInt8] = []
    private var lastWasCR = false
    private var sawFirstBytes = false
    private var data = ""
    private var hasData = false
    private var eventType = ""
    private var eventID: String?

    public init(lastEventID: String = "") { self.lastEventID = lastEventID }

    public struct LineTooLong: Error, CustomStringConvertible {
        public var description: String { "the event stream sent a line longer than \(ServerSentEventParser.maximumLineLength) bytes" }
    }

    /// Feeds bytes; returns the events they complete, in order.
    public mutating func consume<Bytes: Sequence>(_ bytes: Bytes) throws -> [ServerSentEvent] where Bytes.Element == UInt8 {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if byte == 0x0A && lastWasCR {  // the LF of a CRLF whose CR ended the line
                lastWasCR = false
                continue
            }
            lastWasCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                if let event = endLine() { events.append(event) }
                continue
            }
            line.append(byte)
            if line.count > Self.maximumLineLength { throw LineTooLong() }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        var text = String(decoding: line, as: UTF8.self)
        line.removeAll(keepingCapacity: true)
        if !sawFirstBytes {
            sawFirstBytes = true
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        }
        if text.isEmpty { return dispatch() }
        if text.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "event": eventType = String(value)
        case "data":
            data += value
            data += "\n"
            hasData = true
        case "id" where !value.contains("\u{0}"):
            lastEventID = String(value)
            eventID = lastEventID
        case "retry" where !value.isEmpty && value.allSatisfy({ $0.isASCII && $0.isNumber }):
            reconnectionTime = Int(value.prefix(12))
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = ""
            hasData = false
            eventType = ""
            eventID = nil
        }
        guard hasData else { return nil }
        var body = data
        if body.hasSuffix("\n") { body.removeLast() }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: body, lastEventID: lastEventID,
                               id: eventID)
    }
}
