/// Replies to `GraphicsQuery` that arrive after detection stopped waiting (a terminal slow
/// to start: kitty under a software renderer took over 150 ms), picked out of the input so
/// they are not read as keys (`ESC _ G…` would be Escape, then `G`, …). The batch ends
/// with DA1, which every terminal answers last: once its reply is here, nothing more of
/// the batch is coming.
///
/// A pure filter over the bytes read, so every case is a unit test; `CursesBackend` runs
/// it on its input for a bounded time after it starts.
public struct LateReplies: Sendable, Equatable {
    private var pending: [UInt8] = []
    /// DA1's reply has been seen: the rest of the input is keys.
    public private(set) var isFinished = false

    public init() {}

    /// The longest reply kept while waiting for its end (kitty's and XTVERSION's are short):
    /// anything longer is not a reply.
    static let longestReply = 512

    /// Takes bytes read from the terminal; returns those that are not replies (what the
    /// user typed), in order. A sequence cut off at the end waits for the next bytes.
    public mutating func take<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        pending += bytes
        var keys: [UInt8] = []
        var index = 0
        while index < pending.count {
            if isFinished || pending[index] != Self.escape {
                keys.append(pending[index])
                index += 1
                continue
            }
            guard let (end, isReply) = sequence(at: index) else { break }
            if !isReply { keys += pending[index..<end] }
            index = end
        }
        pending.removeFirst(index)
        return keys
    }

    /// Bytes held as the start of a reply whose end has not come (a lone Escape, so far).
    public var isHolding: Bool { !pending.isEmpty }

    /// What is left of a sequence never finished, as keys (time is up, or nothing followed
    /// it soon enough to be a reply: a terminal writes each reply at once).
    public mutating func flush() -> [UInt8] {
        defer { pending = [] }
        return pending
    }

    /// The end of the sequence starting with the ESC at `start`, and whether it is a reply
    /// to the batch; nil when it is not complete yet.
    private mutating func sequence(at start: Int) -> (end: Int, isReply: Bool)? {
        guard start + 1 < pending.count else { return nil }
        let kind = pending[start + 1]
        switch kind {
        case UInt8(ascii: "_"), UInt8(ascii: "P"):
            // APC (kitty's answer) or DCS (XTVERSION's): up to ST or BEL.
            var index = start + 2
            while index < pending.count {
                if pending[index] == 0x07 { return (index + 1, true) }
                if pending[index] == Self.escape {
                    guard index + 1 < pending.count else { return nil }
                    if pending[index + 1] == UInt8(ascii: "\\") { return (index + 2, true) }
                }
                if index - start > Self.longestReply { return (start + 1, false) }
                index += 1
            }
            return nil
        case UInt8(ascii: "["):
            var index = start + 2
            while index < pending.count, !(0x40...0x7E).contains(pending[index]) {
                if index - start > 64 { return (start + 1, false) }
                index += 1
            }
            guard index < pending.count else { return nil }
            let parameters = String(decoding: pending[(start + 2)..<index], as: UTF8.self)
            let final = pending[index]
            if final == UInt8(ascii: "c"), parameters.hasPrefix("?") {
                isFinished = true
                return (index + 1, true)
            }
            let isSize = final == UInt8(ascii: "t") && (parameters.hasPrefix("4;") || parameters.hasPrefix("6;"))
            return (index + 1, isSize)
        default:
            return (start + 1, false)
        }
    }

    private static let escape: UInt8 = 0x1B
}
