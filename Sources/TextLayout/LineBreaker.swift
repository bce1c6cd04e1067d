/// Breaks a run of styled spans into lines no wider than a number of columns.
///
/// Lines break at spaces; between CJK characters (keeping closing punctuation, small kana
/// and the prolonged sound mark off the start of a line and opening brackets off its end);
/// after hyphens and dashes inside words; at zero-width spaces and soft hyphens (which then
/// show a hyphen). A word wider than the line is cut between grapheme clusters, preferably
/// after `/`, `-`, `.`, `?`, `&`, `=`, `_`, `#` or `,`, so a long URL breaks cleanly.
/// `\n` in a span is a hard break. Spaces at the ends of lines are dropped.
struct LineBreaker {
    let spans: [StyledSpan]
    let columns: Int

    /// A piece of one span's text.
    private struct Piece {
        var span: Int
        var range: Range<String.Index>
        var width: Int
    }

    /// What separates a word from the one before it.
    private enum Glue {
        case none  // the start
        case space(span: Int, range: Range<String.Index>)
        case breakable  // a break opportunity of no width (CJK boundary, after a hyphen)
        case softHyphen(span: Int)
        case hard
    }

    /// A run that may not be broken (except when wider than a line): pieces[start..<end].
    private struct Word {
        var glue: Glue
        var start: Int
        var end: Int
        var width = 0
        var isEmpty: Bool { start == end }
    }

    init(spans: [StyledSpan], columns: Int) {
        self.spans = spans
        self.columns = max(1, columns)
    }

    func lines() -> [[StyledSpan]] {
        let (words, pieces) = self.words()
        var lines: [[StyledSpan]] = []
        var line: [Piece] = []
        var lineWidth = 0
        var pendingHyphenSpan: Int?

        func finishLine() {
            var out = assemble(line)
            if let span = pendingHyphenSpan {
                if lineWidth + 1 <= columns {
                    append("-", style: spans[span].style, link: spans[span].link, to: &out)
                }
            }
            lines.append(out)
            line = []
            lineWidth = 0
        }

        for word in words {
            var glueWidth = 0
            var gluePiece: Piece?
            var hyphenSpan: Int?
            switch word.glue {
            case .none, .breakable:
                break
            case .space(let span, let range):
                glueWidth = 1
                gluePiece = Piece(span: span, range: range, width: 1)
            case .softHyphen(let span):
                hyphenSpan = span
            case .hard:
                pendingHyphenSpan = nil
                finishLine()
            }
            if word.isEmpty { continue }
            if !line.isEmpty && lineWidth + glueWidth + word.width <= columns {
                if let gluePiece {
                    line.append(gluePiece)
                    lineWidth += 1
                }
                line += pieces[word.start..<word.end]
                lineWidth += word.width
                pendingHyphenSpan = nil
                continue
            }
            if !line.isEmpty {
                pendingHyphenSpan = hyphenSpan
                finishLine()
                pendingHyphenSpan = nil
            }
            if word.width <= columns {
                line.append(contentsOf: pieces[word.start..<word.end])
                lineWidth = word.width
            } else {
                // Too wide for any line: cut it, leaving its last part to be continued.
                let cut = split(pieces[word.start..<word.end])
                for part in cut.dropLast() {
                    line = part
                    lineWidth = part.reduce(0) { $0 + $1.width }
                    finishLine()
                }
                line = cut.last ?? []
                lineWidth = line.reduce(0) { $0 + $1.width }
            }
        }
        if !line.isEmpty || lines.isEmpty {
            pendingHyphenSpan = nil
            finishLine()
        }
        // Trailing empty lines from hard breaks at the end carry nothing.
        while lines.count > 1, let last = lines.last, last.isEmpty { lines.removeLast() }
        return lines
    }

    // MARK: Words

