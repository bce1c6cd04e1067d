import Foundation

/// One challenge of a `WWW-Authenticate` field (RFC 9110 §11.6.1): a scheme and either
/// parameters or a token68. One field may hold several challenges, and several fields are
/// joined with commas on the way in, so `parse` splits them again; quoted strings may hold
/// commas and escaped quotes.
struct HTTPChallenge: Sendable, Equatable {
    /// As the server spelled it ("Digest"); compare with `is(_:)`.
    var scheme: String
    /// Parameter names lower-cased; values unquoted.
    var parameters: [String: String] = [:]
    var token68: String?

    var realm: String? { parameters["realm"] }

    func `is`(_ name: String) -> Bool { scheme.lowercased() == name.lowercased() }

    /// Every challenge in `field` (one or several `WWW-Authenticate` values joined by commas).
    /// Malformed parts are skipped, never fatal.
    static func parse(_ field: String) -> [HTTPChallenge] {
        var scanner = Scanner(Array(field.utf8))
        var challenges: [HTTPChallenge] = []
        while true {
            scanner.skip { $0 == .space || $0 == .tab || $0 == .comma }
            guard !scanner.atEnd else { break }
            guard let scheme = scanner.token() else {
                scanner.advance()  // a stray character
                continue
            }
            var challenge = HTTPChallenge(scheme: scheme)
            scanner.skipSpace()
            challenge.readParameters(&scanner)
            challenges.append(challenge)
        }
        return challenges
    }

    /// Reads `name=value` pairs (or one token68) up to the next challenge or the end.
    private mutating func readParameters(_ scanner: inout Scanner) {
        var first = true
        while true {
            let start = scanner.position
            scanner.skipSpace()
            guard let name = scanner.token() else { return }
            scanner.skipSpace()
            if scanner.peek == .equals, let next = scanner.peekPastEquals, next != .equals, next != .comma {
                scanner.advance()
                scanner.skipSpace()
                parameters[name.lowercased()] = scanner.peek == .quote ? scanner.quoted() : (scanner.token() ?? "")
                scanner.skipSpace()
                guard scanner.peek == .comma else { return }
                // After a comma: another parameter (`name =`), or the next challenge.
                let afterComma = scanner.position + 1
                var probe = scanner
                probe.advance()
                probe.skip { $0 == .space || $0 == .tab || $0 == .comma }
                guard probe.token() != nil else { scanner.position = afterComma; return }
                probe.skipSpace()
                guard probe.peek == .equals else { scanner.position = afterComma; return }
                scanner.position = afterComma
                first = false
            } else if first {
                // token68: the token itself plus trailing '='.
                scanner.position = start
                scanner.skipSpace()
                token68 = scanner.token68()
                return
            } else {
                scanner.position = start
                return
            }
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[position] }
        /// The first character after `=` and any spaces (nil at the end).
        var peekPastEquals: UInt8? {
            var index = position + 1
            while index < bytes.count, bytes[index] == .space || bytes[index] == .tab { index += 1 }
            return index < bytes.count ? bytes[index] : nil
        }
        mutating func advance() { position += 1 }
        mutating func skip(while condition: (UInt8) -> Bool) {
            while let byte = peek, condition(byte) { position += 1 }
        }
        mutating func skipSpace() { skip { $0 == .space || $0 == .tab } }

        mutating func token() -> String? {
            let start = position
            skip { Self.isTokenCharacter($0) }
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        mutating func token68() -> String? {
            let start = position
            skip { Self.isTokenCharacter($0) || $0 == UInt8(ascii: "/") }
            skip { $0 == .equals }
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        /// A quoted string from its opening quote; an unterminated one runs to the end.
        mutating func quoted() -> String {
            advance()
            var value: [UInt8] = []
            while let byte = peek {
                advance()
                if byte == .quote { break }
                if byte == UInt8(ascii: "\\"), let escaped = peek {
                    advance()
                    value.append(escaped)
                } else {
                    value.append(byte)
                }
            }
            return String(decoding: value, as: UTF8.self)
        }

        static func isTokenCharacter(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
            default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte) || byte >= 0x80
            }
        }
    }
}

private extension UInt8 {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let comma = UInt8(ascii: ",")
    static let equals = UInt8(ascii: "=")
    static let quote = UInt8(ascii: "\"")
}
