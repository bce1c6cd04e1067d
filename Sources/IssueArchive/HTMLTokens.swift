import Markup

/// `HTMLLexer`'s tokens as the article readers (extraction, the EPUB writer) take them:
/// text with its references decoded, start tags with their attributes (names lower-cased,
/// values decoded) and end tags. CDATA sections are dropped (a feed article's HTML has no
/// business holding any).
struct HTMLTokens {
    enum Token: Equatable {
        case text(String)
        case start(String, [(String, String)], selfClosing: Bool)
        case end(String)

        static func == (a: Token, b: Token) -> Bool {
            switch (a, b) {
            case let (.text(x), .text(y)): return x == y
            case let (.end(x), .end(y)): return x == y
            case let (.start(x, p, c), .start(y, q, d)): return x == y && c == d && p.elementsEqual(q, by: { $0 == $1 })
            default: return false
            }
        }
    }

    /// Elements whose content is raw text, read up to their end tag.
    static let rawTextElements: Set<String> = ["script", "style", "xmp", "textarea", "title", "noscript", "noembed", "noframes", "iframe"]

    private var lexer: HTMLLexer

    /// Runs `body` with the tokens of `html`, valid only inside it.
    static func reading<Result>(_ html: String, _ body: (inout HTMLTokens) throws -> Result) rethrows -> Result {
        try HTMLLexer.reading(html) { lexer in
            var tokens = HTMLTokens(lexer: lexer)
            return try body(&tokens)
        }
    }

    private init(lexer: HTMLLexer) { self.lexer = lexer }

    mutating func next() -> Token? {
        while let token = lexer.next() {
            switch token {
            case .text(let range):
                return .text(lexer.decoded(range))
            case .cdata:
                continue
            case .endTag(let name):
                return .end(lexer.lowercased(name))
            case .startTag(let tag):
                var attributes: [(String, String)] = []
                lexer.attributes(of: tag) { name, value in
                    guard !name.isEmpty else { return }
                    let attributeName = lexer.lowercased(name)
                    guard !attributes.contains(where: { $0.0 == attributeName }) else { return }
                    attributes.append((attributeName, value.map { lexer.decoded($0, in: .attribute) } ?? ""))
                }
                return .start(lexer.lowercased(tag.name), attributes, selfClosing: tag.selfClosing)
            }
        }
        return nil
    }

    /// Skips everything up to the end tag of `name` (raw text for scripts and styles;
    /// nested elements of the same name counted otherwise).
    mutating func skipElement(_ name: String) {
        if Self.rawTextElements.contains(name) {
            _ = lexer.rawText(until: name)
            return
        }
        var depth = 1
        while let token = lexer.next() {
            switch token {
            case .startTag(let tag) where !tag.selfClosing && lexer.lowercased(tag.name) == name:
                depth += 1
            case .endTag(let end) where lexer.lowercased(end) == name:
                depth -= 1
                if depth == 0 { return }
            default:
                break
            }
        }
    }

    /// The raw text of a script or a title up to its end tag, which is consumed.
    mutating func rawText(of name: String) -> String {
        lexer.string(lexer.rawText(until: name))
    }
}
