import TextWidth

/// A colour as the terminal is asked to show it.
public enum Color: Hashable, Sendable {
    /// The terminal's own default foreground or background.
    case `default`
    /// A palette entry (0–255).
    case indexed(UInt8)
    /// 24-bit colour; backends without direct colour map it to the nearest palette entry.
    case rgb(UInt8, UInt8, UInt8)
}

public struct Attributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = Attributes(rawValue: 1 << 0)
    public static let italic = Attributes(rawValue: 1 << 1)
    public static let underline = Attributes(rawValue: 1 << 2)
    public static let reverse = Attributes(rawValue: 1 << 3)
    public static let dim = Attributes(rawValue: 1 << 4)
    public static let strike = Attributes(rawValue: 1 << 5)
}

/// Foreground, background and attributes: how a run of text looks.
public struct Style: Hashable, Sendable {
    public var foreground: Color
    public var background: Color
    public var attributes: Attributes

    public init(foreground: Color = .default, background: Color = .default, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let plain = Style()

    public func with(_ extra: Attributes) -> Style {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }
}

/// One terminal cell. A wide character occupies its cell and the next, whose glyph is
/// empty (a continuation) so backends skip it.
public struct Cell: Hashable, Sendable {
    public var glyph: String
    public var style: Style

    public init(glyph: String = " ", style: Style = .plain) {
        self.glyph = glyph
        self.style = style
    }

    public var foreground: Color { style.foreground }
    public var background: Color { style.background }
    public var attributes: Attributes { style.attributes }
    public var isContinuation: Bool { glyph.isEmpty }

    public static let blank = Cell()
}

/// A rectangle inside a canvas.
public struct Rect: Hashable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }
    public func inset(by n: Int) -> Rect {
        Rect(x: x + n, y: y + n, width: max(0, width - 2 * n), height: max(0, height - 2 * n))
    }
}

/// Cells a picture drawn in pixels owns: which picture (a number its painter gave it), the
/// rectangle on screen, and the picture's cell shown at the rectangle's top-left.
public struct PicturePlacement: Hashable, Sendable {
    public var picture: Int
    public var rect: Rect
    public var column: Int
    public var row: Int

    public init(picture: Int, rect: Rect, column: Int = 0, row: Int = 0) {
        self.picture = picture
        self.rect = rect
        self.column = column
        self.row = row
    }
}

/// Cells of one row that lead somewhere when clicked: a terminal that shows OSC 8 hyperlinks
/// is told `url` for them (`Hyperlinks`). The URL is as the text gave it; it is made safe
/// for the escape only where the escape is built.
public struct LinkSpan: Hashable, Sendable {
    public var x: Int, y: Int, width: Int
    public var url: String

    public init(x: Int, y: Int, width: Int, url: String) {
        self.x = x; self.y = y; self.width = width; self.url = url
    }

    public var maxX: Int { x + width }
}

