import ArgumentParser
import Imaging

/// `newsstand render IMAGE...`: draws PNG or JPEG images with half blocks on standard output.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw PNG or JPEG images in the terminal with half-block characters."
    )

    @Argument(help: "The PNG or JPEG files to draw, one after the other.")
    var images: [String]

    @Option(help: "The largest size in character cells, COLSxROWS (default: fits the terminal).")
    var size: Size?

    @Option(help: "Colours (auto: from COLORTERM, terminfo and NO_COLOR).")
    var colors: Colors = .auto

    @Option(help: "Characters: ▀ half blocks, or ASCII (the default when the locale is not UTF-8).")
    var symbols: SymbolChoice?

    func run() throws {
        let request = RenderTool.Request(images: images, size: size?.cells, colorMode: colors.mode,
                                         symbols: symbols?.symbols)
        let status = RenderTool.run(request)
        if status != 0 { throw ExitCode(status) }
    }

    func validate() throws {
        if images.isEmpty { throw ValidationError("Missing expected argument '<images> ...'") }
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

    enum Colors: String, ExpressibleByArgument, CaseIterable {
        case auto, truecolor
        case palette256 = "256"
        case palette16 = "16"
        case none

        var mode: ColorMode? { self == .auto ? nil : ColorMode(rawValue: rawValue) }
    }

    enum SymbolChoice: String, ExpressibleByArgument, CaseIterable {
        case half, ascii

        var symbols: Symbols { self == .half ? .half : .ascii }
    }
}
