import Foundation

/// Cleaning of every string a feed supplies before it leaves this module.
enum FeedText {
    /// One line of text: control characters (C0, DEL, C1) and bidirectional overrides removed,
    /// whitespace runs collapsed to one space, trimmed. Nil when nothing is left.
    static func line(_ raw: String?) -> String? {
        guard let raw else { return nil }
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in raw.unicodeScalars {
            let v = scalar.value
            if v == 0x20 || v == 0x09 || v == 0x0A || v == 0x0D || v == 0xA0 || v == 0x3000 || v == 0x2028 || v == 0x2029 {
                pendingSpace = !out.isEmpty
                continue
            }
            if isStripped(v) { continue }
            if pendingSpace { out.append(" "); pendingSpace = false }
            out.append(scalar)
        }
        return out.isEmpty ? nil : String(out)
    }

    /// A line from text that may hold HTML markup (Atom `type="html"`, RSS titles and
    /// descriptions): tags dropped, script and style bodies dropped, entities decoded.
    static func fromHTML(_ raw: String?) -> String? {
        guard let raw else { return nil }
        guard raw.contains("<") || raw.contains("&") else { return line(raw) }
        return line(decodeEntities(stripTags(raw)))
    }

    static func isStripped(_ v: UInt32) -> Bool {
        v < 0x20 || (v >= 0x7F && v <= 0x9F)
            || (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)  // bidi embeddings, isolates
            || v == 0x200E || v == 0x200F || v == 0x061C                      // direction marks
            || v == 0xFEFF
    }

    private static func stripTags(_ html: String) -> String {
        var out = ""
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            guard let first = after.first, first.isLetter || first == "/" || first == "!" || first == "?" else {
                out += "<"
                rest = after
                continue
            }
            guard let close = after.firstIndex(of: ">") else {
                rest = ""  // a tag cut off at the end
                break
            }
            let tag = after[..<close].lowercased()
            rest = after[after.index(after: close)...]
            for hidden in ["script", "style"] where tag == hidden || tag.hasPrefix(hidden + " ") {
                if let end = rest.range(of: "</\(hidden)", options: .caseInsensitive) {
                    rest = rest[end.upperBound...]
                    if let gt = rest.firstIndex(of: ">") { rest = rest[rest.index(after: gt)...] }
                } else {
                    rest = ""
                }
            }
            // Block-level tags separate words.
            if ["p", "/p", "br", "br/", "br /", "div", "/div", "li", "/li", "/h1", "/h2", "/h3", "tr", "td"].contains(where: { tag == $0 || tag.hasPrefix($0 + " ") }) {
                out += " "
            }
        }
        out += rest
        return out
    }

    /// Decodes HTML character references in one pass (the result is never decoded again,
    /// so nothing can expand recursively).
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let name = after[..<semi]
            var replacement: String?
            if name.hasPrefix("#") {
                let digits = name.dropFirst()
                let value = digits.hasPrefix("x") || digits.hasPrefix("X")
                    ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                if let value, let scalar = Unicode.Scalar(value) { replacement = String(Character(scalar)) }
            } else {
                replacement = htmlEntities[String(name)]
            }
            if let replacement {
                out += replacement
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        out += rest
        return out
    }

    private static let htmlEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“",
        "rdquo": "”", "laquo": "«", "raquo": "»", "bull": "•", "middot": "·", "copy": "©",
        "reg": "®", "trade": "™", "deg": "°", "euro": "€", "pound": "£", "yen": "¥",
        "eacute": "é", "egrave": "è", "ecirc": "ê", "aacute": "á", "agrave": "à", "acirc": "â",
        "iacute": "í", "oacute": "ó", "uacute": "ú", "ccedil": "ç", "ntilde": "ñ",
        "auml": "ä", "ouml": "ö", "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "szlig": "ß",
        "Eacute": "É", "times": "×", "shy": "",
    ]
}

/// Resolution of the links a feed gives, against the feed URL or an `xml:base`.
enum FeedLinks {
    /// The absolute URL `href` points at, or nil when it is empty, unparsable, or of a scheme
    /// a feed may not point at (`file:` only when the feed itself is a local file).
    static func resolve(_ href: String?, against base: URL) -> URL? {
        guard let href = FeedText.line(href) else { return nil }
        var url = URL(string: href, relativeTo: base)
        if url == nil, let escaped = href.addingPercentEncoding(withAllowedCharacters: allowed) {
            url = URL(string: escaped, relativeTo: base)
        }
        guard let absolute = url?.absoluteURL, let scheme = absolute.scheme?.lowercased() else { return nil }
        switch scheme {
        case "http", "https": return absolute
        case "file": return base.isFileURL ? absolute : nil
        default: return nil
        }
    }

    private static let allowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.insert(charactersIn: "#%")
        return set
    }()
}
