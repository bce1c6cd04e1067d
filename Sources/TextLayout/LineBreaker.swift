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

    /// A piece of one span's text, as UTF-8 offsets.
    private struct Piece {
        var span: Int
        var range: Range<Int>
        var width: Int
    }

    /// What separates a word from the one before it.
    private enum Glue {
        case none  // the start
        case space(span: Int, range: Range<Int>)
        case breakable  // a break opportunity of no width (CJK boundary, after a hyphen)
        case softHyphen(span: Int)
        case hard

        var isHard: Bool {
            if case .hard = self { return true }
            return false
        }
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
        line.reserveCapacity(32)
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
            line.removeAll(keepingCapacity: true)
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
        var scanner = WordScanner()
        let bytes = spans.reduce(0) { $0 + $1.text.utf8.count }
        scanner.pieces.reserveCapacity(bytes / 5 + 4)
        scanner.words.reserveCapacity(bytes / 5 + 4)
        for (spanIndex, span) in spans.enumerated() {
            let text = span.text
            var contiguous = text
            contiguous.withUTF8 { bytes in scanner.scan(span: spanIndex, text: text, bytes: bytes) }
        }
        if !scanner.word.isEmpty || scanner.word.glue.isHard { scanner.words.append(scanner.word) }
        return (scanner.words, scanner.pieces)
    }

    /// Splits spans into words and the glue between them. A struct with mutating methods
    /// (rather than closures over local variables) keeps the hot loop free of dynamic
    /// exclusivity checks.
    private struct WordScanner {
        var words: [Word] = []
        var pieces: [Piece] = []
        var word = Word(glue: .none, start: 0, end: 0)
        /// The first scalars of the two characters before, and whether the last was wide.
        var previous: UInt32 = 0
        var beforePrevious: UInt32 = 0
        var previousWide = false
        var pendingGlue: Glue?

        mutating func scan(span spanIndex: Int, text: String, bytes: UnsafeBufferPointer<UInt8>) {
            let end = bytes.count
            var index = 0
            while index != end {
                let byte = bytes[index]
                if byte < 0x80 {
                    let next = index + 1
                    // An ASCII byte is a whole character unless a mark or CR LF follows.
                    if next == end || bytes[next] < 0x80 && !(byte == 0x0D && bytes[next] == 0x0A) {
                        switch byte {
                        case 0x20:
                            space(spanIndex, index..<next)
                        case 0x0A, 0x0D:
                            hardBreak()
                        case 0x00..<0x20, 0x7F:
                            break
                        default:
                            character(spanIndex, index..<next, scalar: UInt32(byte), width: 1)
                            if byte != 0x2D {
                                index = asciiRun(span: spanIndex, bytes: bytes, from: next)
                                continue
                            }
                        }
                        index = next
                        continue
                    }
                } else {
                    // A scalar that never joins what follows, followed by one that never
                    // joins what precedes, is a whole grapheme cluster: no need to ask the
                    // standard library (the common case for CJK text and punctuation).
                    let (value, length) = LineBreaker.decode(bytes, at: index)
                    let next = index + length
                    if LineBreaker.isSimple(value),
                       next == end || bytes[next] < 0x80 || LineBreaker.isSimple(LineBreaker.decode(bytes, at: next).0) {
                        switch value {
                        case 0x2028, 0x2029:
                            hardBreak()
                        case 0xAD:
                            if pendingGlue == nil { pendingGlue = .softHyphen(span: spanIndex) }
                        default:
                            let width = Unicode.Scalar(value).map(DisplayWidth.width(of:)) ?? 1
                            character(spanIndex, index..<next, scalar: value, width: width)
                        }
                        index = next
                        continue
                    }
                }
                let start = text.utf8.index(text.utf8.startIndex, offsetBy: index)
                let after = text.index(after: start)
                let next = text.utf8.distance(from: text.utf8.startIndex, to: after)
                let cluster = text[start]
                let scalar = cluster.unicodeScalars.first.map(\.value) ?? 0
                switch scalar {
                case 0x20 where cluster.unicodeScalars.count == 1:
                    space(spanIndex, index..<next)
                case 0x0A, 0x0D, 0x2028, 0x2029:
                    hardBreak()
                case 0x200B:
                    if pendingGlue == nil { pendingGlue = .breakable }
                case 0xAD:
                    if pendingGlue == nil { pendingGlue = .softHyphen(span: spanIndex) }
                default:
                    character(spanIndex, index..<next, scalar: scalar, width: DisplayWidth.of(cluster))
                }
                index = next
            }
        }

        /// After a visible ASCII character: takes the printable ASCII characters that follow
        /// (no space, hyphen or control, and not the last before a non-ASCII byte, which may
        /// be a combining mark) into the current word at once, since no break can fall
        /// between them. Returns where it stopped.
        mutating func asciiRun(span: Int, bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            let end = bytes.count
            var index = start
            while index < end {
                let byte = bytes[index]
                guard byte > 0x20, byte < 0x7F, byte != 0x2D else { break }
                if index + 1 < end && bytes[index + 1] >= 0x80 { break }
                index += 1
            }
            guard index > start else { return start }
            let count = index - start
            pieces[pieces.count - 1].range = pieces[pieces.count - 1].range.lowerBound..<index
            pieces[pieces.count - 1].width += count
            word.width += count
            beforePrevious = count >= 2 ? UInt32(bytes[index - 2]) : previous
            previous = UInt32(bytes[index - 1])
            previousWide = false
            return index
        }

        mutating func startWord(_ glue: Glue) {
            if !word.isEmpty || word.glue.isHard { words.append(word) }
            word = Word(glue: glue, start: pieces.count, end: pieces.count)
        }

        mutating func add(_ span: Int, _ range: Range<Int>, _ width: Int) {
            let last = pieces.count - 1
            if !word.isEmpty, pieces[last].span == span, pieces[last].range.upperBound == range.lowerBound {
                pieces[last].range = pieces[last].range.lowerBound..<range.upperBound
                pieces[last].width += width
            } else {
                pieces.append(Piece(span: span, range: range, width: width))
                word.end = pieces.count
            }
            word.width += width
        }

        /// One visible character: decides whether a line may break before it.
        mutating func character(_ span: Int, _ range: Range<Int>, scalar: UInt32, width: Int) {
            let wide = width == 2 || LineBreaker.isCJKPunctuation(scalar)
            if let glue = pendingGlue {
                startWord(glue)
                pendingGlue = nil
            } else if !word.isEmpty {
                if (wide || previousWide) && !LineBreaker.noBreakBefore(scalar) && !LineBreaker.noBreakAfter(previous) {
                    startWord(.breakable)
                } else if (LineBreaker.isDash(previous) || (previous == 0x2D && LineBreaker.isLetter(beforePrevious)))
                            && LineBreaker.isLetter(scalar) {
                    // After a dash, or a hyphen inside a word (`well-known`), before a letter.
                    startWord(.breakable)
                }
            }
            add(span, range, width)
            beforePrevious = previous
            previous = scalar
            previousWide = wide
            if scalar == 0x3000 { pendingGlue = .breakable }  // ideographic space
        }

        mutating func space(_ span: Int, _ range: Range<Int>) {
            pendingGlue = .space(span: span, range: range)
            beforePrevious = previous
            previous = 0x20
            previousWide = false
        }

        mutating func hardBreak() {
            startWord(.hard)
            pendingGlue = nil
            beforePrevious = previous
            previous = 0x0A
            previousWide = false
        }
    }

    fileprivate static func isLetter(_ v: UInt32) -> Bool {
        if v < 0x80 { return isASCIILetter(v) }
        return Unicode.Scalar(v)?.properties.isAlphabetic ?? false
    }

    /// The scalar whose UTF-8 encoding starts at `bytes[index]` (valid UTF-8: it came
    /// from a String) and its length.
    fileprivate static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let lead = UInt32(bytes[index])
        if lead < 0x80 { return (lead, 1) }
        if lead < 0xE0 { return ((lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), 2) }
        if lead < 0xF0 {
            return ((lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F), 3)
        }
        return ((lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F), 4)
    }

    /// Scalars that form a grapheme cluster on their own whatever their neighbours (when
    /// those are simple or ASCII): letters, punctuation and symbols with no combining,
    /// joining, prepending or conjoining behaviour (Grapheme_Cluster_Break = Other).
    fileprivate static func isSimple(_ v: UInt32) -> Bool {
        switch v {
        case 0xA0...0x2FF, 0x370...0x482, 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20CF,
             0x2100...0x2BFF, 0x3000...0x3029, 0x3030...0x3098, 0x309B...0x30FF, 0x3400...0x4DBF,
             0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF60:
            return true
        default:
            return false
        }
    }

    fileprivate static func isASCIILetter(_ v: UInt32) -> Bool {
        (v | 0x20) >= 0x61 && (v | 0x20) <= 0x7A
    }

    fileprivate static func isDash(_ v: UInt32) -> Bool {
        v == 0x2010 || v == 0x2013 || v == 0x2014
    }

    /// Characters that may not begin a line (kinsoku): closing brackets and punctuation,
    /// small kana, iteration and prolonged sound marks.
    static func noBreakBefore(_ v: UInt32) -> Bool {
        switch v {
        case 0x21, 0x25, 0x29, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D, 0xBB, 0x2019, 0x201D, 0x203A,
             0x2025, 0x2026, 0x2060, 0x3001, 0x3002, 0x3005, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011,
             0x3015, 0x3017, 0x3019, 0x301B, 0x301C, 0x301F, 0x303B, 0x3041, 0x3043, 0x3045, 0x3047,
             0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096, 0x309D, 0x309E, 0x30A1,
             0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6,
             0x30FB, 0x30FC, 0x30FD, 0x30FE, 0xFF01, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F,
             0xFF3D, 0xFF5D, 0xFF5E:
            return true
        default:
            return false
        }
    }

    /// Characters that may not end a line: opening brackets and quotes, no-break space.
    static func noBreakAfter(_ v: UInt32) -> Bool {
        switch v {
        case 0x28, 0x5B, 0x7B, 0xA0, 0xAB, 0x2018, 0x201C, 0x2039, 0x2060, 0x3008, 0x300A, 0x300C,
             0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D, 0xFF08, 0xFF3B, 0xFF5B:
            return true
        default:
            return false
        }
    }

    fileprivate static func isCJKPunctuation(_ v: UInt32) -> Bool {
        (0x3000...0x303F).contains(v) || (0xFF00...0xFF65).contains(v)
    }

    // MARK: Cutting a word wider than a line

    private static let preferredCutAfter: Set<Character> = ["/", "-", ".", "?", "&", "=", "_", "#", ",", ";", ":", "\u{2010}"]

    /// Splits `word` into lines of at most `columns` columns, cutting between grapheme
    /// clusters and preferring a cut after a URL separator in the second half of the line.
    private func split(_ word: ArraySlice<Piece>) -> [[Piece]] {
        // One entry per grapheme cluster.
        var clusters: [Piece] = []
        var characters: [Character] = []
        for piece in word {
            let text = spans[piece.span].text
            let base = text.utf8.startIndex
            var index = text.utf8.index(base, offsetBy: piece.range.lowerBound)
            let end = text.utf8.index(base, offsetBy: piece.range.upperBound)
            while index < end {
                let next = text.index(after: index)
                let range = text.utf8.distance(from: base, to: index)..<text.utf8.distance(from: base, to: next)
                clusters.append(Piece(span: piece.span, range: range, width: DisplayWidth.of(text[index])))
                characters.append(text[index])
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
                    if Self.preferredCutAfter.contains(characters[cut - 1]) { break }
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
        // Pieces that follow each other in one span become one substring.
        var index = 0
        while index < pieces.count {
            let span = pieces[index].span
            let lower = pieces[index].range.lowerBound
            var upper = pieces[index].range.upperBound
            index += 1
            while index < pieces.count, pieces[index].span == span, pieces[index].range.lowerBound == upper {
                upper = pieces[index].range.upperBound
                index += 1
            }
            let source = spans[span]
            let utf8 = source.text.utf8
            let text = source.text[utf8.index(utf8.startIndex, offsetBy: lower)..<utf8.index(utf8.startIndex, offsetBy: upper)]
            append(String(text), style: source.style, link: source.link, to: &out)
        }
        return out
    }

    private func append(_ text: String, style: TextStyle, link: String?, to out: inout [StyledSpan]) {
        if !out.isEmpty, out[out.count - 1].style == style, out[out.count - 1].link == link {
            out[out.count - 1].text += text
        } else {
            out.append(StyledSpan(text, style: style, link: link))
        }
    }
}
