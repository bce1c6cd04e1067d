/// What a terminal answered to `GraphicsQuery.batch`, read from the raw bytes it sent back.
///
/// A pure function of the bytes, so every reply measured in real terminals is a unit test
/// (see FIELD-NOTES, "Real terminals under Xvfb"). Bytes that are not a reply (a key the
/// user typed meanwhile) are skipped; a reply cut off at the end is left out.
public struct TerminalReplies: Sendable, Equatable {
    /// kitty's graphics protocol answered the query image with `OK`.
    public var kittyGraphics = false
    /// XTVERSION's name and version ("kitty(0.26.5)", "XTerm(379)", "tmux 3.3a").
    public var version: String?
    /// One cell in pixels (`CSI 16 t` → `CSI 6 ; height ; width t`).
    public var cellPixels: PixelSize?
    /// The text area in pixels (`CSI 14 t` → `CSI 4 ; height ; width t`).
    public var windowPixels: PixelSize?
    /// DA1's attributes (`CSI ? 62 ; 4 ; 22 c` → [62, 4, 22]); nil when it did not answer.
    public var deviceAttributes: [Int]?
    /// The largest sixel picture the terminal draws (XTSMGRAPHICS `CSI ? 2 ; 4 ; 0 S` →
    /// `CSI ? 2 ; 0 ; width ; height S`); xterm draws nothing of a larger one.
    public var sixelLimit: PixelSize?

    public init(kittyGraphics: Bool = false, version: String? = nil, cellPixels: PixelSize? = nil,
                windowPixels: PixelSize? = nil, deviceAttributes: [Int]? = nil) {
        self.kittyGraphics = kittyGraphics
        self.version = version
        self.cellPixels = cellPixels
        self.windowPixels = windowPixels
        self.deviceAttributes = deviceAttributes
    }

    /// DA1 is asked last and every terminal answers it, in order: once it is here, nothing
    /// more is coming.
    public var isComplete: Bool { deviceAttributes != nil }

    /// Attribute 4 of DA1: sixel graphics.
    public var sixel: Bool { deviceAttributes?.contains(4) ?? false }

    public static func parse<Bytes: Collection>(_ bytes: Bytes) -> TerminalReplies where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        var replies = TerminalReplies()
        var index = 0
        while index < bytes.count {
            guard bytes[index] == escape, index + 1 < bytes.count else { index += 1; continue }
            switch bytes[index + 1] {
            case UInt8(ascii: "_"), UInt8(ascii: "P"):
                guard let (end, next) = stringTerminator(in: bytes, from: index + 2) else { return replies }
                let body = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                if bytes[index + 1] == UInt8(ascii: "_") {
                    if body.hasPrefix("G"), body.contains("i=31"), body.hasSuffix(";OK") { replies.kittyGraphics = true }
                } else if body.hasPrefix(">|") {
                    replies.version = String(body.dropFirst(2))
                }
                index = next
            case UInt8(ascii: "["):
                var end = index + 2
                while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                guard end < bytes.count else { return replies }
                replies.take(csi: String(decoding: bytes[(index + 2)..<end], as: UTF8.self), final: bytes[end])
                index = end + 1
            default:
                index += 1
            }
        }
        return replies
    }

    private mutating func take(csi parameters: String, final: UInt8) {
        if final == UInt8(ascii: "c"), parameters.hasPrefix("?") {
            deviceAttributes = parameters.dropFirst().split(separator: ";").compactMap { Int($0) }
        } else if final == UInt8(ascii: "S"), parameters.hasPrefix("?") {
            // Item 2 (graphics geometry), status 0 (success): the width and height follow.
            let numbers = parameters.dropFirst().split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
            guard numbers.count == 4, numbers[0] == 2, numbers[1] == 0, let width = numbers[2], let height = numbers[3],
                  width > 0, height > 0 else { return }
            sixelLimit = PixelSize(width: width, height: height)
        } else if final == UInt8(ascii: "t") {
            let numbers = parameters.split(separator: ";").compactMap { Int($0) }
            guard numbers.count == 3, numbers[1] > 0, numbers[2] > 0 else { return }
            let size = PixelSize(width: numbers[2], height: numbers[1])
            if numbers[0] == 6 { cellPixels = size } else if numbers[0] == 4 { windowPixels = size }
        }
    }

    /// Where the `ESC \` (or BEL) that ends a string begun before `start` is, and the index after it.
    private static func stringTerminator(in bytes: [UInt8], from start: Int) -> (end: Int, next: Int)? {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x07 { return (index, index + 1) }
            if bytes[index] == escape, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") { return (index, index + 2) }
            index += 1
        }
        return nil
    }

    private static let escape: UInt8 = 0x1B
}
