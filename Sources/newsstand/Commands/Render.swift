import ArgumentParser
import Imaging
import NewsstandKit
import PDF
import Pictures
import Terminal

/// `newsstand render IMAGE...`: draws PNG or JPEG images, or a page of a PDF, on standard
/// output: in real pixels where the terminal draws them (kitty, sixel, iTerm2), else with
/// half blocks. With `--output` it writes one as a PNG instead.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw PNG or JPEG images, or a page of a PDF, in the terminal: in pixels where it can, else with half blocks."
    )

    @Argument(help: "The PNG, JPEG or PDF files to draw, one after the other.")
    var images: [String]

    @Option(help: "The page of a PDF to draw (default: 1).")
    var page: Int?

    @Option(help: "The largest size in character cells, COLSxROWS (default: fits the terminal).")
    var size: Size?

    @Option(name: .customLong("images"),
            help: "Pictures: auto (asks the terminal), kitty, sixel, iterm2 or halfblock (default: config.toml's images, else auto).")
    var imagesChoice: ImagesChoice?

    @Option(help: "Write the picture (the PDF's page, or the image) to this PNG file instead of drawing it.")
    var output: String?

    @Option(help: "With --output: the box of pixels the picture is fitted into, WxH, as the reader draws it (default: a page at one pixel a point).")
    var pixels: Pixels?

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        if images.isEmpty { throw ValidationError("Missing expected argument '<images> ...'") }
        if let page, page < 1 { throw ValidationError("--page counts from 1") }
        if output != nil, images.count > 1 { throw ValidationError("--output writes one picture: give one file") }
        if pixels != nil, output == nil { throw ValidationError("--pixels is the size of --output's picture: give --output too") }
    }

    /// One line per image that could not be drawn; the others are still drawn.
    func run() throws {
        if let output {
            do {
                try RenderTool.writePNG(of: images[0], page: page, fitting: pixels?.box, to: output)
            } catch {
                printProblem("\(error)")
                throw ExitCode.failure
            }
            return
        }
        let window = TerminalWindow.current()
        let terminal = TerminalCapabilities.current(window: window)
        let cells = size?.cells ?? RenderTool.CellSize.window(columns: window?.columns, rows: window?.rows)
        let options = RenderOptions(columns: cells.columns, rows: cells.rows,
                                    colorMode: display.colorMode(detected: terminal.colors),
                                    symbols: display.symbols(for: terminal), letterbox: false)
        let choice = try imagesChoice ?? Config.load(paths: Paths()).images.flatMap(ImagesChoice.init(rawValue:)) ?? .auto
        let detection = choice.asksTerminal ? GraphicsDetection.current(window: window) : .halfBlocks(window: window)
        if let advice = detection.advice { printProblem(advice) }
        let pixels = PixelPictures(graphics: choice.forced ?? detection.graphics, detection: detection).drawing(in: cells)
        // One PDF page in cells: the PDF worker's executable draws them itself.
        if pixels == nil, images.count == 1, page != nil || images[0].lowercased().hasSuffix(".pdf") {
            do {
                guard try PDFWorker.shared.draw(page: page ?? 1, of: images[0], options: options) else { throw ExitCode.failure }
                return
            } catch let error as PDFError {
                printProblem("\(images[0]): \(error)")
                throw ExitCode.failure
            }
        }
        guard RenderTool.run(images, page: page, options: options, pixels: pixels, report: printProblem) else { throw ExitCode.failure }
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

extension Render {
    struct Pixels: ExpressibleByArgument {
        var box: (width: Int, height: Int)

        init?(argument: String) {
            guard let box = RenderTool.pixelBox(argument) else { return nil }
            self.box = box
        }
    }
}

extension ImagesChoice: ExpressibleByArgument {}
