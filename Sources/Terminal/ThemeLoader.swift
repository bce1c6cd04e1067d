import Foundation
import TOMLReader

/// A theme file that cannot be used, with where and why.
public struct ThemeError: Error, CustomStringConvertible, Equatable {
    public let file: String?
    public let line: Int?
    public let message: String

    public init(file: String?, line: Int?, message: String) {
        self.file = file; self.line = line; self.message = message
    }

    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if let line { parts.append("line \(line)") }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}

/// Reads themes from TOML: one table per role (`[shelf]`, `[selection]`, …), each with
/// `fg`, `bg` and `attributes = ["bold", …]`. A role left out is classic's; inside a role,
/// a colour left out is the terminal's default. Unknown keys and bad colours are refused
/// with the file, line, key and reason.
public enum ThemeLoader {
    /// Every role a theme file may set, by its table name.
    public static let roles: [(name: String, keyPath: WritableKeyPath<Theme, Style> & Sendable)] = [
        ("wall", \.wall), ("shelf", \.shelf), ("shelf_edge", \.shelfEdge), ("cover_shadow", \.coverShadow),
        ("sash", \.sash), ("text", \.text), ("dim_text", \.dimText), ("title", \.title),
        ("selection", \.selection), ("progress_filled", \.progressFilled), ("progress_empty", \.progressEmpty),
        ("status_line", \.statusLine), ("hint_bar", \.hintBar), ("error", \.error),
        ("reader_text", \.readerText), ("reader_heading", \.readerHeading), ("reader_quote", \.readerQuote),
        ("reader_link", \.readerLink), ("reader_code", \.readerCode), ("reader_match", \.readerMatch),
    ]

    public static let attributeNames: [(name: String, attribute: Attributes)] = [
        ("bold", .bold), ("dim", .dim), ("italic", .italic), ("underline", .underline),
        ("reverse", .reverse), ("strike", .strike),
    ]

    /// The 16 ANSI colour names; `bright_red`, `bright-red` and `brightred` are all 9.
    public static let colorNames: [String: UInt8] = {
        let base = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        var names: [String: UInt8] = [:]
        for (i, name) in base.enumerated() {
            names[name] = UInt8(i)
            for prefix in ["bright_", "bright-", "bright"] { names[prefix + name] = UInt8(i + 8) }
        }
        names["grey"] = 8
        names["gray"] = 8
        return names
    }()

    /// `mono` when `NO_COLOR` is set (to anything but the empty string), else `classic`.
    public static func defaultThemeName(environment: [String: String]) -> String {
        if let value = environment["NO_COLOR"], !value.isEmpty { return "mono" }
        return "classic"
    }

