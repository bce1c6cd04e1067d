import Foundation
import Imaging
import IssueArchive

/// What the parent asks the PDF worker: one action on one document (opened by the worker
/// and kept open while the next requests name the same file and password).
package struct WorkerRequest: Codable {
    package enum Action: Codable, Equatable {
        case info
        case render(page: Int, width: Int?, height: Int?, region: PageRegion?)
        case text(page: Int)
        /// Page `page`'s text and its neighbours' running bands (`PDFPageText.runningBands`)
        /// at `PDFReflow.neighbourOffsets`: all a page's reflow reads, in one request.
        case readingText(page: Int)
        /// The plain text of `count` pages from `first` (fewer at the end, none past it).
        case pageTexts(first: Int, count: Int)
        /// The identifiers the document's XMP metadata gives (`BookIdentifier.of(xmp:)`).
        case identifiers
        /// Test faults, honoured only by a worker started with `--test-faults`.
        case misbehave(Misbehaviour)
    }

    package var document: String
    package var password: String?
    package var action: Action

    package init(document: String, password: String?, action: Action) {
        self.document = document
        self.password = password
        self.action = action
    }
}

/// How a worker started for tests can be made to fail, to show the failure is contained.
package enum Misbehaviour: String, Codable {
    /// Busy forever (a looping PDF).
    case spin
    /// Waits forever without using the CPU (a library stuck on a lock).
    case block
    /// Ends by a signal (a crash in the library).
    case crash
    /// Asks for more memory than the worker may have (an enormous PDF).
    case exhaustMemory
}

/// The worker's answer; a rendered page's pixels follow as the frame's payload.
package enum WorkerReply: Codable {
    case failure(PDFError)
    case info(PDFInfo)
    case image(width: Int, height: Int)
    case text(PDFPageText)
    /// The neighbours in `PDFReflow.neighbourOffsets`' order, nil where there is no such page.
    case readingText(page: PDFPageText, neighbours: [PDFPageText?])
    case pageTexts([String])
    case identifiers([BookIdentifier])
}

/// Frames on the worker's socket: a little-endian UInt32 length and that many bytes of JSON,
/// then a UInt32 length and that many payload bytes (a page's RGBA pixels, else none).
package enum WorkerFraming {
    /// The largest picture a page is drawn into (a hostile page size cannot ask for more).
    package static let maximumPixels = 40_000_000
    static let maximumHeader = 64 << 20
    static let maximumPayload = maximumPixels * 4

    package static func frame<Message: Encodable>(_ message: Message, payload: [UInt8] = []) throws -> [UInt8] {
        let header = [UInt8](try JSONEncoder().encode(message))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + header.count + payload.count)
        append(UInt32(header.count), to: &bytes)
        bytes += header
        append(UInt32(payload.count), to: &bytes)
        bytes += payload
        return bytes
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// A frame that cannot be one (the JSON inside that is not a message throws `DecodingError`).
    package enum Malformed: Error { case tooLong(Int) }

    /// Reads one frame with `read` (which fills the buffer completely or throws).
    package static func read<Message: Decodable>(_ type: Message.Type, with read: (Int) throws -> [UInt8]) throws -> (Message, [UInt8]) {
        let headerLength = length(try read(4))
        guard headerLength <= maximumHeader else { throw Malformed.tooLong(headerLength) }
        let message = try JSONDecoder().decode(type, from: Data(try read(headerLength)))
        let payloadLength = length(try read(4))
        guard payloadLength <= maximumPayload else { throw Malformed.tooLong(payloadLength) }
        return (message, payloadLength == 0 ? [] : try read(payloadLength))
    }

    private static func length(_ bytes: [UInt8]) -> Int {
        Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
    }
}
