import Foundation

/// What the parent asks the PDF worker: one action on one document (opened by the worker
/// and kept open while the next requests name the same file and password).
struct WorkerRequest: Codable {
    enum Action: Codable, Equatable {
        case info
        case render(page: Int, width: Int?, height: Int?)
        case text(page: Int)
        /// Test faults, honoured only by a worker started with `--test-faults`.
        case misbehave(Misbehaviour)
    }

    var document: String
    var password: String?
    var action: Action
}

/// How a worker started for tests can be made to fail, to show the failure is contained.
enum Misbehaviour: String, Codable {
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
enum WorkerReply: Codable {
    case failure(PDFError)
    case info(PDFInfo)
    case image(width: Int, height: Int)
    case text(PDFPageText)
}

/// Frames on the worker's socket: a little-endian UInt32 length and that many bytes of JSON,
/// then a UInt32 length and that many payload bytes (a page's RGBA pixels, else none).
enum WorkerFraming {
    static let maximumHeader = 64 << 20
    static let maximumPayload = PDFDocument.maximumPixels * 4

    static func frame<Message: Encodable>(_ message: Message, payload: [UInt8] = []) throws -> [UInt8] {
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

    /// Reads one frame with `read` (which fills the buffer completely or throws).
    static func read<Message: Decodable>(_ type: Message.Type, with read: (Int) throws -> [UInt8]) throws -> (Message, [UInt8]) {
        let headerLength = length(try read(4))
        guard headerLength <= maximumHeader else { throw PDFError(.workerUnavailable, "the PDF worker sent a malformed answer") }
        let message = try JSONDecoder().decode(type, from: Data(try read(headerLength)))
        let payloadLength = length(try read(4))
        guard payloadLength <= maximumPayload else { throw PDFError(.workerUnavailable, "the PDF worker sent a malformed answer") }
        return (message, payloadLength == 0 ? [] : try read(payloadLength))
    }

    private static func length(_ bytes: [UInt8]) -> Int {
        Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
    }
}
