import Foundation
import Markup

/// A feed article's HTML made fit for an EPUB's XHTML: what a feed may carry (scripts,
/// styles, frames, forms, trackers, event handlers, any attribute but a link's target and
/// a picture's source and text) is dropped, the rest is rebuilt as well-formed XHTML whose
/// elements nest as XHTML allows (a paragraph never holds a list, a list holds only items),
/// and relative links are resolved against the article's base. Pictures are handed back
/// as pieces of their own, so the caller decides whether each became a file or its alt text.
public enum ArticleHTML {
    public enum Piece: Equatable, Sendable {
        /// XHTML, ready to go between other pieces.
        case markup(String)
        /// An `<img>`: its absolute source and its alternative text.
        case picture(URL, alt: String)
    }

    /// The cleaned pieces of `html`, whose relative links mean what they mean at `base`.
    public static func clean(_ html: String, base: URL) -> [Piece] {
        var builder = Builder(base: base)
        HTMLTokens.reading(html) { tokens in
            while let token = tokens.next() {
                switch token {
                case .text(let text): builder.text(text)
                case .start(let name, let attributes, _):
                    if ArticleHTML.droppedWithContent.contains(name) {
                        tokens.skipElement(name)
                    } else {
                        builder.start(name, attributes)
                    }
                case .end(let name): builder.end(name)
                }
            }
        }
        return builder.finish()
    }

    /// Elements nested deeper than this lose their tags (their text stays): a hostile feed's
    /// thousands of nested tags then cost no more than a few dozen to close or look through.
    static let maximumDepth = 48

    /// Elements whose content is dropped along with them.
    static let droppedWithContent: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "noscript", "template", "svg", "math",
        "form", "button", "select", "textarea", "canvas", "video", "audio", "head", "title", "nav", "applet", "noembed",
        "noframes", "xmp", "dialog", "map",
    ]

    /// XML 1.0 refuses these characters even as references; they become nothing.
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool { XMLEscaping.isXMLCharacter(scalar) }

    /// Text escaped for XHTML content or a double-quoted attribute.
    public static func escape(_ text: String) -> String { XMLEscaping.escaped(text) }
}

/// Rebuilds the allowed elements as XHTML nests them, from the tokens in order.
private struct Builder {
    enum Kind { case root, flow, list, phrasing, inline }

    let base: URL
    private var pieces: [ArticleHTML.Piece] = []
    private var markup = ""
    /// Open elements as written: (name, kind).
    private var open: [(name: String, kind: Kind)] = [("", .root)]

    init(base: URL) { self.base = base }

    /// What an allowed element becomes: its name in the output and its kind.
    static let elements: [String: (String, Kind)] = {
        var table: [String: (String, Kind)] = [
            "p": ("p", .phrasing), "h1": ("h2", .phrasing), "pre": ("pre", .phrasing),
            "dt": ("p", .phrasing), "dd": ("p", .phrasing), "figcaption": ("p", .phrasing), "caption": ("p", .phrasing),
            "blockquote": ("blockquote", .flow), "li": ("li", .flow),
            "ul": ("ul", .list), "ol": ("ol", .list),
        ]
        for heading in ["h2", "h3", "h4", "h5", "h6"] { table[heading] = (heading, .phrasing) }
        for inline in ["a", "em", "strong", "b", "i", "u", "s", "sub", "sup", "code", "small", "q", "cite", "abbr", "mark", "kbd", "var", "del", "ins"] {
            table[inline] = (inline, .inline)
        }
        return table
    }()

    /// Blocks that are not kept but end the paragraph they interrupt.
    static let breaking: Set<String> = [
        "div", "section", "article", "header", "footer", "main", "aside", "figure", "table", "thead", "tbody", "tfoot",
        "tr", "dl", "center", "address", "details", "summary", "hgroup", "picture",
    ]

    private var top: Kind { open[open.count - 1].kind }

    private var full: Bool { open.count >= ArticleHTML.maximumDepth }