    /// Finds `NAME.toml` in the first search path that has it. A name with a `/` or
    /// ending in `.toml` is a file path. `classic` is built in when no file is found.
    public static func load(named name: String, searchPaths: [URL]) throws -> Theme {
        if name.contains("/") || name.hasSuffix(".toml") {
            return try load(file: URL(fileURLWithPath: name))
        }
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }) else {
            throw ThemeError(file: nil, line: nil, message: "'\(name)' is not a theme name (letters, digits, '-' and '_')")
        }
        for directory in searchPaths {
            let file = directory.appendingPathComponent("\(name).toml")
            if FileManager.default.fileExists(atPath: file.path) { return try load(file: file) }
        }
        if name == Theme.classic.name { return .classic }
        let known = availableThemes(searchPaths: searchPaths)
        let places = searchPaths.map(\.path).joined(separator: ", ")
        throw ThemeError(file: nil, line: nil, message: "no theme named '\(name)' in \(places.isEmpty ? "any theme directory" : places)"
            + (known.isEmpty ? "" : " (available: \(known.joined(separator: ", ")))"))
    }

    /// Names of the themes found in the search paths, sorted, without duplicates.
    public static func availableThemes(searchPaths: [URL]) -> [String] {
        var names: Set<String> = [Theme.classic.name]
        for directory in searchPaths {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for file in files where file.hasSuffix(".toml") { names.insert(String(file.dropLast(5))) }
        }
        return names.sorted()
    }

    public static func load(file: URL) throws -> Theme {
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw ThemeError(file: file.path, line: nil, message: "cannot be read (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ThemeError(file: file.path, line: nil, message: "is not UTF-8 text")
        }
        return try parse(text, file: file.path)
    }

    /// Parses a theme; `file` names it in errors and, without a `name` key, gives its name.
    public static func parse(_ toml: String, file: String) throws -> Theme {
        let document: TOMLDocument
        do { document = try TOML.parseDocument(toml) } catch let error as TOMLError {
            throw ThemeError(file: file, line: error.line, message: error.message)
        }
        func fail(_ path: [String], _ message: String) -> ThemeError {
            ThemeError(file: file, line: document.line(of: path), message: message)
        }

        var theme = Theme.classic
        let base = (file as NSString).lastPathComponent
        theme.name = base.hasSuffix(".toml") ? String(base.dropLast(5)) : base
        let roleNames = Dictionary(uniqueKeysWithValues: roles.map { ($0.name, $0.keyPath) })

        for (key, value) in document.root.sorted(by: { $0.key < $1.key }) {
            if key == "name" || key == "description" {
                guard let text = value.string else { throw fail([key], "'\(key)' must be a string, not \(value.kind)") }
                if key == "name" { theme.name = text }
                continue
            }
            guard let keyPath = roleNames[key] else {
                throw fail([key], "key '\(key)' is not a theme key (roles: \(roles.map(\.name).joined(separator: ", ")))")
            }
            guard let table = value.table else { throw fail([key], "'\(key)' must be a table ([\(key)]) with fg, bg and attributes") }
            theme[keyPath: keyPath] = try style(table, role: key, fail: fail)
        }
        return theme
    }

    private static func style(_ table: [String: TOMLValue], role: String,
                              fail: ([String], String) -> ThemeError) throws -> Style {
        var style = Style()
        for (key, value) in table.sorted(by: { $0.key < $1.key }) {
            let path = [role, key]
            let name = "\(role).\(key)"
            switch key {
            case "fg", "bg":
                guard let color = color(value) else {
                    throw fail(path, "'\(name)' = \(show(value)) is not a colour (#rrggbb, 0–255, or a name)")
                }
                if key == "fg" { style.foreground = color } else { style.background = color }
            case "attributes":
                guard let items = value.array else {
                    throw fail(path, "'\(name)' must be an array of names, like [\"bold\"]")
                }
                for item in items {
                    guard let word = item.string, let match = attributeNames.first(where: { $0.name == word.lowercased() }) else {
                        throw fail(path, "'\(name)' has \(show(item)), which is not an attribute (\(attributeNames.map(\.name).joined(separator: ", ")))")
                    }
                    style.attributes.insert(match.attribute)
                }
            default:
                throw fail(path, "key '\(name)' is not a theme key (a role has fg, bg and attributes)")
            }
        }
        return style
    }

    /// "#rrggbb", an integer 0–255, "default", or a colour name.
    public static func color(_ value: TOMLValue) -> Color? {
        switch value {
        case .integer(let n):
            guard (0...255).contains(n) else { return nil }
            return .indexed(UInt8(n))
        case .string(let text):
            let word = text.trimmingCharacters(in: .whitespaces).lowercased()
            if word == "default" { return .default }
            if let index = colorNames[word] { return .indexed(index) }
            guard word.hasPrefix("#"), word.count == 7, word.dropFirst().allSatisfy(\.isHexDigit), let v = UInt32(word.dropFirst(), radix: 16) else { return nil }
            return .rgb(UInt8(v >> 16), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF))
        default:
            return nil
        }
    }

    private static func show(_ value: TOMLValue) -> String {
        switch value {
        case .string(let s): return "\"\(s)\""
        case .integer(let n): return String(n)
        case .float(let d): return String(d)
        case .boolean(let b): return String(b)
        default: return value.kind
        }
    }
}
