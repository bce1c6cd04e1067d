import Markup

/// Reads `HTMLLexer`'s tokens into `HTMLTreeBuilder`: text decoded (whitespace collapsed
/// unless inside `<pre>`), the attributes worth keeping, script and style content skipped,
/// CDATA sections as text.
struct HTMLTokenizer {
    var lexer: HTMLLexer

    /// Attributes worth keeping; everything else is skipped without allocating.
    static let keptAttributes: Set<String> = [
        "id", "name", "href", "src", "alt", "title", "hidden", "aria-hidden", "style",
        "xlink:href", "data-src", "colspan", "epub:type", "role", "type", "start",
    ]
    /// Elements whose content is skipped up to their end tag.
    static let skippedContent: Set<String> = [
        "script", "style", "template", "noembed", "noframes", "iframe", "xmp",
    ]

    init(bytes: UnsafeBufferPointer<UInt8>) {
        lexer = HTMLLexer(bytes: bytes)
    }

    mutating func run(into builder: inout HTMLTreeBuilder) {
        while let token = lexer.next() {
            switch token {
            case .text(let range):
                text(range, into: &builder)
            case .cdata(let range):
                builder.text(lexer.string(range))
            case .startTag(let tag):
                startTag(tag, into: &builder)
            case .endTag(let name):
                builder.endTag(lexer.lowercased(lexer.localName(name)))
            }
        }
    }

    /// Decodes a run of text (entities; whitespace collapsed unless inside `<pre>`) and
    /// hands it to the builder, noting whether the sanitizer will have work to do.
    private func text(_ range: Range<Int>, into builder: inout HTMLTreeBuilder) {
        guard !range.isEmpty else { return }
        let collapse = !builder.preservesWhitespace
        var suspicious = false
        let bytes = lexer.bytes
        // Decoded text is at most a fifth longer than its source: every reference takes at
        // least as many bytes as what it stands for, except `&nGt;` and `&nLt;` (5 → 6).
        let text = String(unsafeUninitializedCapacity: range.count + range.count / 5) { out in
            var count = 0
            var lastWasSpace = false
            var previous: UInt8 = 0
            var beforePrevious: UInt8 = 0
            var index = range.lowerBound
            let end = range.upperBound
            while index < end {
                let byte = bytes[index]
                if collapse && (byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C) {
                    if !lastWasSpace {
                        out[count] = 0x20
                        count += 1
                        lastWasSpace = true
                    }
                    index += 1
                    continue
                }
                switch byte {
                case UInt8(ascii: "&"):
                    if let (characters, next) = CharacterReferences.reference(bytes, at: index, end: end, in: .text),
                       count + characters.utf8.count <= out.count {
                        if characters.unicodeScalars.contains(where: { Sanitizer.isSuspicious($0.value) }) { suspicious = true }
                        for unit in characters.utf8 {
                            out[count] = unit
                            count += 1
                        }
                        lastWasSpace = false
                        previous = 0
                        index = next
                        continue
                    }
                case 0x00..<0x20, 0x7F:
                    suspicious = true
                case 0x80...:
                    switch (beforePrevious, previous, byte) {
                    case (_, 0xC2, 0x80...0x9F), (0xE2, 0x80, 0xA8...0xAE), (0xE2, 0x81, 0xA6...0xA9),
                         (0xEF, 0xBB, 0xBF), (0xEF, 0xBF, 0xB9...0xBF):
                        suspicious = true
                    default:
                        break
                    }
                default:
                    break
                }
                out[count] = byte
                count += 1
                lastWasSpace = false
                beforePrevious = previous
                previous = byte
                index += 1
            }
            return count
        }
        guard !text.isEmpty else { return }
        builder.text(text, collapsed: collapse, needsCleaning: suspicious)
    }

    private mutating func startTag(_ tag: HTMLLexer.Tag, into builder: inout HTMLTreeBuilder) {
        let name = lexer.lowercased(lexer.localName(tag.name))
        if name == "title" && !tag.selfClosing {
            builder.titleText(lexer.decoded(lexer.rawText(until: "title")))
            return
        }
        if Self.skippedContent.contains(name) && !tag.selfClosing {
            _ = lexer.rawText(until: name)
            return
        }
        var attributes: [String: String] = [:]
        lexer.attributes(of: tag) { nameRange, valueRange in
            guard !nameRange.isEmpty, nameRange.count <= 16 else { return }
            let attributeName = lexer.lowercased(nameRange)
            guard Self.keptAttributes.contains(attributeName), attributes[attributeName] == nil else { return }
            attributes[attributeName] = valueRange.map { lexer.decoded($0, in: .attribute) } ?? ""
        }
        builder.startTag(name, attributes: attributes, selfClosing: tag.selfClosing)
        if name == "textarea" && !tag.selfClosing {
            builder.text(lexer.decoded(lexer.rawText(until: name)))
            builder.endTag(name)
        }
    }
}