    mutating func text(_ text: String) {
        let blank = text.allSatisfy { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        if blank {
            if top == .phrasing || top == .inline { markup += " " }
            return
        }
        phrasingContext()
        markup += ArticleHTML.escape(text)
    }

    mutating func start(_ name: String, _ attributes: [(String, String)]) {
        switch name {
        case "img":
            picture(attributes)
            return
        case "br":
            phrasingContext()
            markup += "<br/>"
            return
        case "hr":
            closeToFlow()
            if top == .list { return }
            markup += "<hr/>"
            return
        case "td", "th":
            if top == .phrasing || top == .inline { markup += " " }
            return
        default: break
        }
        if Self.breaking.contains(name) {
            closeToFlow()
            return
        }
        guard let (output, kind) = Self.elements[name], !full else { return }  // unknown (or too deep): its content stays, the tag goes
        switch kind {
        case .inline:
            if output == "a", open.contains(where: { $0.name == "a" }) { return }
            phrasingContext()
            var tag = "<" + output
            if output == "a", let href = Self.attribute("href", attributes), let url = link(href) {
                tag += " href=\"" + ArticleHTML.escape(url.absoluteString) + "\""
            }
            markup += tag + ">"
            open.append((output, .inline))
        case .phrasing, .flow, .list:
            closeToFlow()
            // An item ends the previous item of its list (HTML's implied `</li>`).
            if output == "li", let list = open.lastIndex(where: { $0.kind == .list }),
               let item = open[(list + 1)...].firstIndex(where: { $0.name == "li" }) {
                while open.count > item { pop() }
            }
            if output == "li", top != .list {
                push("p", .phrasing)
                return
            }
            if top == .list, output != "li" { push("li", .flow) }
            push(output, kind)
        case .root:
            return
        }
    }

    mutating func end(_ name: String) {
        if Self.breaking.contains(name) {
            closeToFlow()
            return
        }
        guard let (output, _) = Self.elements[name] else { return }
        // Closed only when open, and never past the root.
        guard let index = open.lastIndex(where: { $0.name == output }), index > 0 else { return }
        while open.count > index { pop() }
    }

    mutating func finish() -> [ArticleHTML.Piece] {
        while open.count > 1 { pop() }
        flushMarkup()
        return pieces
    }

    private mutating func picture(_ attributes: [(String, String)]) {
        // A 1×1 picture is a tracker, never content.
        if Self.attribute("width", attributes) == "1" || Self.attribute("height", attributes) == "1" { return }
        let alt = Self.attribute("alt", attributes) ?? ""
        // Lazy-loading pages put the real picture in `data-src` and a placeholder in `src`.
        let given = Self.attribute("src", attributes).flatMap { $0.lowercased().hasPrefix("data:") || $0.isEmpty ? nil : $0 }
        guard let source = given ?? Self.attribute("data-src", attributes), let url = link(source),
              ["http", "https", "file"].contains(url.scheme?.lowercased() ?? "") else {
            if !alt.isEmpty { text(alt) }
            return
        }
        phrasingContext()
        flushMarkup()
        pieces.append(.picture(url, alt: alt))
    }

    /// Opens a paragraph (or list item) when text or an inline element arrives where only blocks may be.
    private mutating func phrasingContext() {
        switch top {
        case .root, .flow: push("p", .phrasing)
        case .list:
            push("li", .flow)
            push("p", .phrasing)
        case .phrasing, .inline: break
        }
    }

    /// Closes paragraphs and inline elements down to the nearest element that holds blocks.
    private mutating func closeToFlow() {
        while top == .phrasing || top == .inline { pop() }
    }

    private mutating func push(_ name: String, _ kind: Kind) {
        markup += "<\(name)>"
        open.append((name, kind))
    }

    private mutating func pop() {
        let (name, _) = open.removeLast()
        markup += "</\(name)>"
    }

    private mutating func flushMarkup() {
        guard !markup.isEmpty else { return }
        pieces.append(.markup(markup))
        markup = ""
    }

    /// An absolute http(s) or mailto link, else nil.
    private func link(_ href: String) -> URL? {
        let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
        let url = URL(string: trimmed, relativeTo: base)?.absoluteURL
            ?? trimmed.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(["#", "%"]))
                .flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
        guard let url, ["http", "https", "mailto", "file"].contains(url.scheme?.lowercased() ?? "") else { return nil }
        // A local file link only from a local feed.
        if url.isFileURL, !base.isFileURL { return nil }
        return url
    }

    static func attribute(_ name: String, _ attributes: [(String, String)]) -> String? {
        attributes.first { $0.0 == name }?.1
    }
}
