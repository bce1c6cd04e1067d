import Imaging

/// `newsstand-pdf draw [limits] --page N --columns C --rows R --colors C --symbols S
/// --cell-aspect A [--letterbox] --wall-seconds W [--misbehave FAULT] -- FILE`: one page
/// drawn as half-block cells by the worker's executable alone, which `newsstand render
/// FILE.pdf` execs in its own place (`PDFWorker.drawInstead`).
package struct DrawRequest: Equatable {
    package var document: String
    /// 1 is the first page, as `render --page` counts.
    package var page: Int
    package var options: RenderOptions
    /// The worker's limits (its CPU time for this one page, its address space).
    package var limits: WorkerOptions
    /// How long the page may take before it is given up.
    package var wallSeconds: Int
    /// A test fault, honoured only with `limits.testFaults`.
    package var misbehave: Misbehaviour?

    package init(document: String, page: Int, options: RenderOptions, limits: WorkerOptions, wallSeconds: Int,
                 misbehave: Misbehaviour? = nil) {
        self.document = document
        self.page = page
        self.options = options
        self.limits = limits
        self.wallSeconds = wallSeconds
        self.misbehave = misbehave
    }

    package var arguments: [String] {
        ["draw"] + limits.arguments + [
            "--page", String(page), "--columns", String(options.columns), "--rows", String(options.rows),
            "--colors", options.colorMode.rawValue, "--symbols", options.symbols.rawValue,
            "--cell-aspect", String(options.cellAspect), "--wall-seconds", String(wallSeconds),
        ] + (options.letterbox ? ["--letterbox"] : []) + (misbehave.map { ["--misbehave", $0.rawValue] } ?? []) + ["--", document]
    }

    /// What `arguments` wrote; nil for any other command line (the worker's own).
    package init?(arguments: [String]) {
        guard arguments.first == "draw" else { return nil }
        var rest = arguments.dropFirst()
        var limitWords: [String] = []
        var page: Int?, columns: Int?, rows: Int?, colors: ColorMode?, symbols: Symbols?, aspect: Double?, wall: Int?
        var letterbox = false, misbehave: Misbehaviour?, document: String?
        while let word = rest.popFirst() {
            switch word {
            case "--page": page = rest.popFirst().flatMap { Int($0) }
            case "--columns": columns = rest.popFirst().flatMap { Int($0) }
            case "--rows": rows = rest.popFirst().flatMap { Int($0) }
            case "--colors": colors = rest.popFirst().flatMap(ColorMode.init(rawValue:))
            case "--symbols": symbols = rest.popFirst().flatMap(Symbols.init(rawValue:))
            case "--cell-aspect": aspect = rest.popFirst().flatMap { Double($0) }
            case "--wall-seconds": wall = rest.popFirst().flatMap { Int($0) }
            case "--letterbox": letterbox = true
            case "--misbehave": misbehave = rest.popFirst().flatMap(Misbehaviour.init(rawValue:))
            case "--": document = rest.popFirst()
            default: limitWords.append(word)
            }
        }
        guard let page, page >= 1, let columns, let rows, let colors, let symbols, let aspect, let wall, let document else { return nil }
        self.init(document: document, page: page,
                  options: RenderOptions(columns: columns, rows: rows, colorMode: colors, symbols: symbols, cellAspect: aspect, letterbox: letterbox),
                  limits: WorkerOptions(arguments: limitWords), wallSeconds: wall, misbehave: misbehave)
    }
}
