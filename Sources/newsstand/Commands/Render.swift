import ArgumentParser
import Foundation
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
        let environment = ProcessInfo.processInfo.environment
        let mode = colors.mode ?? ColorModeDetection.detectCurrent(environment: environment)
        let symbols = symbols?.symbols ?? (ColorModeDetection.prefersASCII(environment: environment) ? .ascii : .half)
        let size = size ?? Size.terminal ?? Size(columns: 40, rows: 20)
        let options = RenderOptions(columns: size.columns, rows: size.rows, colorMode: mode,
                                    symbols: symbols, letterbox: false)
        var failures: [String] = []
        for image in images {
            do {
                let url = URL(fileURLWithPath: image)
                let decoded = try ImageDecoder.decode(contentsOf: url, minimumSize: options.pixelSize)
                let picture = CoverRenderer.render(decoded, options: options)
                FileHandle.standardOutput.write(Data(picture.ansi().utf8))
            } catch let error as ImageError {
                // A file read error already names the file.
                failures.append(error.kind == .unreadable ? "\(error)" : "\(image): \(error)")
            }
        }
        // One line per bad file; ArgumentParser prints the last as "Error: ...".
        for failure in failures.dropLast() { FileHandle.standardError.write(Data("Error: \(failure)\n".utf8)) }
        if let last = failures.last { throw RenderFailure(last) }
    }

    func validate() throws {
        if images.isEmpty { throw ValidationError("Missing expected argument '<images> ...'") }
    }
}

/// A failure printed as one line, without ArgumentParser's usage text.
private struct RenderFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Render {
    struct Size: ExpressibleByArgument {
        var columns: Int
        var rows: Int

        init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
        }

        init?(argument: String) {
            let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
                  (1...1000).contains(columns), (1...1000).contains(rows) else { return nil }
            self.init(columns: columns, rows: rows)
        }

        /// The terminal's size less one row for the prompt, when standard output is one.
        static var terminal: Size? {
            var window = winsize()
            guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0,
                  window.ws_col > 0, window.ws_row > 1 else { return nil }
            return Size(columns: Int(window.ws_col), rows: Int(window.ws_row) - 1)
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
