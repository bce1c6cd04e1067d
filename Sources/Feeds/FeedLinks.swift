import Foundation

/// A base URL split once into the parts RFC 3986 reference resolution needs, so resolving
/// thousands of relative links does not go through Foundation's URL resolution each time.
struct LinkBase {
    let url: URL
    /// Lower-case scheme, `https`.
    let scheme: String
    /// `//host:port`, or "" for `file:///path`; nil for URLs without an authority.
    let authority: String?
    let path: String
    let query: String?
    /// The path up to and including its last `/`: where relative paths are merged.
    let directory: String
    /// `scheme:` followed by the authority: how every absolute form made from this base starts.
    let prefix: String
    let directoryHasDotSegment: Bool
    /// Whether links relative to this base are acceptable ones (http(s) with a host, or a
    /// local file next to a local feed); every relative reference shares the base's scheme
    /// and host, so they are judged once here rather than for each link.
    let acceptsRelative: Bool

    init(_ url: URL) {
        self.url = url
        let text = url.absoluteString
        var rest = Substring(text)
        if let colon = rest.firstIndex(of: ":") {
            scheme = rest[..<colon].lowercased()
            rest = rest[rest.index(after: colon)...]
        } else {
            scheme = ""
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if rest.hasPrefix("//") {
            let end = rest.dropFirst(2).firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        } else {
            authority = nil
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[question...])
            rest = rest[..<question]
        } else {
            query = nil
        }
        let path = String(rest)
        self.path = path
        directory = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[...$0]) } ?? ""
        prefix = scheme + ":" + (authority ?? "")
        directoryHasDotSegment = Self.hasDotSegment(directory)
        switch scheme {
        case "http", "https": acceptsRelative = url.host?.isEmpty == false
        case "file": acceptsRelative = url.isFileURL
        default: acceptsRelative = false
        }
    }

    /// Whether a reference keeps this base's scheme and authority: no scheme of its own and
    /// not a network-path reference (`//host/...`).
    func keepsAuthority(_ reference: String) -> Bool {
        if Self.hasScheme(reference) { return false }
        let utf8 = reference.utf8
        return !(utf8.first == UInt8(ascii: "/") && utf8.dropFirst().first == UInt8(ascii: "/"))
    }

    /// The absolute form of a reference, as RFC 3986 section 5.2 computes it.
    func absolute(_ reference: String) -> String {
        if Self.hasScheme(reference) { return reference }
        let utf8 = reference.utf8
        guard let first = utf8.first else { return prefix + path + (query ?? "") }
        if first == UInt8(ascii: "/"), utf8.dropFirst().first == UInt8(ascii: "/") { return scheme + ":" + reference }
        if first == UInt8(ascii: "#") { return prefix + path + (query ?? "") + reference }
        if first == UInt8(ascii: "?") { return prefix + path + reference }
        let split = utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? utf8.endIndex
        let refPath = reference[..<split]
        var merged: String
        if first == UInt8(ascii: "/") {
            merged = String(refPath)
        } else if authority != nil, path.isEmpty {
            merged = "/" + refPath
        } else {
            // The usual case (`covers/1.png` under the feed's directory), built in one string.
            // `directory` ends with `/`, so the merged path has a dot segment only if one
            // of its two parts has.
            if split == utf8.endIndex, !directoryHasDotSegment, !Self.hasDotSegment(reference) {
                return Self.joined(prefix, directory, reference)
            }
            merged = directory + refPath
        }
        if Self.hasDotSegment(merged) { merged = Self.removeDotSegments(merged) }
        return prefix + merged + reference[split...]
    }

    /// Three strings in one, in one allocation.
    static func joined(_ first: String, _ second: String, _ third: String) -> String {
        var (first, second, third) = (first, second, third)
        let count = first.utf8.count + second.utf8.count + third.utf8.count
        return first.withUTF8 { a in
            second.withUTF8 { b in
                third.withUTF8 { c in
                    String(unsafeUninitializedCapacity: count) { out in
                        guard let base = out.baseAddress else { return 0 }
                        if let start = a.baseAddress { (base).initialize(from: start, count: a.count) }
                        if let start = b.baseAddress { (base + a.count).initialize(from: start, count: b.count) }
                        if let start = c.baseAddress { (base + a.count + b.count).initialize(from: start, count: c.count) }
                        return count
                    }
                }
            }
        }
    }

    static func hasScheme(_ reference: String) -> Bool {
        var first = true
        for c in reference.utf8 {
            switch c {
            case UInt8(ascii: ":"): return !first
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): break
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                if first { return false }
            default: return false
            }
            first = false
        }
        return false
    }

    static func removeDotSegments(_ path: String) -> String {
        guard hasDotSegment(path) else { return path }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if output.count > 1 { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(segment)
            }
        }
        let joined = output.joined(separator: "/")
        return path.hasPrefix("/") && !joined.hasPrefix("/") ? "/" + joined : joined
    }
}

extension LinkBase {
    /// Whether a path has a `.` or `..` segment (file names with dots do not count).
    static func hasDotSegment(_ path: String) -> Bool {
        let dot = UInt8(ascii: "."), slash = UInt8(ascii: "/")
        var segmentStart = true
        var dots = 0
        for c in path.utf8 {
            if c == slash {
                if segmentStart, dots == 1 || dots == 2 { return true }
                segmentStart = true
                dots = 0
            } else if c == dot, segmentStart {
                dots += 1
            } else {
                segmentStart = false
            }
        }
        return segmentStart && (dots == 1 || dots == 2)
    }
}

/// Resolution of the links a feed gives, against the feed URL or an `xml:base`.
enum FeedLinks {
    /// The absolute URL `href` points at, or nil when it is empty, unparsable, or of a scheme
    /// a feed may not point at (`file:` only when the feed itself is a local file).
    static func resolve(_ href: String?, against base: LinkBase) -> URL? {
        guard let href = FeedText.line(href) else { return nil }
        let absolute = base.absolute(href)
        if base.keepsAuthority(href) {
            // Scheme and host are the base's, judged once in `LinkBase`.
            guard base.acceptsRelative else { return nil }
            return URL(string: absolute) ?? absolute.addingPercentEncoding(withAllowedCharacters: allowed).flatMap({ URL(string: $0) })
        }
        guard let url = URL(string: absolute)
            ?? absolute.addingPercentEncoding(withAllowedCharacters: allowed).flatMap({ URL(string: $0) }),
            let scheme = url.scheme?.lowercased() else { return nil }
        switch scheme {
        case "http", "https": return url.host?.isEmpty == false ? url : nil
        case "file": return base.url.isFileURL ? url : nil
        default: return nil
        }
    }

    static func resolve(_ href: String?, against base: URL) -> URL? {
        resolve(href, against: LinkBase(base))
    }

    private static let allowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.insert(charactersIn: "#%")
        return set
    }()
}
