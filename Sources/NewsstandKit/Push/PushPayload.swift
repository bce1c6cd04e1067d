import Foundation
import Feeds

/// What a push says, in the shape of an Apple Newsstand notification:
/// `{"aps":{"content-available":1}, "issue":"name"}` (new content; the issue is optional)
/// and/or `{"aps":{"alert":"text"}}` (breaking news; `alert` may also be
/// `{"title":…, "body":…}`).
public struct PushPayload: Sendable, Equatable {
    public var contentAvailable: Bool
    /// Cleaned of control characters, one line.
    public var alert: String?
    /// The issue the push announces, when it names one.
    public var issueName: String?

    public init(contentAvailable: Bool = false, alert: String? = nil, issueName: String? = nil) {
        self.contentAvailable = contentAvailable
        self.alert = alert
        self.issueName = issueName
    }

    /// `{"aps":{"content-available":1}}`: what `newsstand push` sends by default.
    public static let newContent = PushPayload(contentAvailable: true)

    public static func parse(_ text: String) throws -> PushPayload {
        guard let root = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw PushError("the push payload is not a JSON object: \(text.prefix(80).debugDescription)")
        }
        guard let aps = root["aps"] as? [String: Any] else {
            throw PushError("the push payload has no \"aps\" object")
        }
        var payload = PushPayload()
        switch aps["content-available"] {
        case let number as NSNumber: payload.contentAvailable = number.intValue == 1
        case nil: break
        default: throw PushError("\"content-available\" must be 1")
        }
        switch aps["alert"] {
        case let text as String:
            payload.alert = FeedText.line(text)
        case let object as [String: Any]:
            let parts = [object["title"] as? String, object["body"] as? String].compactMap { FeedText.line($0) }
            payload.alert = parts.isEmpty ? nil : parts.joined(separator: ": ")
        case nil: break
        default: throw PushError("\"alert\" must be a string or an object with title and body")
        }
        payload.issueName = (root["issue"] as? String ?? aps["issue"] as? String).flatMap { FeedText.line($0) }
        guard payload.contentAvailable || payload.alert != nil else {
            throw PushError("the push payload has neither \"content-available\": 1 nor an \"alert\"")
        }
        return payload
    }
}

public struct PushError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
