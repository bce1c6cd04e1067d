import Foundation

/// What `newsstand inspect archive` prints: a readable summary, JSON, or the issue's text.
/// Every string from the archive is cleaned of control characters before it is printed.
public enum ArchiveReport {
    public static func summary(_ content: IssueContent) -> String {
        var lines: [String] = []
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { lines.append("\(label): \(clean(value))") }
        }
        let m = content.metadata
        add("format", content.format.rawValue)
        add("title", m.title)
        add("creators", m.creators.isEmpty ? nil : m.creators.joined(separator: ", "))
        add("date", m.date)
        add("language", m.language)
        add("publisher", m.publisher)
        add("series", m.series)
        add("number", m.number)
        add("cover", content.coverImage)
        if content.rightToLeft { lines.append("direction: right-to-left") }
        let count = content.readingOrder.count
        if content.format == .cbz {
            lines.append("pages: \(count)")
        } else {
            lines.append("articles: \(count)")
        }
        if !content.tableOfContents.isEmpty {
            lines.append("contents:")
            appendTOC(content.tableOfContents, depth: 1, to: &lines)
        }
        return lines.joined(separator: "\n")
    }

    private static func appendTOC(_ entries: [TOCEntry], depth: Int, to lines: inout [String]) {
        for entry in entries {
            lines.append(String(repeating: "  ", count: depth) + clean(entry.title) + "  (" + clean(entry.path) + ")")
            appendTOC(entry.children, depth: depth + 1, to: &lines)
        }
    }

    public static func json<Value: Encodable>(_ content: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(content), as: UTF8.self)
        // JSONEncoder escapes C0 controls only: C1 controls (U+009B is a CSI) and bidi
        // overrides from the archive would reach the terminal raw. Escape them as \uXXXX,
        // which keeps the JSON and its values exactly as they were.
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if clean(String(scalar), keepNewlines: true).isEmpty {
                out.append(contentsOf: String(format: "\\u%04X", scalar.value).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Removes C0/C1 controls (ESC, CSI, BEL...) and bidirectional overrides, so nothing from an
    /// archive can drive the terminal.
    public static func clean(_ s: String, keepNewlines: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepNewlines, 0x09 where keepNewlines: out.append(scalar)
            case 0..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
