import ArgumentParser
import Imaging
import Terminal

/// `newsstand render IMAGE...`: draws PNG or JPEG images, or a page of a PDF, with half
/// blocks on standard output.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw PNG or JPEG images, or a page of a PDF, in the terminal with half-block characters."
    )

    @Argument(help: "The PNG, JPEG or PDF files to draw, one after the other.")
    var images: [String]

    @Option(help: "The page of a PDF to draw (default: 1).")
    var page: Int?

    @Option(help: "The largest size in character cells, COLSxROWS (default: fits the terminal).")
    var size: Size?

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        if images.isEmpty { throw ValidationError("Missing expected argument '<images> ...'") }
        if let page, page < 1 { throw ValidationError("--page counts from 1") }
    }

    /// One line per image that could not be drawn; the others are still drawn.
    func run() throws {
        let window = TerminalWindow.current()
        let terminal = TerminalCapabilities.current(window: window)
        let cells = size?.cells ?? RenderTool.CellSize.window(columns: window?.columns, rows: window?.rows)
        let options = RenderOptions(columns: cells.columns, rows: cells.rows,
                                    colorMode: display.colorMode(detected: terminal.colors),
                                    symbols: display.symbols(for: terminal), letterbox: false)
        guard RenderTool.run(images, page: page, options: options, report: printProblem) else { throw ExitCode.failure }
    }
}

extension Render {
    struct Size: ExpressibleByArgument {
        var cells: RenderTool.CellSize

        init?(argument: String) {
            guard let cells = RenderTool.CellSize(argument: argument) else { return nil }
            self.cells = cells
        }
    }
}
