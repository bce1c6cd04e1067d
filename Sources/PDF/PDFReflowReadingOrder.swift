/// Reading order by columns: boxes (lines and figures) in a frame where text runs left to
/// right and lines go down (a right-to-left page is mirrored, a vertical one turned first).
/// A region is cut at its gutters (empty vertical stripes) into columns read in turn;
/// where something crosses the gutters (a title, a wide figure), the region is cut
/// across first, and the stripes between crossings that share a gutter are read as columns.
struct ReadingOrder {
    /// The narrowest gap between columns and the narrowest column, in points.
    let gutter: Double
    let column: Double

    static let mostStripes = 600
    /// The tallest empty stretch inside a column, in points.
    let hole: Double

    init(bodySize: Double) {
        gutter = max(0.6 * bodySize, 3)
        column = max(4 * bodySize, 20)
        hole = max(4 * bodySize, 20)
    }

    /// The indices of `boxes` in reading order.
    func order(_ boxes: [PDFRect]) -> [Int] {
        // Cutting costs up to the square of the boxes: past a few thousand (no page a person
        // reads has that many lines), row by row.
        boxes.count > Self.mostBoxes ? rows(Array(boxes.indices), boxes) : order(Array(boxes.indices), boxes)
    }

    static let mostBoxes = 3000

    private func order(_ items: [Int], _ boxes: [PDFRect]) -> [Int] {
        guard items.count > 1 else { return items }
        let columns = split(items, boxes, across: false)
        if columns.count > 1 { return columns.flatMap { order($0, boxes) } }
        let stripes = split(items, boxes, across: true)
        // Grouping stripes costs the square of their number: a page of thousands of tiny
        // stripes (hostile or not) is read row by row instead.
        guard stripes.count > 1, stripes.count <= Self.mostStripes else { return rows(items, boxes) }
        var result: [Int] = []
        // The stripes read together so far.
        var group: [[Int]] = []
        func flush(_ stripes: ArraySlice<[Int]>) {
            let part = stripes.flatMap { $0 }
            guard !part.isEmpty else { return }
            let columns = split(part, boxes, across: false)
            result += columns.count > 1 ? columns.flatMap { order($0, boxes) } : (part.count < items.count ? order(part, boxes) : rows(part, boxes))
        }
        for stripe in stripes {
            let whole = split(group.flatMap { $0 } + stripe, boxes, across: false)
            if group.isEmpty || sideBySide(whole, boxes) {
                group.append(stripe)
                continue
            }
            // First stripes that bridge the gutters of the columns the rest makes with this one
            // (a byline centred over the page, level with a column's first lines only) are read
            // before those columns rather than keep them apart.
            let bridged = (1..<max(1, group.count)).first { start in
                let columns = split(group[start...].flatMap { $0 } + stripe, boxes, across: false)
                return whole.count < columns.count && sideBySide(columns, boxes)
            }
            flush(group[..<(bridged ?? group.count)])
            group = bridged.map { Array(group[$0...]) + [stripe] } ?? [stripe]
        }
        flush(group[...])
        return result
    }

    /// `items` cut at the gaps of their projection on the x axis (columns, left to right)
    /// or, `across`, on the y axis (stripes, top to bottom).
    private func split(_ items: [Int], _ boxes: [PDFRect], across: Bool) -> [[Int]] {
        let spans = items.map { across ? (boxes[$0].y0, boxes[$0].y1, $0) : (boxes[$0].x0, boxes[$0].x1, $0) }.sorted { $0.0 < $1.0 }
        var parts: [[Int]] = [], current: [Int] = []
        var start = spans.first?.0 ?? 0, end = -Double.infinity
        for (low, high, item) in spans {
            let wide = across ? low > end : low - end >= gutter && end - start >= column
            if !current.isEmpty && wide {
                parts.append(current)
                current = []
                start = low
            }
            current.append(item)
            end = max(end, high)
        }
        if !current.isEmpty { parts.append(current) }
        // The last column must be wide enough too, else it stays with the one before.
        if !across, parts.count > 1, let last = parts.last, let width = extent(last, boxes), width < column {
            parts.removeLast()
            parts[parts.count - 1] += last
        }
        return parts
    }

    /// Whether `columns` are columns read side by side: more than one, none with a hole
    /// the others fill (a paragraph's short last line beside a right-aligned one is not a column).
    private func sideBySide(_ columns: [[Int]], _ boxes: [PDFRect]) -> Bool {
        columns.count > 1 && columns.allSatisfy { column in
            let spans = column.map { (boxes[$0].y0, boxes[$0].y1) }.sorted { $0.0 < $1.0 }
            var end = spans.first?.1 ?? 0
            for (low, high) in spans.dropFirst() {
                if low - end > hole { return false }
                end = max(end, high)
            }
            return true
        }
    }

    private func extent(_ items: [Int], _ boxes: [PDFRect]) -> Double? {
        guard let low = items.map({ boxes[$0].x0 }).min(), let high = items.map({ boxes[$0].x1 }).max() else { return nil }
        return high - low
    }

    /// Boxes with no gutter between them: row by row, each row left to right.
    private func rows(_ items: [Int], _ boxes: [PDFRect]) -> [Int] {
        let sorted = items.sorted { (boxes[$0].y0 + boxes[$0].y1, boxes[$0].x0) < (boxes[$1].y0 + boxes[$1].y1, boxes[$1].x0) }
        var rows: [[Int]] = []
        for item in sorted {
            let box = boxes[item]
            if let last = rows.last?.last, (box.y0 + box.y1) / 2 < boxes[last].y1, (box.y0 + box.y1) / 2 > boxes[last].y0 {
                rows[rows.count - 1].append(item)
            } else {
                rows.append([item])
            }
        }
        return rows.flatMap { $0.sorted { boxes[$0].x0 < boxes[$1].x0 } }
    }
}
