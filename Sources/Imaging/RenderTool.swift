import FileWrites
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `newsstand render IMAGE...`: the work of the command once its options are settled
/// (the executable parses them and asks the terminal what it shows).
public enum RenderTool {
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

        /// The size to draw in for a terminal window of `columns`×`rows` (nil: not a
        /// terminal): all of it less one row for the prompt, else `fallback`.
        public static func window(columns: Int?, rows: Int?) -> CellSize {
            guard let columns, let rows, columns > 0, rows > 1 else { return fallback }
            return CellSize(columns: columns, rows: rows - 1)
        }

        /// When neither `--size` nor a terminal says.
        public static let fallback = CellSize(columns: 40, rows: 20)
    }

    /// How pictures reach the terminal in pixels (kitty, sixel, iTerm2): the box of pixels
    /// each is fitted into, and the bytes that draw a fitted picture (from Pictures, which
    /// knows the protocols; Imaging only decodes and fits).
    public struct PixelDrawing {
        public var box: (width: Int, height: Int)
        public var draw: (RGBAImage) throws -> [UInt8]

        public init(box: (width: Int, height: Int), draw: @escaping (RGBAImage) throws -> [UInt8]) {
            self.box = box
            self.draw = draw
        }
    }

    /// Draws every image: the pictures' bytes, and one message per image that could not be
    /// drawn (which names the file). In half blocks as `options` say, or in pixels when
    /// `pixels` is given.
    /// `page` (1 is the first) is the page drawn of a document (a `.pdf`, or any file when
    /// `page` is given); documents without it show their first page.
    public static func render(_ images: [String], page: Int? = nil, options: RenderOptions, pixels: PixelDrawing? = nil,
                              documents: DocumentRenderers = .shared) -> (output: [UInt8], failures: [String]) {
        var output: [UInt8] = []
        var failures: [String] = []
        for image in images {
            do {
                let isDocument = page != nil || image.lowercased().hasSuffix(".pdf")
                let source: ImageSource? = isDocument
                    ? ImageSource.page(max(1, page ?? 1) - 1, of: URL(fileURLWithPath: image), kind: .pdf) : nil
                if let pixels {
                    let decoded = try source.map { try ImageDecoder.decode($0, size: pixels.box, documents: documents) }
                        ?? ImageDecoder.decode(ImageDecoder.readBytes(atPath: image), minimumSize: pixels.box)
                    output += try pixels.draw(PixelFitting.fitted(decoded, into: pixels.box))
                } else {
                    let decoded = try source.map { try ImageDecoder.decode($0, drawnWith: options, documents: documents) }
                        ?? ImageDecoder.decode(ImageDecoder.readBytes(atPath: image), drawnWith: options)
                    CoverRenderer.render(decoded, options: options).appendANSI(to: &output)
                }
            } catch {
                failures.append(problem(error, drawing: image))
            }
        }
        return (output, failures)
    }

    /// What went wrong drawing `image`, in a line that names it.
    static func problem(_ error: Error, drawing image: String) -> String {
        // A file read error already names the file.
        if let error = error as? ImageError, error.kind == .unreadable { return "\(error)" }
        return "\(image): \(error)"
    }

    /// `render FILE --output PICTURE.png [--pixels WxH]`: the picture (a document's page, or
    /// an image) as the reader draws it into a box of `box` pixels, written as a PNG to
    /// `output`. Without a box a page is one pixel a point and an image its own size.
    /// Throws `RenderTool.Failure`, whose message names the file that failed.
    public static func writePNG(of image: String, page: Int? = nil, fitting box: (width: Int, height: Int)?, to output: String,
                                documents: DocumentRenderers = .shared) throws {
        let png: [UInt8]
        do {
            let isDocument = page != nil || image.lowercased().hasSuffix(".pdf")
            let decoded = isDocument
                ? try ImageDecoder.decode(.page(max(1, page ?? 1) - 1, of: URL(fileURLWithPath: image), kind: .pdf), size: box, documents: documents)
                : try ImageDecoder.decode(ImageDecoder.readBytes(atPath: image), minimumSize: box)
            png = try ImageEncoder.png(box.map { PixelFitting.fitted(decoded, into: $0) } ?? decoded)
        } catch {
            throw Failure(message: problem(error, drawing: image))
        }
        do {
            try AtomicFile.write(Data(png), to: URL(fileURLWithPath: output))
        } catch {
            throw Failure(message: "\(output): \(error)")
        }
    }

    /// A picture that could not be drawn or written, in one line naming the file.
    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// `WxH` pixels, each 1...10000.
    public static func pixelBox(_ argument: String) -> (width: Int, height: Int)? {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (1...10_000).contains(width), (1...10_000).contains(height) else { return nil }
        return (width, height)
    }

    /// Runs the command: the pictures on standard output in one write, and each image that
    /// failed handed to `report` (the images after a bad one are still drawn). False when
    /// any failed or the output could not be written. `drawn` is called once the pictures
    /// are drawn, before they are written.
    public static func run(_ images: [String], page: Int? = nil, options: RenderOptions, pixels: PixelDrawing? = nil,
                           documents: DocumentRenderers = .shared, output: Int32 = STDOUT_FILENO,
                           drawn: () -> Void = {}, report: (String) -> Void) -> Bool {
        let (pictures, failures) = render(images, page: page, options: options, pixels: pixels, documents: documents)
        drawn()
        let written = writeAll(pictures, to: output)
        failures.forEach(report)
        return written && failures.isEmpty
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
