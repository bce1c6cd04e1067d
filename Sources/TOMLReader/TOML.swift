import Foundation

/// A value read from a TOML document.
public indirect enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    case table([String: TOMLValue])

    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var integer: Int? { if case .integer(let i) = self { return i } else { return nil } }
    /// A float, or an integer read as one.
    public var double: Double? {
        switch self {
        case .float(let d): return d
        case .integer(let i): return Double(i)
        default: return nil
        }
    }
    public var boolean: Bool? { if case .boolean(let b) = self { return b } else { return nil } }
    public var array: [TOMLValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var table: [String: TOMLValue]? { if case .table(let t) = self { return t } else { return nil } }

    /// What kind of value this is, for error messages ("expected a string, found an array").
    public var kind: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .boolean: return "a boolean"
        case .array: return "an array"
        case .table: return "a table"
        }
    }
}

/// A syntax error, with the line it was found on.
public struct TOMLError: Error, CustomStringConvertible, Equatable {
    public let line: Int
    public let message: String
    public init(line: Int, message: String) { self.line = line; self.message = message }
    public var description: String { "line \(line): \(message)" }
}

/// A parsed document: its values, and the line every key was written on (by dotted path,
/// `shelf.fg`), so checks made after parsing can still point at a line.
public struct TOMLDocument: Equatable, Sendable {
    public let root: [String: TOMLValue]
    public let keyLines: [String: Int]

    public func line(of path: [String]) -> Int? { keyLines[path.joined(separator: ".")] }
}

/// The part of TOML 1.0 that themes and config.toml need: tables `[a.b]`, arrays of tables
/// `[[a]]`, bare, quoted and dotted keys, strings (basic, literal, multi-line), integers
/// (decimal, hex, octal, binary, `_` separators), floats, booleans, arrays and inline
/// tables, comments. Dates and times are refused with a message.
public enum TOML {
    public static func parse(_ text: String) throws -> [String: TOMLValue] {
        try parseDocument(text).root
    }

    public static func parseDocument(_ text: String) throws -> TOMLDocument {
        var parser = TOMLParser(text)
        return try parser.document()
    }
}

private struct TOMLParser {
    private let s: [Unicode.Scalar]
    private var i = 0
    private var line = 1
    private var root: [String: TOMLValue] = [:]
    private var keyLines: [String: Int] = [:]
    private var current: [String] = []
    private var definedTables: Set<[String]> = []

