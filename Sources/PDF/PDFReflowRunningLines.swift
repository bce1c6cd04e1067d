/// Running headers, footers and page numbers: lines in the top or bottom band of a page
/// that are only a page number or label, or whose words (digits aside) the neighbouring
/// pages repeat at about the same height.
struct RunningLines {
    /// The share of the page's height at its top and at its bottom where running lines are.
    static let band = 0.1
    /// How far (a share of the page's height) a repeated line may move between pages.
    static let drift = 0.02

    private let repeated: [(key: String, middle: Double)]

    /// Learns the running lines of `neighbours` (the pages around the one reflowed).
    init(neighbours: [PDFPageText]) {
        repeated = neighbours.flatMap { page -> [(key: String, middle: Double)] in
            let height = max(page.size.height, 1)
            let inBands = page.runningBands.characters
            return ReflowLine.lines(of: inBands).compactMap { line in
                let middle = (line.box.y0 + line.box.y1) / 2
                guard Self.inBand(middle, height: height) else { return nil }
                let key = Self.key(line.text)
                return key.isEmpty ? nil : (key, middle / height)
            }
        }
    }

    /// Whether `line` of a page `height` points tall runs on every page rather than being read.
    func isRunning(_ line: ReflowLine, pageHeight height: Double) -> Bool {
        let middle = (line.box.y0 + line.box.y1) / 2
        guard Self.inBand(middle, height: max(height, 1)) else { return false }
        if Self.isPageLabel(line.text) { return true }
        let key = Self.key(line.text), place = middle / max(height, 1)
        return !key.isEmpty && repeated.contains { $0.key == key && abs($0.middle - place) <= Self.drift }
    }

    static func inBand(_ y: Double, height: Double) -> Bool { y < height * band || y > height * (1 - band) }

    /// The words of a line without its digits, in lower case: "Page 12 · The Monthly" and
    /// "Page 13 · The Monthly" are the same running line.
    static func key(_ text: String) -> String {
        text.lowercased().unicodeScalars.filter { $0.properties.numericType == nil }
            .map(String.init).joined().split(whereSeparator: { $0 == " " }).joined(separator: " ")
    }

    /// "12", "- 12 -", "xii", "Page 3", "3 of 40", "3/40": a page number and nothing else.
    static func isPageLabel(_ text: String) -> Bool {
        let decorations = Set("-–—|/()[].·•:,".unicodeScalars)
        var words = text.lowercased().unicodeScalars.map { decorations.contains($0) ? " " : Character($0) }
            .reduce(into: "") { $0.append($1) }.split(separator: " ").map(String.init)
        words.removeAll { ["page", "p", "pg", "pp", "seite", "of", "von", "sur", "de"].contains($0) }
        guard (1...2).contains(words.count) else { return false }
        return words.allSatisfy { word in word.allSatisfy(\.isNumber) || isRoman(word) }
    }

    private static func isRoman(_ word: String) -> Bool {
        guard !word.isEmpty, word.count <= 8, word.allSatisfy({ "ivxlcdm".contains($0) }) else { return false }
        let values: [Character: Int] = ["i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000]
        var total = 0
        let digits = word.map { values[$0]! }
        for (index, value) in digits.enumerated() {
            total += index + 1 < digits.count && value < digits[index + 1] ? -value : value
        }
        return total > 0 && roman(total) == word
    }

    private static func roman(_ number: Int) -> String {
        let table: [(Int, String)] = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
                                      (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
        var rest = number, result = ""
        for (value, letters) in table { while rest >= value { result += letters; rest -= value } }
        return result
    }
}
