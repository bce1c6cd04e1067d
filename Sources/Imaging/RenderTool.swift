#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `newsstand render IMAGE... [--size COLSxROWS] [--colors …] [--symbols …]`: the work of
/// the command, and a parser for its plain forms that the executable uses before its
/// general command-line parser, whose reflection over every command cost more
/// instructions than decoding and drawing a cover. Anything this parser does not
/// recognise (help, mistakes, unknown options) is left to the general parser, so users
/// get the same usage messages.
public enum RenderTool {
    public struct Request: Equatable, Sendable {
        public var images: [String]
        /// The largest size in cells; nil: the terminal's size (less a row for the prompt).
        public var size: CellSize?
        /// nil: detected from the environment and terminfo.
        public var colorMode: ColorMode?
        /// nil: half blocks, or ASCII when the locale is not UTF-8.
        public var symbols: Symbols?

        public init(images: [String], size: CellSize? = nil, colorMode: ColorMode? = nil, symbols: Symbols? = nil) {
            self.images = images
            self.size = size
            self.colorMode = colorMode
            self.symbols = symbols
        }
    }

    public struct CellSize: Equatable, Sendable {
        public var columns: Int
        public var rows: Int

        public init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
        }

        /// `COLSxROWS`, each 1...1000.
        public init?(argument: String) {
            let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
                  (1...1000).contains(columns), (1...1000).contains(rows) else { return nil }
            self.init(columns: columns, rows: rows)
        }

        /// The terminal's size less one row for the prompt, when standard output is one.
        public static var terminal: CellSize? {
            var window = winsize()
            guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0,
                  window.ws_col > 0, window.ws_row > 1 else { return nil }
            return CellSize(columns: Int(window.ws_col), rows: Int(window.ws_row) - 1)
        }

        /// When neither `--size` nor a terminal says.
        public static let fallback = CellSize(columns: 40, rows: 20)
    }

    /// `--colors` values: `auto` (nil) or a mode's raw value.
    public static func colorMode(argument: String) -> ColorMode?? {
        argument == "auto" ? .some(nil) : ColorMode(rawValue: argument).map { .some($0) }
    }

    /// The request for `arguments` (starting with "render"), or nil when they are not a
    /// plain, valid render command line.
    public static func parse<Arguments: Collection>(_ arguments: Arguments) -> Request?
    where Arguments.Element == String {
        guard arguments.first == "render" else { return nil }
        var request = Request(images: [])
        var rest = arguments.dropFirst()[...]
        var onlyImages = false
        while let argument = rest.popFirst() {
            if onlyImages || !argument.hasPrefix("-") || argument == "-" {
                request.images.append(argument)
                continue
            }
            if argument == "--" {
                onlyImages = true
                continue
            }
            var name = Substring(argument), value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = argument[..<equals]
                value = String(argument[argument.index(after: equals)...])
            } else {
                value = rest.popFirst()
            }
            guard let value else { return nil }
            switch name {
            case "--size":
                guard let size = CellSize(argument: value) else { return nil }
                request.size = size
            case "--colors":
                guard let mode = colorMode(argument: value) else { return nil }
                request.colorMode = mode
            case "--symbols":
                guard let symbols = Symbols(rawValue: value) else { return nil }
                request.symbols = symbols
            default:
                return nil
            }
        }
        return request.images.isEmpty ? nil : request
    }

    /// The render options for a request in the current environment.
    public static func options(for request: Request, environment: [String: String]) -> RenderOptions {
        let mode = request.colorMode ?? ColorModeDetection.detectCurrent(environment: environment)
        let symbols = request.symbols ?? (ColorModeDetection.prefersASCII(environment: environment) ? .ascii : .half)
        let size = request.size ?? CellSize.terminal ?? CellSize.fallback
        return RenderOptions(columns: size.columns, rows: size.rows, colorMode: mode, symbols: symbols, letterbox: false)
    }

    /// Draws every image of the request: the pictures' bytes, and one message per image
    /// that could not be drawn (which names the file).
    public static func render(_ request: Request, options: RenderOptions) -> (output: [UInt8], failures: [String]) {
        var output: [UInt8] = []
        var failures: [String] = []
        for image in request.images {
            do {
                let decoded = try ImageDecoder.decode(ImageDecoder.readBytes(atPath: image), drawnWith: options)
                CoverRenderer.render(decoded, options: options).appendANSI(to: &output)
            } catch let error as ImageError {
                // A file read error already names the file.
                failures.append(error.kind == .unreadable ? "\(error)" : "\(image): \(error)")
            } catch {
                failures.append("\(image): \(error)")
            }
        }
        return (output, failures)
    }

    /// Runs the command: the pictures on standard output in one write, an `Error: …` line
    /// on standard error per image that failed (the images after a bad one are still
    /// drawn). Returns the exit status: 1 if any failed.
    public static func run(_ request: Request, output: Int32 = STDOUT_FILENO, errors: Int32 = STDERR_FILENO) -> Int32 {
        let options = options(for: request, environment: ColorModeDetection.currentEnvironment)
        let (pictures, failures) = render(request, options: options)
        var status: Int32 = writeAll(pictures, to: output) ? 0 : 1
        if !failures.isEmpty {
            var message: [UInt8] = []
            for failure in failures { message += Array("Error: \(failure)\n".utf8) }
            _ = writeAll(message, to: errors)
            status = 1
        }
        return status
    }

    /// Writes all bytes (retrying short writes); false on an error such as a closed pipe.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