/// A frame: a grid of cells every view draws into and every backend copies out.
public struct Canvas: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// The rectangles a picture drawn in pixels owns, in the order painted: the backend
    /// leaves them blank and a pixel placer draws over them once the cells are on screen.
    public private(set) var pictures: [PicturePlacement] = []
    /// The cells that are links, in the order drawn. Writing over a span's cells (`put`,
    /// `fill`, `place`) takes them out of it; restyling a cell through the subscript keeps it.
    public private(set) var links: [LinkSpan] = []

    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: fill, count: self.width * self.height)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            cells[y * width + x] = newValue
        }
    }

    public mutating func fill(_ rect: Rect, with cell: Cell) {
        unlink(rect)
        for y in max(0, rect.y)..<min(height, rect.maxY) {
            for x in max(0, rect.x)..<min(width, rect.maxX) { cells[y * width + x] = cell }
        }
    }

    /// Gives `placement`'s cells (clipped to the canvas) to a picture, blanked with `blank`,
    /// or, when `cell` is given, each holding what it returns for the picture's column and
    /// row there (kitty's placeholder cells: the picture as text).
    /// A placement that continues the one above it (the same picture, its next row: a
    /// picture among lines of text is painted a row at a time) joins it.
    public mutating func place(_ placement: PicturePlacement, blank: Cell = .blank,
                               cell: ((_ column: Int, _ row: Int) -> Cell)? = nil) {
        var placement = placement
        let left = max(0, placement.rect.x), top = max(0, placement.rect.y)
        placement.column += left - placement.rect.x
        placement.row += top - placement.rect.y
        placement.rect = Rect(x: left, y: top, width: min(width, placement.rect.maxX) - left, height: min(height, placement.rect.maxY) - top)
        guard placement.rect.width > 0, placement.rect.height > 0 else { return }
        unlink(placement.rect)
        if let cell {
            for y in placement.rect.y..<placement.rect.maxY {
                for x in placement.rect.x..<placement.rect.maxX {
                    cells[y * width + x] = cell(placement.column + x - placement.rect.x, placement.row + y - placement.rect.y)
                }
            }
        } else {
            fill(placement.rect, with: blank)
        }
        if let last = pictures.last, last.picture == placement.picture, last.rect.x == placement.rect.x,
           last.rect.width == placement.rect.width, last.column == placement.column,
           last.rect.maxY == placement.rect.y, last.row + last.rect.height == placement.row {
            pictures[pictures.count - 1].rect.height += placement.rect.height
        } else {
            pictures.append(placement)
        }
    }

    /// Makes `width` cells from (x, y) a link to `url` (clipped to the canvas). A span that
    /// continues the last one (the same row and URL, starting where it ends) joins it.
    public mutating func link(x: Int, y: Int, width: Int, url: String) {
        guard y >= 0, y < height, !url.isEmpty else { return }
        let left = max(0, x), right = min(self.width, x + width)
        guard right > left else { return }
        if let last = links.last, last.y == y, last.url == url, last.maxX == left {
            links[links.count - 1].width = right - last.x
        } else {
            links.append(LinkSpan(x: left, y: y, width: right - left, url: url))
        }
    }

    /// Takes `rect`'s cells out of every link span: what is drawn there now is no link.
    private mutating func unlink(_ rect: Rect) {
        guard !links.isEmpty, rect.width > 0, rect.height > 0 else { return }
        var kept: [LinkSpan] = []
        kept.reserveCapacity(links.count)
        for span in links {
            guard span.y >= rect.y, span.y < rect.maxY, span.x < rect.maxX, span.maxX > rect.x else {
                kept.append(span)
                continue
            }
            if span.x < rect.x { kept.append(LinkSpan(x: span.x, y: span.y, width: rect.x - span.x, url: span.url)) }
            if span.maxX > rect.maxX { kept.append(LinkSpan(x: rect.maxX, y: span.y, width: span.maxX - rect.maxX, url: span.url)) }
        }
        links = kept
    }

    /// Writes text from (x, y), clipped at `limit` (exclusive column, default: right edge).
    /// Wide characters that would straddle the limit are replaced by a space. Control
    /// characters are never written: callers clean untrusted text, this is the last guard.
    /// Returns the column after the last cell written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style, limit: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        let end = min(limit ?? width, width)
        var column = x
        for character in text {
            if column >= end { break }
            let w = DisplayWidth.of(character)
            if w == 0 {
                if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) { continue }
                // A lone combining mark: attach to the previous cell rather than stand alone.
                if column > x, column - 1 < width, column - 1 >= 0 {
                    var previous = self[column - 1, y]
                    if !previous.isContinuation { previous.glyph.append(character); self[column - 1, y] = previous }
                }
                continue
            }
            if column + w > end {
                if column >= 0 { self[column, y] = Cell(glyph: " ", style: style) }
                column += 1
                break
            }
            if column >= 0 {
                self[column, y] = Cell(glyph: String(character), style: style)
                if w == 2 { self[column + 1, y] = Cell(glyph: "", style: style) }
            }
            column += w
        }
        if !links.isEmpty { unlink(Rect(x: x, y: y, width: column - x, height: 1)) }
        return column
    }

    /// Text of one row, continuation cells skipped (what a person reads on screen).
    public func text(row y: Int) -> String {
        var line = ""
        for x in 0..<width where !self[x, y].isContinuation { line += self[x, y].glyph }
        return line
    }

    /// Where `text` first appears on screen, as the column and row of its first cell
    /// (columns count wide characters twice, so the answer is what a mouse click needs).
    public func locate(_ text: String) -> (x: Int, y: Int)? {
        let wanted = Array(text)
        guard !wanted.isEmpty else { return nil }
        for y in 0..<height {
            var columns: [Int] = []
            var characters: [Character] = []
            for x in 0..<width where !self[x, y].isContinuation {
                for character in self[x, y].glyph {
                    columns.append(x)
                    characters.append(character)
                }
            }
            guard characters.count >= wanted.count else { continue }
            for start in 0...(characters.count - wanted.count)
            where characters[start] == wanted[0] && Array(characters[start..<(start + wanted.count)]) == wanted {
                return (columns[start], y)
            }
        }
        return nil
    }

    /// All rows, joined by newlines, trailing spaces trimmed per row.
    public var text: String {
        (0..<height).map { row -> String in
            var line = text(row: row)
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
