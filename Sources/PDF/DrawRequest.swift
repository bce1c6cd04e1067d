import Imaging

/// One page of one PDF drawn as half-block cells by the worker's executable itself
/// (`newsstand-pdf draw`, which `PDFWorker.draw` starts, under the worker's limits, and
/// hands this on its standard input).
package struct DrawRequest: Equatable {
    package var document: String
    /// 1 is the first page, as `render --page` counts.
    package var page: Int
    package var options: RenderOptions
    /// A test fault, honoured only by a drawer started with test faults.
    package var misbehave: Misbehaviour?

    package init(document: String, page: Int, options: RenderOptions, misbehave: Misbehaviour? = nil) {
        self.document = document
        self.page = page
        self.options = options
        self.misbehave = misbehave
    }

    /// The request as words: `--page N --columns C --rows R --colors C --symbols S
    /// --cell-aspect A [--letterbox] [--misbehave FAULT] -- FILE`.
    package var arguments: [String] {
        [
            "--page", String(page), "--columns", String(options.columns), "--rows", String(options.rows),
            "--colors", options.colorMode.rawValue, "--symbols", options.symbols.rawValue, "--cell-aspect", String(options.cellAspect),
        ] + (options.letterbox ? ["--letterbox"] : []) + (misbehave.map { ["--misbehave", $0.rawValue] } ?? []) + ["--", document]
    }

    /// What `arguments` wrote; nil when a word is missing or malformed.
    package init?(arguments: [String]) {
        var rest = arguments[...]
        var page: Int?, columns: Int?, rows: Int?, colors: ColorMode?, symbols: Symbols?, aspect: Double?
        var letterbox = false, misbehave: Misbehaviour?, document: String?
        while let word = rest.popFirst() {
            switch word {
            case "--page": page = rest.popFirst().flatMap { Int($0) }
            case "--columns": columns = rest.popFirst().flatMap { Int($0) }
            case "--rows": rows = rest.popFirst().flatMap { Int($0) }
            case "--colors": colors = rest.popFirst().flatMap(ColorMode.init(rawValue:))
            case "--symbols": symbols = rest.popFirst().flatMap(Symbols.init(rawValue:))
            case "--cell-aspect": aspect = rest.popFirst().flatMap { Double($0) }
            case "--letterbox": letterbox = true
            case "--misbehave": misbehave = rest.popFirst().flatMap(Misbehaviour.init(rawValue:))
            case "--": document = rest.popFirst()
            default: return nil
            }
        }
        guard let page, page >= 1, let columns, let rows, let colors, let symbols, let aspect, let document else { return nil }
        self.init(document: document, page: page,
                  options: RenderOptions(columns: columns, rows: rows, colorMode: colors, symbols: symbols, cellAspect: aspect, letterbox: letterbox),
                  misbehave: misbehave)
    }

    /// The words on the socket: a little-endian UInt32 length, then the words, each ended by a NUL.
    package var frame: [UInt8] {
        let words: [UInt8] = arguments.flatMap { Array($0.utf8) + [0] }
        return withUnsafeBytes(of: UInt32(words.count).littleEndian) { Array($0) } + words
    }

    /// The request `frame` carries, read from `descriptor`; nil when it closes first or the
    /// words are not a request.
    package static func read(from descriptor: Int32) -> DrawRequest? {
        guard let head = try? WorkerSocket.readExactly(4, from: descriptor) else { return nil }
        let length = Int(head[0]) | Int(head[1]) << 8 | Int(head[2]) << 16 | Int(head[3]) << 24
        guard length > 0, length <= maximumFrame, let words = try? WorkerSocket.readExactly(length, from: descriptor) else { return nil }
        return DrawRequest(arguments: words.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) })
    }

    /// A path and a few numbers: far below this.
    static let maximumFrame = 1 << 20
}