    private func words() -> ([Word], [Piece]) {
        var words: [Word] = []
        var pieces: [Piece] = []
        var word = Word(glue: .none, start: 0, end: 0)
        var previous: Character?
        var beforePrevious: Character?
        var previousWide = false
        var pendingGlue: Glue?

        func startWord(_ glue: Glue) {
            if !word.isEmpty || isHard(word.glue) { words.append(word) }
            word = Word(glue: glue, start: pieces.count, end: pieces.count)
        }
        func add(_ span: Int, _ range: Range<String.Index>, _ width: Int) {
            if !word.isEmpty, pieces[pieces.count - 1].span == span,
               pieces[pieces.count - 1].range.upperBound == range.lowerBound {
                pieces[pieces.count - 1].range = pieces[pieces.count - 1].range.lowerBound..<range.upperBound
                pieces[pieces.count - 1].width += width
            } else {
                pieces.append(Piece(span: span, range: range, width: width))
                word.end = pieces.count
            }
            word.width += width
        }

        for (spanIndex, span) in spans.enumerated() {
            let text = span.text
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                // ASCII: no clusters, widths are byte counts.
                let utf8 = text.utf8
                var index = utf8.startIndex
                var wordStart = index
                var previousByte: UInt8 = previous.flatMap { $0.asciiValue } ?? 0
                func flushRun(_ end: String.Index) {
                    if wordStart < end {
                        add(spanIndex, wordStart..<end, utf8.distance(from: wordStart, to: end))
                    }
                }
                while index != utf8.endIndex {
                    let byte = utf8[index]
                    let next = utf8.index(after: index)
                    if byte == 0x20 || byte == 0x0A {
                        flushRun(index)
                        if byte == 0x0A {
                            startWord(.hard)
                            pendingGlue = nil
                        } else {
                            pendingGlue = .space(span: spanIndex, range: index..<next)
                        }
                        wordStart = next
                        previousWide = false
                        previousByte = byte
                        index = next
                        continue
                    }
                    if let glue = pendingGlue {
                        flushRun(index)
                        startWord(glue)
                        pendingGlue = nil
                        wordStart = index
                    } else if previousWide && !Self.noBreakBefore(Character(Unicode.Scalar(byte)))
                                && !(previous.map(Self.noBreakAfter) ?? false) && wordStart == index && !word.isEmpty {
                        flushRun(index)
                        startWord(.breakable)
                        wordStart = index
                    } else if previousByte == UInt8(ascii: "-"), isASCIILetter(byte), index > utf8.startIndex,
                              hyphenFollowsLetter(utf8, before: index) {
                        flushRun(index)
                        startWord(.breakable)
                        wordStart = index
                    }
                    previousWide = false
                    previousByte = byte
                    index = next
                }
                flushRun(utf8.endIndex)
                if let last = text.last {
                    beforePrevious = utf8.count > 1
                        ? Character(Unicode.Scalar(utf8[utf8.index(utf8.endIndex, offsetBy: -2)])) : previous
                    previous = last
                }
                continue
            }

            var index = text.startIndex
            while index != text.endIndex {
                let character = text[index]
                let next = text.index(after: index)
                defer { index = next }
                if character == " " || character == "\n" || character == "\r\n" {
                    if character != " " {
                        startWord(.hard)
                        pendingGlue = nil
                    } else {
                        pendingGlue = .space(span: spanIndex, range: index..<next)
                    }
                    beforePrevious = previous
                    previous = character
                    previousWide = false
                    continue
                }
                if character == "\u{200B}" {
                    if pendingGlue == nil { pendingGlue = .breakable }
                    continue
                }
                if character == "\u{AD}" {
                    if pendingGlue == nil { pendingGlue = .softHyphen(span: spanIndex) }
                    continue
                }
                let width = DisplayWidth.of(character)
                let wide = width == 2 || Self.isCJKPunctuation(character)
                if let glue = pendingGlue {
                    startWord(glue)
                    pendingGlue = nil
                } else if let previous, !word.isEmpty {
                    if (wide || previousWide) && !Self.noBreakBefore(character) && !Self.noBreakAfter(previous) {
                        startWord(.breakable)
                    } else if Self.breaksAfterDash(previous) && character.isLetter {
                        startWord(.breakable)
                    } else if previous == "-" && character.isLetter && beforePrevious?.isLetter == true {
                        startWord(.breakable)
                    }
                }
                add(spanIndex, index..<next, width)
                beforePrevious = previous
                previous = character
                previousWide = wide
                // Ideographic space and other wide spaces allow a break after them.
                if character == "\u{3000}" { pendingGlue = .breakable }
            }
        }
        if !word.isEmpty || isHard(word.glue) { words.append(word) }
        return (words, pieces)
    }

    private func isHard(_ glue: Glue?) -> Bool {
        if case .hard = glue { return true }
        return false
    }

    private func isASCIILetter(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
    }

    /// In `well-known`, the hyphen before `index` follows a letter.
    private func hyphenFollowsLetter(_ utf8: String.UTF8View, before index: String.Index) -> Bool {
        let hyphen = utf8.index(before: index)
        guard hyphen > utf8.startIndex else { return false }
        return isASCIILetter(utf8[utf8.index(before: hyphen)])
    }

    private static func breaksAfterDash(_ c: Character) -> Bool {
        c == "\u{2010}" || c == "\u{2013}" || c == "\u{2014}"
    }

    /// Characters that may not begin a line (kinsoku) or be separated from what precedes.
    static func noBreakBefore(_ c: Character) -> Bool {
        switch c {
        case "、", "。", "，", "．", "・", "：", "；", "？", "！", "ー", "）", "」", "』", "】", "〕", "〉",
             "》", "〙", "〗", "〛", "｝", "］", "ゝ", "ゞ", "ヽ", "ヾ", "々", "〻", "ぁ", "ぃ", "ぅ", "ぇ",
             "ぉ", "っ", "ゃ", "ゅ", "ょ", "ゎ", "ゕ", "ゖ", "ァ", "ィ", "ゥ", "ェ", "ォ", "ッ", "ャ", "ュ",
             "ョ", "ヮ", "ヵ", "ヶ", "〜", "～", "…", "‥", "〟", "’", "”", "»", "›",
             ",", ".", ")", "]", "}", "!", "?", ":", ";", "%", "\u{2060}":
            return true
        default:
            return false
        }
    }

    /// Characters that may not end a line.
    static func noBreakAfter(_ c: Character) -> Bool {
        switch c {
        case "（", "「", "『", "【", "〔", "〈", "《", "〘", "〖", "〚", "｛", "［", "〝", "‘", "“", "«", "‹",
             "(", "[", "{", "\u{2060}", "\u{A0}":
            return true
        default:
            return false
        }
    }

    private static func isCJKPunctuation(_ c: Character) -> Bool {
        guard let scalar = c.unicodeScalars.first else { return false }
        return (0x3000...0x303F).contains(scalar.value) || (0xFF00...0xFF65).contains(scalar.value)
    }

    // MARK: Cutting a word wider than a line

    private static let preferredCutAfter: Set<Character> = ["/", "-", ".", "?", "&", "=", "_", "#", ",", ";", ":", "\u{2010}"]

    /// Splits `word` into lines of at most `columns` columns, cutting between grapheme
    /// clusters and preferring a cut after a URL separator in the second half of the line.
    private func split(_ word: ArraySlice<Piece>) -> [[Piece]] {
        // One entry per grapheme cluster.
        var clusters: [Piece] = []
        for piece in word {
            let text = spans[piece.span].text
            var index = piece.range.lowerBound
            while index < piece.range.upperBound {
                let next = text.index(after: index)
                clusters.append(Piece(span: piece.span, range: index..<next, width: DisplayWidth.of(text[index])))
                index = next
            }
        }
        var parts: [[Piece]] = []
        var start = 0
        while start < clusters.count {
            var used = 0
            var end = start
            while end < clusters.count, used + clusters[end].width <= columns || end == start {
                used += clusters[end].width
                end += 1
            }
            if end < clusters.count {
                // Prefer to cut after a separator, if that keeps at least half the line.
                var cut = end
                var width = used
                while cut > start + 1 {
                    let character = spans[clusters[cut - 1].span].text[clusters[cut - 1].range.lowerBound]
                    if Self.preferredCutAfter.contains(character) { break }
                    width -= clusters[cut - 1].width
                    cut -= 1
                }
                if cut > start + 1 && width * 2 >= columns { end = cut }
            }
            parts.append(merge(Array(clusters[start..<end])))
            start = end
        }
        return parts
    }

    private func merge(_ clusters: [Piece]) -> [Piece] {
        var result: [Piece] = []
        for cluster in clusters {
            if var last = result.last, last.span == cluster.span, last.range.upperBound == cluster.range.lowerBound {
                last.range = last.range.lowerBound..<cluster.range.upperBound
                last.width += cluster.width
                result[result.count - 1] = last
            } else {
                result.append(cluster)
            }
        }
        return result
    }

    // MARK: Output

    private func assemble(_ pieces: [Piece]) -> [StyledSpan] {
        var out: [StyledSpan] = []
        for piece in pieces {
            let span = spans[piece.span]
            append(String(span.text[piece.range]), style: span.style, link: span.link, to: &out)
        }
        return out
    }

    private func append(_ text: String, style: TextStyle, link: String?, to out: inout [StyledSpan]) {
        if let last = out.last, last.style == style, last.link == link {
            out[out.count - 1].text += text
        } else {
            out.append(StyledSpan(text, style: style, link: link))
        }
    }
}
