import Foundation

/// Just enough of HTML for a plain zip's index page and for `--text`: links in order, the
/// title, and text with the tags stripped. Tolerant of anything; never a full parser.
enum HTMLScan {
    struct Link: Equatable {
        var href: String
        var text: String
    }

    static func links(in html: String) -> [Link] {
        var links: [Link] = []
        var rest = html[...]
        while let open = rest.range(of: "<a", options: .caseInsensitive) {
            let after = rest[open.upperBound...]
            guard let first = after.first, first.isWhitespace || first == ">" else {
                rest = after
                continue
            }
            guard let tagEnd = after.firstIndex(of: ">") else { break }
            let attributes = after[..<tagEnd]
            let body = after[after.index(after: tagEnd)...]
            let close = body.range(of: "</a", options: .caseInsensitive)
            let inner = close.map { body[..<$0.lowerBound] } ?? body.prefix(0)
            if let href = attribute("href", in: attributes) {
                links.append(Link(href: decodeEntities(href), text: text(of: String(inner))))
            }
            rest = close.map { body[$0.upperBound...] } ?? body
        }
        return links
    }

    static func title(in html: String) -> String? {
        for tag in ["title", "h1"] {
            if let open = html.range(of: "<\(tag)", options: .caseInsensitive),
               let start = html[open.upperBound...].firstIndex(of: ">"),
               let close = html[start...].range(of: "</\(tag)", options: .caseInsensitive) {
                let title = text(of: String(html[html.index(after: start)..<close.lowerBound]))
                if !title.isEmpty { return title }
            }
        }
        return nil
    }

    private static func attribute(_ name: String, in tag: Substring) -> String? {
        var rest = tag
        while let found = rest.range(of: name, options: .caseInsensitive) {
            let before = found.lowerBound == rest.startIndex ? " " : rest[rest.index(before: found.lowerBound)]
            var cursor = rest[found.upperBound...].drop { $0.isWhitespace }
            guard before.isWhitespace, cursor.first == "=" else {
                rest = rest[found.upperBound...]
                continue
            }
            cursor = cursor.dropFirst().drop { $0.isWhitespace }
            guard let quote = cursor.first else { return nil }
            if quote == "\"" || quote == "'" {
                let value = cursor.dropFirst().prefix { $0 != quote }
                return String(value)
            }
            return String(cursor.prefix { !$0.isWhitespace && $0 != ">" })
        }
        return nil
    }

    /// Text with tags removed, scripts and styles dropped, entities decoded, blocks on their own
    /// lines. A stand-in until TextLayout's `HTMLReader` is wired into `inspect --text`.
    static func text(of html: String) -> String {
        var out = ""
        var index = html.startIndex
        let blocks: Set<String> = ["p", "div", "br", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "blockquote",
                                   "section", "article", "header", "footer", "figure", "figcaption", "pre", "hr", "title"]
        while index < html.endIndex {
            let ch = html[index]
            guard ch == "<" else {
                out.append(ch)
                index = html.index(after: index)
                continue
            }
            if html[index...].hasPrefix("<!--") {
                index = html[index...].range(of: "-->")?.upperBound ?? html.endIndex
                continue
            }
            guard let end = html[index...].firstIndex(of: ">") else { break }
            let tag = html[html.index(after: index)..<end]
            let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
            index = html.index(after: end)
            if ["script", "style", "head"].contains(name) && !tag.hasPrefix("/") {
                if let close = html[index...].range(of: "</\(name)", options: .caseInsensitive) {
                    index = html[close.upperBound...].firstIndex(of: ">").map { html.index(after: $0) } ?? html.endIndex
                }
                continue
            }
            if blocks.contains(name) { out.append("\n") }
        }
        let decoded = decodeEntities(out)
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
