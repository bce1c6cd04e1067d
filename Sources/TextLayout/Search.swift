/// Finds text in laid-out lines.
public enum Search {
    /// Every case-insensitive occurrence of `query` within a line, as the line's index,
    /// the display column where it starts (counting the indent) and its width in columns.
    /// Occurrences never span two lines; a no-break space matches a space.
    public static func matches(of query: String, in lines: [LayoutLine]) -> [(line: Int, column: Int, length: Int)] {
        let needle = query.map(fold)
        guard !needle.isEmpty else { return [] }
        let needleText = needle.joined()
        var results: [(line: Int, column: Int, length: Int)] = []
        for (lineIndex, line) in lines.enumerated() {
            if case .image = line.kind { continue }
            let text = line.spans.map(\.text).joined()
            // Quick rejection before folding the line character by character.
            if !fold(text).contains(needleText) { continue }
            var characters: [String] = []
            var columns: [Int] = []
            var column = line.indent
            for character in text {
                characters.append(fold(character))
                columns.append(column)
                column += DisplayWidth.of(character)
            }
            columns.append(column)
            var start = 0
            while start + needle.count <= characters.count {
                var found = true
                for offset in 0..<needle.count where characters[start + offset] != needle[offset] {
                    found = false
                    break
                }
                if found {
                    let begin = columns[start]
                    results.append((lineIndex, begin, columns[start + needle.count] - begin))
                    start += needle.count
                } else {
                    start += 1
                }
            }
        }
        return results
    }

    private static func fold(_ character: Character) -> String {
        if character == "\u{A0}" { return " " }
        return character.lowercased()
    }

    private static func fold(_ text: String) -> String {
        String(text.lowercased().map { $0 == "\u{A0}" ? " " : $0 })
    }
}
