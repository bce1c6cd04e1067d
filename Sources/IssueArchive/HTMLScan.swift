import Foundation

/// Just enough of HTML for a plain zip's index page and for `--text`: links in order, the
/// title, and text with the tags stripped. Tolerant of anything; never a full parser. Works on
/// UTF-8 bytes with ASCII case folding (tag names are ASCII), so it stays linear and fast.
enum HTMLScan {
    struct Link: Equatable {
        var href: String
        var text: String
    }

    /// The document's bytes and an ASCII-lowercased copy of the same length to search in.
    private struct Source {
        let bytes: [UInt8]
        let folded: [UInt8]

        init(_ html: String) {
            bytes = Array(html.utf8)
            folded = bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        }

        func find(_ needle: String, from start: Int) -> Int? {
            let pattern = Array(needle.utf8)
            guard let first = pattern.first, pattern.count <= folded.count else { return nil }
            var i = max(start, 0)
            let last = folded.count - pattern.count
            while i <= last {
                guard let hit = folded[i...last].firstIndex(of: first) else { return nil }
                if folded[hit..<(hit + pattern.count)].elementsEqual(pattern) { return hit }
                i = hit + 1
            }
            return nil
        }

        func find(byte: UInt8, from start: Int) -> Int? {
            guard start < bytes.count else { return nil }
            return bytes[max(start, 0)...].firstIndex(of: byte)
        }

        func string(_ from: Int, _ to: Int) -> String {
            guard from < to else { return "" }
            return String(decoding: bytes[from..<to], as: UTF8.self)
        }
    }

    private static let gt = UInt8(ascii: ">")

    static func links(in html: String) -> [Link] {
        let source = Source(html)
        var links: [Link] = []
        var cursor = 0
        var closesLeft = true // once no "</a" is found, none will be: keeps hostile pages linear
        while let open = source.find("<a", from: cursor) {
            let next = open + 2
            guard next < source.bytes.count else { break }
            let after = source.bytes[next]
            guard after == gt || after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D else {
                cursor = next
                continue
            }
            guard let tagEnd = source.find(byte: gt, from: next) else { break }
            let close = closesLeft ? source.find("</a", from: tagEnd + 1) : nil
            if close == nil { closesLeft = false }
            let inner = close.map { source.string(tagEnd + 1, $0) } ?? ""
            if let href = attribute("href", in: source.string(next, tagEnd)) {
                links.append(Link(href: decodeEntities(href), text: text(of: inner)))
            }
            cursor = close.map { $0 + 3 } ?? tagEnd + 1
        }
        return links
    }

    static func title(in html: String) -> String? {
        let source = Source(html)
        for tag in ["title", "h1"] {
            var cursor = 0
            while let open = source.find("<\(tag)", from: cursor) {
                cursor = open + 1
                let after = open + 1 + tag.utf8.count
                guard after < source.bytes.count, source.bytes[after] == gt || source.bytes[after] == 0x20 else { continue }
                guard let start = source.find(byte: gt, from: after), let close = source.find("</\(tag)", from: start) else { break }
                let title = text(of: source.string(start + 1, close))
                if !title.isEmpty { return title }
                cursor = close
            }
        }
        return nil
    }

    private static func attribute(_ name: String, in tag: String) -> String? {
        let source = Source(tag)
        var cursor = 0
        while let found = source.find(name, from: cursor) {
            cursor = found + 1
            let before = found == 0 ? UInt8(0x20) : source.bytes[found - 1]
            guard before == 0x20 || before == 0x09 || before == 0x0A || before == 0x0D else { continue }
            var i = found + name.utf8.count
            while i < source.bytes.count, source.bytes[i] == 0x20 || source.bytes[i] == 0x0A || source.bytes[i] == 0x09 { i += 1 }
            guard i < source.bytes.count, source.bytes[i] == UInt8(ascii: "=") else { continue }
            i += 1
            while i < source.bytes.count, source.bytes[i] == 0x20 || source.bytes[i] == 0x0A || source.bytes[i] == 0x09 { i += 1 }
            guard i < source.bytes.count else { return nil }
            let quote = source.bytes[i]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                let end = source.bytes[(i + 1)...].firstIndex(of: quote) ?? source.bytes.count
                return source.string(i + 1, end)
            }
            var end = i
            while end < source.bytes.count, ![0x20, 0x09, 0x0A, 0x0D, gt].contains(source.bytes[end]) { end += 1 }
            return source.string(i, end)
        }
        return nil
    }

    private static let blockTags: Set<String> = [
        "p", "div", "br", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "blockquote", "section", "article",
        "header", "footer", "figure", "figcaption", "pre", "hr", "title", "ul", "ol", "table", "dt", "dd",
    ]

    /// Text with tags removed, heads, scripts and styles dropped, entities decoded, blocks on
    /// their own lines. A stand-in until TextLayout's `HTMLReader` is wired into `inspect --text`.
    static func text(of html: String) -> String {
        let source = Source(html)
        var out: [UInt8] = []
        out.reserveCapacity(source.bytes.count)
        var i = 0
        let count = source.bytes.count
        while i < count {
            let byte = source.bytes[i]
            guard byte == UInt8(ascii: "<") else {
                out.append(byte)
                i += 1
                continue
            }
            if source.folded[i...].starts(with: Array("<!--".utf8)) {
                i = source.find("-->", from: i + 4).map { $0 + 3 } ?? count
                continue
            }
            guard let end = source.find(byte: gt, from: i) else { break }
            let closing = i + 1 < count && source.bytes[i + 1] == UInt8(ascii: "/")
            var nameEnd = i + (closing ? 2 : 1)
            let nameStart = nameEnd
            while nameEnd < end, let c = Optional(source.folded[nameEnd]), (0x61...0x7A).contains(c) || (0x30...0x39).contains(c) {
                nameEnd += 1
            }
            let name = String(decoding: source.folded[nameStart..<nameEnd], as: UTF8.self)
            i = end + 1
            if !closing, ["script", "style", "head"].contains(name) {
                i = source.find("</\(name)", from: i).flatMap { source.find(byte: gt, from: $0) }.map { $0 + 1 } ?? count
                continue
            }
            if blockTags.contains(name) { out.append(0x0A) }
        }
        let decoded = decodeEntities(String(decoding: out, as: UTF8.self))
        return decoded
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ") }
            .split(separator: "", omittingEmptySubsequences: true)
            .map { $0.joined(separator: "\n") }
            .joined(separator: "\n\n")
    }

    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
                                       "mdash": "—", "ndash": "–", "hellip": "…", "lsquo": "‘", "rsquo": "’",
                                       "ldquo": "“", "rdquo": "”", "copy": "©"]
        var out = ""
        var rest = s[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(12).firstIndex(of: ";") {
                let name = String(after[..<semi])
                var replacement: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    replacement = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if name.hasPrefix("#") {
                    replacement = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else {
                    replacement = named[name]
                }
                if let replacement {
                    out += replacement
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }
}
