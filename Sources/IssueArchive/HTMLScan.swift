import Foundation
import Markup

/// Just enough of HTML for a plain zip's index page and for `--text`: links in order, the
/// title, and text with the tags stripped. Reads `HTMLLexer`'s tokens in one pass, so it
/// stays linear on any input.
enum HTMLScan {
    struct Link: Equatable {
        var href: String
        var text: String
    }

    /// Every `<a href>` in order with its text. A link ends at its `</a>`, at the next `<a>`
    /// (as in browsers) or at the end of the page.
    static func links(in html: String) -> [Link] {
        HTMLLexer.reading(html) { lexer in
            var links: [Link] = []
            var open: (href: String, start: Int)?
            var tokenStart = lexer.position
            func close(at end: Int) {
                guard let link = open else { return }
                links.append(Link(href: link.href, text: text(of: lexer.string(link.start..<max(link.start, end)))))
                open = nil
            }
            while let token = lexer.next() {
                switch token {
                case .startTag(let tag) where lexer.spells(tag.name, "a"):
                    close(at: tokenStart)
                    if let href = lexer.attribute("href", of: tag) { open = (lexer.decoded(href, in: .attribute), lexer.position) }
                case .endTag(let name) where lexer.spells(name, "a"):
                    close(at: tokenStart)
                default:
                    break
                }
                tokenStart = lexer.position
            }
            close(at: lexer.position)
            return links
        }
    }

    /// The text of the first non-empty `<title>`, else of the first non-empty `<h1>`.
    static func title(in html: String) -> String? {
        HTMLLexer.reading(html) { lexer in
            var heading: String?
            var headingStart: Int?
            var tokenStart = lexer.position
            while let token = lexer.next() {
                switch token {
                case .startTag(let tag) where lexer.spells(tag.name, "title") && !tag.selfClosing:
                    let title = text(of: lexer.string(lexer.rawText(until: "title")))
                    if !title.isEmpty { return title }
                case .startTag(let tag) where lexer.spells(tag.name, "h1") && heading == nil:
                    headingStart = lexer.position
                case .endTag(let name) where lexer.spells(name, "h1"):
                    if let start = headingStart, heading == nil {
                        let found = text(of: lexer.string(start..<tokenStart))
                        if !found.isEmpty { heading = found }
                    }
                    headingStart = nil
                default:
                    break
                }
                tokenStart = lexer.position
            }
            return heading
        }
    }

    private static let blockTags: Set<String> = [
        "p", "div", "br", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "blockquote", "section", "article",
        "header", "footer", "figure", "figcaption", "pre", "hr", "title", "ul", "ol", "table", "dt", "dd",
    ]

    /// Text with tags removed, heads, scripts and styles dropped, entities decoded, blocks on
    /// their own lines. A stand-in until TextLayout's `HTMLReader` is wired into `inspect --text`.
    static func text(of html: String) -> String {
        let text = HTMLLexer.text(of: html, dropping: ["script", "style", "head"], separator: 0x0A) { lexer, name in
            blockTags.contains(lexer.lowercased(name))
        }
        return text
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ") }
            .split(separator: "", omittingEmptySubsequences: true)
            .map { $0.joined(separator: "\n") }
            .joined(separator: "\n\n")
    }
}
