import Foundation
import Testing
@testable import Terminal

/// sixel and iTerm2 pictures are pixels in the terminal's cells: xterm takes them away from
/// every cell text or an erase (EL, ED, ECH) reaches. ncurses takes the blank cells under a
/// picture for blanks it may erase with the row around them (the rest of a row gone blank:
/// `CR EL`; a row's start: `EL 1`), which cut the top row off covers on the shelf in xterm.
extension CursesBackendTests {
    static let wall = Style(background: .indexed(235))

    /// A 40 × 10 wall with a picture over 8 × 4 cells from (4, 2); on its top row, `block`
    /// (cells of another colour) when given.
    static func pictureFrame(block: Rect?) -> Canvas {
        var canvas = Canvas(width: 40, height: 10, fill: Cell(style: wall))
        canvas.place(PicturePlacement(picture: 1, rect: picture), blank: Cell(style: wall))
        if let block { canvas.fill(block, with: Cell(style: Style(background: .indexed(239)))) }
        return canvas
    }

    static let picture = Rect(x: 4, y: 2, width: 8, height: 4)

    @Test(arguments: [Rect(x: 20, y: 2, width: 10, height: 1), Rect(x: 20, y: 2, width: 20, height: 1),
                      Rect(x: 0, y: 2, width: 3, height: 1), Rect(x: 13, y: 0, width: 27, height: 10)])
    func aFrameNeverWritesOrErasesTheCellsUnderAPictureItKept(block: Rect) throws {
        let pty = try PseudoTerminal(width: 40, height: 10)
        let backend = try open(pty, ["TERM": "xterm-256color"])
        defer { backend.restore() }
        backend.draw(Self.pictureFrame(block: block))
        _ = pty.output()
        // The block goes: its row is the wall and the picture, which stays.
        backend.draw(Self.pictureFrame(block: nil))
        let output = pty.output()
        var screen = TouchedCells(width: 40, height: 10)
        screen.read(output)
        #expect(screen.touched.count >= block.width * block.height, "the block's cells are written over: \(output.debugDescription)")
        let underPicture = screen.touched.filter { Self.picture.contains(x: $0.x, y: $0.y) }
        #expect(underPicture.isEmpty, "\(underPicture.count) cells under the picture written or erased: \(output.debugDescription)")
    }

    /// A picture placed where the last frame had the same blank cells: those cells become a
    /// picture's (written once), and a later frame leaves them alone too.
    @Test func cellsThatBecomeAPicturesAreKeptFromTheNextFramesErases() throws {
        let pty = try PseudoTerminal(width: 40, height: 10)
        let backend = try open(pty, ["TERM": "xterm-256color"])
        defer { backend.restore() }
        var bare = Canvas(width: 40, height: 10, fill: Cell(style: Self.wall))
        bare.fill(Rect(x: 20, y: 2, width: 10, height: 1), with: Cell(style: Style(background: .indexed(239))))
        backend.draw(bare)
        backend.draw(Self.pictureFrame(block: Rect(x: 20, y: 2, width: 10, height: 1)))
        _ = pty.output()
        backend.draw(Self.pictureFrame(block: nil))
        var screen = TouchedCells(width: 40, height: 10)
        screen.read(pty.output())
        #expect(!screen.touched.isEmpty)
        #expect(!screen.touched.contains { Self.picture.contains(x: $0.x, y: $0.y) })
    }
}

/// The cells a terminal's output writes or erases, for what ncurses sends an xterm: cursor
/// moves, text, erases (EL, ED, ECH), REP, and anything that shifts cells (which counts
/// as touching all it shifts).
struct TouchedCells {
    struct Point: Hashable { var x: Int, y: Int }
    let width: Int, height: Int
    private(set) var touched: Set<Point> = []
    private var x = 0, y = 0, saved = (x: 0, y: 0)

    init(width: Int, height: Int) { self.width = width; self.height = height }

    private mutating func touch(_ columns: Range<Int>, row: Int) {
        guard row >= 0, row < height else { return }
        for column in max(0, columns.lowerBound)..<max(max(0, columns.lowerBound), min(width, columns.upperBound)) {
            touched.insert(Point(x: column, y: row))
        }
    }

    private mutating func touchRows(_ rows: Range<Int>) {
        for row in rows { touch(0..<width, row: row) }
    }

    mutating func read(_ output: String) {
        let scalars = Array(output.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\u{1B}":
                guard index < scalars.count else { return }
                let next = scalars[index]
                index += 1
                switch next {
                case "[":
                    var parameters = ""
                    while index < scalars.count, !(0x40...0x7E).contains(scalars[index].value) {
                        parameters.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                    guard index < scalars.count else { return }
                    let final = scalars[index]
                    index += 1
                    csi(final, parameters)
                case "7": saved = (x, y)
                case "8": (x, y) = saved
                case "(", ")": index += 1
                case "]", "P", "_":
                    // OSC, DCS, APC: to ST or BEL.
                    while index < scalars.count, scalars[index] != "\u{07}", !(scalars[index] == "\\" && scalars[index - 1] == "\u{1B}") {
                        index += 1
                    }
                    index += 1
                case "M", "D", "E": touchRows(0..<height)
                default: break
                }
            case "\r": x = 0
            case "\n": y = min(height - 1, y + 1)
            case "\u{08}": x = max(0, x - 1)
            case "\t": x = min(width - 1, (x / 8 + 1) * 8)
            default:
                guard scalar.value >= 0x20, scalar.value != 0x7F else { continue }
                touch(x..<x + 1, row: y)
                x = min(width - 1, x + 1)
            }
        }
    }

    private mutating func csi(_ final: Unicode.Scalar, _ parameters: String) {
        guard !parameters.hasPrefix("?"), !parameters.hasPrefix(">") else { return }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        func number(_ at: Int, _ otherwise: Int) -> Int { at < numbers.count ? (numbers[at] ?? otherwise) : otherwise }
        switch final {
        case "H", "f": (y, x) = (number(0, 1) - 1, number(1, 1) - 1)
        case "d": y = number(0, 1) - 1
        case "G", "`": x = number(0, 1) - 1
        case "A": y = max(0, y - number(0, 1))
        case "B": y = min(height - 1, y + number(0, 1))
        case "C": x = min(width - 1, x + number(0, 1))
        case "D": x = max(0, x - number(0, 1))
        case "X": touch(x..<x + max(1, number(0, 1)), row: y)
        case "K":
            switch number(0, 0) {
            case 0: touch(x..<width, row: y)
            case 1: touch(0..<x + 1, row: y)
            default: touch(0..<width, row: y)
            }
        case "J":
            switch number(0, 0) {
            case 0: touch(x..<width, row: y); touchRows(y + 1..<height)
            case 1: touchRows(0..<y); touch(0..<x + 1, row: y)
            default: touchRows(0..<height)
            }
        case "@", "P": touch(x..<width, row: y)
        case "L", "M", "S", "T": touchRows(0..<height)
        case "b":
            let count = max(1, number(0, 1))
            touch(x..<x + count, row: y)
            x = min(width - 1, x + count)
        default: break
        }
    }
}