    init(_ text: String) {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }   // a byte-order mark some editors write
        s = scalars
    }

    private var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }
    private func peek(_ offset: Int) -> Unicode.Scalar? { i + offset < s.count ? s[i + offset] : nil }
    private func fail(_ message: String) -> TOMLError { TOMLError(line: line, message: message) }

    private mutating func advance() {
        if s[i] == "\n" { line += 1 }
        i += 1
    }

    private mutating func skipSpaces() {
        while let c = peek, c == " " || c == "\t" { i += 1 }
    }

    private mutating func skipComment() throws {
        guard peek == "#" else { return }
        while let c = peek, c != "\n" {
            if c == "\r", peek(1) == "\n" { break }
            if isForbiddenControl(c) { throw fail("control character U+\(hex(c.value)) in a comment") }
            i += 1
        }
    }

    /// Spaces, a comment, then a newline or the end.
    private mutating func endOfLine() throws {
        skipSpaces()
        try skipComment()
        guard let c = peek else { return }
        if c == "\n" { advance(); return }
        if c == "\r", peek(1) == "\n" { i += 1; advance(); return }
        throw fail("unexpected '\(printable(c))' after a value: one key = value per line")
    }

    /// Spaces, newlines and comments (inside arrays and between statements).
    private mutating func skipBlank() throws {
        while let c = peek {
            if c == " " || c == "\t" || c == "\n" { advance() }
            else if c == "\r", peek(1) == "\n" { i += 1 }
            else if c == "#" { try skipComment() }
            else { break }
        }
    }

    mutating func document() throws -> TOMLDocument {
        while true {
            try skipBlank()
            guard let c = peek else { break }
            if c == "[" {
                try tableHeader()
            } else {
                let keyLine = line
                let path = try key()
                skipSpaces()
                guard peek == "=" else { throw fail("expected '=' after key '\(path.joined(separator: "."))'") }
                i += 1
                skipSpaces()
                let v = try value()
                try assign(v, at: current + path, line: keyLine)
                try endOfLine()
            }
        }
        return TOMLDocument(root: root, keyLines: keyLines)
    }

    private mutating func tableHeader() throws {
        let headerLine = line
        i += 1
        let isArray = peek == "["
        if isArray { i += 1 }
        skipSpaces()
        let path = try key()
        skipSpaces()
        guard peek == "]" else { throw fail("expected ']' to close the table name") }
        i += 1
        if isArray {
            guard peek == "]" else { throw fail("expected ']]' to close the array of tables") }
            i += 1
        }
        let name = path.joined(separator: ".")
        if isArray {
            try appendTable(at: path, in: &root)
        } else {
            guard !definedTables.contains(path) else { throw fail("table [\(name)] is defined twice") }
            try ensureTable(at: path[...], in: &root, name: name)
            definedTables.insert(path)
        }
        keyLines[name] = keyLines[name] ?? headerLine
        current = path
        try endOfLine()
    }

    // MARK: keys

    private mutating func key() throws -> [String] {
        var parts: [String] = []
        while true {
            skipSpaces()
            guard let c = peek else { throw fail("expected a key") }
            if c == "\"" {
                i += 1
                parts.append(try basicString())
            } else if c == "'" {
                i += 1
                parts.append(try literalString())
            } else if isBareKey(c) {
                var part = ""
                while let c = peek, isBareKey(c) { part.unicodeScalars.append(c); i += 1 }
                parts.append(part)
            } else {
                throw fail("'\(printable(c))' cannot start a key (letters, digits, '_', '-' or a quoted string)")
            }
            skipSpaces()
            if peek == "." { i += 1; continue }
            return parts
        }
    }

    private func isBareKey(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "_" || c == "-"
    }

    // MARK: the tree

    private mutating func assign(_ value: TOMLValue, at path: [String], line: Int) throws {
        try insert(value, at: path[...], in: &root, fullName: path.joined(separator: "."))
        keyLines[path.joined(separator: ".")] = line
    }

    private func insert(_ value: TOMLValue, at path: ArraySlice<String>, in table: inout [String: TOMLValue], fullName: String) throws {
        guard let head = path.first else { return }
        if path.count == 1 {
            guard table[head] == nil else { throw fail("key '\(fullName)' is defined twice") }
            table[head] = value
            return
        }
        switch table[head] ?? .table([:]) {
        case .table(var child):
            try insert(value, at: path.dropFirst(), in: &child, fullName: fullName)
            table[head] = .table(child)
        case .array(var items):
            guard case .table(var last)? = items.last else {
                throw fail("key '\(fullName)': '\(head)' is an array, not a table")
            }
            try insert(value, at: path.dropFirst(), in: &last, fullName: fullName)
            items[items.count - 1] = .table(last)
            table[head] = .array(items)
        case let other:
            throw fail("key '\(fullName)': '\(head)' is already \(other.kind), not a table")
        }
    }

    private func ensureTable(at path: ArraySlice<String>, in table: inout [String: TOMLValue], name: String) throws {
        guard let head = path.first else { return }
        switch table[head] ?? .table([:]) {
        case .table(var child):
            try ensureTable(at: path.dropFirst(), in: &child, name: name)
            table[head] = .table(child)
        case .array(var items) where path.count > 1:
            guard case .table(var last)? = items.last else { throw fail("[\(name)]: '\(head)' is an array, not a table") }
            try ensureTable(at: path.dropFirst(), in: &last, name: name)
            items[items.count - 1] = .table(last)
            table[head] = .array(items)
        case let other:
            throw fail("[\(name)]: '\(head)' is already \(other.kind), not a table")
        }
    }

    private func appendTable(at path: [String], in root: inout [String: TOMLValue]) throws {
        let name = path.joined(separator: ".")
        func walk(_ rest: ArraySlice<String>, _ table: inout [String: TOMLValue]) throws {
            guard let head = rest.first else { return }
            if rest.count == 1 {
                switch table[head] {
                case nil: table[head] = .array([.table([:])])
                case .array(var items)?:
                    items.append(.table([:]))
                    table[head] = .array(items)
                case let other?: throw fail("[[\(name)]]: '\(head)' is already \(other.kind), not an array of tables")
                }
                return
            }
            switch table[head] ?? .table([:]) {
            case .table(var child):
                try walk(rest.dropFirst(), &child)
                table[head] = .table(child)
            case .array(var items):
                guard case .table(var last)? = items.last else { throw fail("[[\(name)]]: '\(head)' is an array, not a table") }
                try walk(rest.dropFirst(), &last)
                items[items.count - 1] = .table(last)
                table[head] = .array(items)
            case let other:
                throw fail("[[\(name)]]: '\(head)' is already \(other.kind), not a table")
            }
        }
        try walk(path[...], &root)
    }

    // MARK: values

    private mutating func value() throws -> TOMLValue {
        guard let c = peek else { throw fail("expected a value after '='") }
        switch c {
        case "\"":
            if peek(1) == "\"", peek(2) == "\"" { i += 3; return .string(try multilineBasicString()) }
            i += 1
            return .string(try basicString())
        case "'":
            if peek(1) == "'", peek(2) == "'" { i += 3; return .string(try multilineLiteralString()) }
            i += 1
            return .string(try literalString())
        case "[":
            i += 1
            return try arrayValue()
        case "{":
            i += 1
            return try inlineTable()
        case "t", "f":
            if match("true") { return .boolean(true) }
            if match("false") { return .boolean(false) }
            throw fail("expected a value, found '\(word())' (strings need quotes)")
        default:
            if c == "+" || c == "-" || c == "i" || c == "n" || (c >= "0" && c <= "9") { return try number() }
            throw fail("expected a value, found '\(printable(c))'")
        }
    }

    private mutating func match(_ literal: String) -> Bool {
        let scalars = Array(literal.unicodeScalars)
        guard i + scalars.count <= s.count, Array(s[i..<(i + scalars.count)]) == scalars else { return false }
        if let after = peek(scalars.count), isBareKey(after) { return false }
        i += scalars.count
        return true
    }

    private func word() -> String {
        var j = i, out = ""
        while j < s.count, !" \t\r\n,]}#".unicodeScalars.contains(s[j]) { out.unicodeScalars.append(s[j]); j += 1 }
        return out
    }

    private mutating func arrayValue() throws -> TOMLValue {
        var items: [TOMLValue] = []
        while true {
            try skipBlank()
            guard let c = peek else { throw fail("array is not closed with ']'") }
            if c == "]" { i += 1; return .array(items) }
            items.append(try value())
            try skipBlank()
            guard let next = peek else { throw fail("array is not closed with ']'") }
            if next == "," { i += 1; continue }
            if next == "]" { i += 1; return .array(items) }
            throw fail("expected ',' or ']' in an array, found '\(printable(next))'")
        }
    }

    private mutating func inlineTable() throws -> TOMLValue {
        var table: [String: TOMLValue] = [:]
        skipSpaces()
        if peek == "}" { i += 1; return .table(table) }
        while true {
            skipSpaces()
            let path = try key()
            skipSpaces()
            guard peek == "=" else { throw fail("expected '=' after key '\(path.joined(separator: "."))'") }
            i += 1
            skipSpaces()
            let v = try value()
            try insert(v, at: path[...], in: &table, fullName: path.joined(separator: "."))
            skipSpaces()
            guard let c = peek else { throw fail("inline table is not closed with '}'") }
            if c == "," { i += 1; continue }
            if c == "}" { i += 1; return .table(table) }
            throw fail("expected ',' or '}' in an inline table, found '\(printable(c))'")
        }
    }

    private mutating func number() throws -> TOMLValue {
        let startLine = line
        var text = ""
        while let c = peek, !" \t\r\n,]}#".unicodeScalars.contains(c) { text.unicodeScalars.append(c); i += 1 }
        if text.count >= 10, text.unicodeScalars.count > 4, Array(text.unicodeScalars)[4] == "-",
           text.prefix(4).allSatisfy(\.isNumber) {
            throw TOMLError(line: startLine, message: "dates are not supported here; write \"\(text)\" as a string")
        }
        if text.contains(":") {
            throw TOMLError(line: startLine, message: "times are not supported here; write \"\(text)\" as a string")
        }
        switch text {
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        func bad() -> TOMLError { TOMLError(line: startLine, message: "'\(text)' is not a number") }
        // Underscores only between digits.
        let scalars = Array(text.unicodeScalars)
        for (k, c) in scalars.enumerated() where c == "_" {
            guard k > 0, k + 1 < scalars.count, isHexDigit(scalars[k - 1]), isHexDigit(scalars[k + 1]) else { throw bad() }
        }
        let clean = text.replacingOccurrences(of: "_", with: "")
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where clean.hasPrefix(prefix) {
            guard let v = Int(clean.dropFirst(2), radix: radix) else { throw bad() }
            return .integer(v)
        }
        var digits = clean
        if digits.hasPrefix("+") || digits.hasPrefix("-") { digits.removeFirst() }
        guard let first = digits.first, first.isASCII, first.isNumber else { throw bad() }
        if digits.count > 1, digits.hasPrefix("0"), !digits.hasPrefix("0."), !digits.hasPrefix("0e"), !digits.hasPrefix("0E") {
            throw TOMLError(line: startLine, message: "'\(text)': integers may not have leading zeros")
        }
        if digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let v = Int(clean) else { throw TOMLError(line: startLine, message: "'\(text)' does not fit in 64 bits") }
            return .integer(v)
        }
        guard digits.allSatisfy({ $0.isASCII && ($0.isNumber || "eE.+-".contains($0)) }),
              !digits.hasSuffix("."), !digits.contains(".e"), !digits.contains(".E"),
              let v = Double(clean) else { throw bad() }
        return .float(v)
    }

    private func isHexDigit(_ c: Unicode.Scalar) -> Bool {
        (c >= "0" && c <= "9") || (c >= "a" && c <= "f") || (c >= "A" && c <= "F")
    }

    // MARK: strings

    private mutating func basicString() throws -> String {
        var out = String.UnicodeScalarView()
        while true {
            guard let c = peek, c != "\n" else { throw fail("string is not closed with '\"' on the same line") }
            i += 1
            if c == "\"" { return String(out) }
            if c == "\\" { out.append(try escape()); continue }
            if isForbiddenControl(c) { throw fail("control character U+\(hex(c.value)) in a string: write it as an escape") }
            out.append(c)
        }
    }

    private mutating func literalString() throws -> String {
        var out = String.UnicodeScalarView()
        while true {
            guard let c = peek, c != "\n" else { throw fail("string is not closed with \"'\" on the same line") }
            i += 1
            if c == "'" { return String(out) }
            if isForbiddenControl(c) { throw fail("control character U+\(hex(c.value)) in a string") }
            out.append(c)
        }
    }

    private mutating func multilineBasicString() throws -> String {
        skipFirstNewline()
        var out = String.UnicodeScalarView()
        while true {
            guard let c = peek else { throw fail("multi-line string is not closed with '\"\"\"'") }
            if c == "\"", peek(1) == "\"", peek(2) == "\"" {
                closeMultiline(quote: "\"", into: &out)
                return String(out)
            }
            if c == "\\" {
                i += 1
                if let n = peek, n == " " || n == "\t" || n == "\n" || n == "\r" {
                    // A line-ending backslash trims the newline and the whitespace after it.
                    while let w = peek, w == " " || w == "\t" || w == "\n" || w == "\r" { advance() }
                    continue
                }
                out.append(try escape())
                continue
            }
            if isForbiddenControl(c), c != "\n", c != "\r" { throw fail("control character U+\(hex(c.value)) in a string") }
            advance()
            out.append(c)
        }
    }

    private mutating func multilineLiteralString() throws -> String {
        skipFirstNewline()
        var out = String.UnicodeScalarView()
        while true {
            guard let c = peek else { throw fail("multi-line string is not closed with \"'''\"") }
            if c == "'", peek(1) == "'", peek(2) == "'" {
                closeMultiline(quote: "'", into: &out)
                return String(out)
            }
            if isForbiddenControl(c), c != "\n", c != "\r" { throw fail("control character U+\(hex(c.value)) in a string") }
            advance()
            out.append(c)
        }
    }

    /// At three or more quotes: up to two of them belong to the string, the last three close it.
    private mutating func closeMultiline(quote: Unicode.Scalar, into out: inout String.UnicodeScalarView) {
        var run = 0
        while peek(run) == quote, run < 5 { run += 1 }
        for _ in 0..<(run - 3) { out.append(quote) }
        i += run
    }

    private mutating func skipFirstNewline() {
        if peek == "\n" { advance() } else if peek == "\r", peek(1) == "\n" { i += 1; advance() }
    }

    private mutating func escape() throws -> Unicode.Scalar {
        guard let c = peek else { throw fail("string ends inside an escape") }
        i += 1
        switch c {
        case "b": return "\u{08}"
        case "t": return "\t"
        case "n": return "\n"
        case "f": return "\u{0C}"
        case "r": return "\r"
        case "e": return "\u{1B}"
        case "\"": return "\""
        case "\\": return "\\"
        case "u", "U":
            let count = c == "u" ? 4 : 8
            var digits = ""
            for _ in 0..<count {
                guard let d = peek, isHexDigit(d) else { throw fail("\\\(c) needs \(count) hex digits") }
                digits.unicodeScalars.append(d)
                i += 1
            }
            guard let v = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(v) else {
                throw fail("\\\(c)\(digits) is not a Unicode scalar value")
            }
            return scalar
        default:
            throw fail("unknown escape '\\\(printable(c))' (use \\\\ for a backslash)")
        }
    }

    private func isForbiddenControl(_ c: Unicode.Scalar) -> Bool {
        (c.value < 0x20 && c != "\t") || c.value == 0x7F
    }

    private func printable(_ c: Unicode.Scalar) -> String {
        c.value < 0x20 || c.value == 0x7F ? "U+\(hex(c.value))" : String(c)
    }

    private func hex(_ v: UInt32) -> String {
        let digits = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
