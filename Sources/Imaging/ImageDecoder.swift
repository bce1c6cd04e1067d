import CImageCodecs
import Foundation

/// Decodes PNG and JPEG files into upright `RGBAImage`s (EXIF orientation applied). Any
/// bad input is an `ImageError`.
public enum ImageDecoder {
    /// Images with more pixels than this (or a side longer than `maximumSide`) are refused
    /// before anything is allocated: a cover never needs them, and a hostile header can
    /// claim gigapixels. (50 MP is 200 MB of RGBA; real covers are well under 20 MP.)
    public static let maximumPixels = 50_000_000
    public static let maximumSide = 32_768

    /// With `minimumSize`, a JPEG is decoded at the smallest DCT scale that keeps at least
    /// this many source pixels per target pixel in each direction. Scaled IDCT averages
    /// each block in gamma space, and no oversampling undoes that: on busy or finely
    /// detailed pictures (noise, 1-pixel stripes, small text) it costs 1–12 ΔE00 however
    /// many blocks a cell covers. Pictures drawn in cells (`drawnWith:`) are therefore
    /// decoded at full size; this is for previews that need only be close.
    public static let oversampling = 8

    public enum Format: Sendable, Equatable { case png, jpeg }

    /// The format named by the magic bytes at the start of `bytes`, if any.
    public static func sniff<Bytes: Collection>(_ bytes: Bytes) -> Format? where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(8))
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        return nil
    }

    /// Decodes PNG or JPEG bytes (sniffed by magic bytes). `minimumSize` is the pixel size
    /// the picture will be drawn at: a JPEG is then decoded at a DCT scale that keeps at
    /// least `oversampling` × that size, which is several times faster than full size.
    public static func decode(_ data: [UInt8], minimumSize: (width: Int, height: Int)? = nil) throws -> RGBAImage {
        try data.withUnsafeBufferPointer { try decode(buffer: UnsafeRawBufferPointer($0), minimumSize: minimumSize) }
    }

    public static func decode(_ data: Data, minimumSize: (width: Int, height: Int)? = nil) throws -> RGBAImage {
        try data.withUnsafeBytes { try decode(buffer: $0, minimumSize: minimumSize) }
    }

    /// Decodes PNG or JPEG bytes for drawing in cells with `options`: always at full size.
    /// A cell's colour must be the exact linear-light average of what it covers, and a
    /// DCT-scaled decode has already averaged 2×2 to 8×8 pixels in gamma space (a
    /// 2400×3600 busy photograph scored 1.5 ΔE00 at 30×22 from a 1/8 decode, 0.65 from
    /// 4/8). Entropy decoding, which no scale skips, is most of the cost anyway.
    public static func decode(_ data: [UInt8], drawnWith options: RenderOptions) throws -> RGBAImage {
        try decode(data)
    }

    public static func decode(contentsOf url: URL, minimumSize: (width: Int, height: Int)? = nil) throws -> RGBAImage {
        try decode(readBytes(atPath: url.path), minimumSize: minimumSize)
    }

    /// Any source as an upright picture for drawing at `size` pixels (nil: full size): a
    /// file or bytes decoded as above, a document's page drawn by the renderer registered
    /// for its kind in `documents`.
    public static func decode(_ source: ImageSource, size: (width: Int, height: Int)? = nil,
                              documents: DocumentRenderers = .shared) throws -> RGBAImage {
        switch source {
        case .file(let url): return try decode(readBytes(atPath: url.path), minimumSize: size)
        case .bytes(let image): return try decode(image.bytes, minimumSize: size)
        case .page(let page): return try documents.render(page, fitting: size)
        }
    }

    /// Any source for drawing in cells with `options`: a file or bytes decoded whole, a
    /// page drawn for the whole box.
    public static func decode(_ source: ImageSource, drawnWith options: RenderOptions,
                              documents: DocumentRenderers = .shared) throws -> RGBAImage {
        switch source {
        case .file(let url): return try decode(readBytes(atPath: url.path), drawnWith: options)
        case .bytes(let image): return try decode(image.bytes, drawnWith: options)
        case .page(let page): return try documents.render(page, fitting: options.pixelSize)
        }
    }

    /// Image files larger than this are refused unread (a cover is well under 10 MB).
    public static let maximumFileSize = 256 << 20

    /// The bytes of an image file; devices, pipes, directories and huge files are refused
    /// before reading, so `/dev/zero` or a FIFO cannot hang or exhaust the process.
    public static func readFile(_ url: URL) throws -> Data {
        Data(try readBytes(atPath: url.path))
    }

    /// `readFile` without Foundation: open (never blocking on a FIFO), check on the open
    /// descriptor that it is a regular file of sane size, then read it whole. The file is
    /// read rather than mapped, so a file truncated while we decode cannot fault.
    public static func readBytes(atPath path: String) throws -> [UInt8] {
        func failure(_ reason: String) -> ImageError { ImageError(.unreadable, "cannot read \(path): \(reason)") }
        func systemReason() -> String {
            switch errno {
            case ENOENT: return "no such file"
            case EACCES, EPERM: return "permission denied"
            default: return String(cString: strerror(errno)).lowercased()
            }
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(systemReason()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(systemReason()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw failure("not a regular file") }
        let size = Int(info.st_size)
        guard size <= maximumFileSize else {
            throw ImageError(.tooLarge, "\(path) is too large for an image (\(size >> 20) MB)")
        }
        // The file may grow or shrink while it is read: read what is there, up to the limit.
        var bytes = [UInt8](repeating: 0, count: size)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw failure(systemReason())
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    static func decode(buffer: UnsafeRawBufferPointer, minimumSize: (width: Int, height: Int)?) throws -> RGBAImage {
        try decode(buffer: buffer) { _, _ in minimumSize }
    }

    /// `minimumSize`: given the image's size, the pixel size it will be drawn at, if known.
    static func decode(buffer: UnsafeRawBufferPointer,
                       minimumSize: (_ width: Int, _ height: Int) -> (width: Int, height: Int)?) throws -> RGBAImage {
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let format = sniff(buffer) else { throw ImageError.unknownFormat }
        // Turned upright as its EXIF Orientation says; the size asked for is the upright one.
        let orientation = ExifOrientation.of(buffer)
        let image: RGBAImage
        switch format {
        case .png: image = try decodePNG(base, buffer.count)
        case .jpeg:
            image = try decodeJPEG(base, buffer.count) { width, height in
                guard orientation.swapsSides else { return minimumSize(width, height) }
                return minimumSize(height, width).map { (width: $0.height, height: $0.width) }
            }
        }
        return image.oriented(orientation)
    }

    private static func decodePNG(_ data: UnsafePointer<UInt8>, _ size: Int) throws -> RGBAImage {
        var error = ErrorBuffer()
        var width: UInt32 = 0, height: UInt32 = 0
        guard error.call({ ns_png_info(data, size, &width, &height, $0, $1) }) else {
            throw ImageError.corruptPNG(error.message)
        }
        try checkSize(Int(width), Int(height))
        guard error.call({ ns_png_plausible(data, size, $0, $1) }) else { throw ImageError.corruptPNG(error.message) }
        let pixels = try [UInt8](unsafeUninitializedCapacity: Int(width) * Int(height) * 4) { buffer, count in
            guard error.call({ ns_png_decode(data, size, buffer.baseAddress, width, height, $0, $1) }) else {
                throw ImageError.corruptPNG(error.message)
            }
            count = buffer.count
        }
        return RGBAImage(width: Int(width), height: Int(height), pixels: pixels)
    }

    private static func decodeJPEG(_ data: UnsafePointer<UInt8>, _ size: Int,
                                   minimumSize: (Int, Int) -> (width: Int, height: Int)?) throws -> RGBAImage {
        var error = ErrorBuffer()
        var width: UInt32 = 0, height: UInt32 = 0, outWidth: UInt32 = 0, outHeight: UInt32 = 0
        guard error.call({ ns_jpeg_info(data, size, 8, &width, &height, &outWidth, &outHeight, $0, $1) }) else {
            throw ImageError.corruptJPEG(error.message)
        }
        try checkSize(Int(width), Int(height))
        // Every 8×8 block of a scan costs at least a bit; a flat, progressive picture still
        // spends about 25 bits a block. Far fewer bytes than that is a header without its
        // image (libjpeg would paint grey), and a hostile one can claim 50 megapixels.
        let blocks = ((Int(width) + 7) / 8) * ((Int(height) + 7) / 8)
        if size * 256 < blocks {
            throw ImageError.corruptJPEG("\(size) bytes cannot hold a \(width)×\(height) picture (file truncated?)")
        }
        var scale: Int32 = 8
        if let target = minimumSize(Int(width), Int(height)), target.width > 0, target.height > 0 {
            scale = Int32(dctScale(width: Int(width), height: Int(height),
                                   keeping: (target.width * oversampling, target.height * oversampling)))
            if scale != 8 {
                guard error.call({ ns_jpeg_info(data, size, scale, &width, &height, &outWidth, &outHeight, $0, $1) })
                else { throw ImageError.corruptJPEG(error.message) }
            }
        }
        let pixels = try [UInt8](unsafeUninitializedCapacity: Int(outWidth) * Int(outHeight) * 4) { buffer, count in
            guard error.call({ ns_jpeg_decode(data, size, scale, buffer.baseAddress, outWidth, outHeight, $0, $1) })
            else { throw ImageError.corruptJPEG(error.message) }
            count = buffer.count
        }
        return RGBAImage(width: Int(outWidth), height: Int(outHeight), pixels: pixels)
    }

    /// The smallest numerator n of the DCT scale n/8 (1, 2, 4 or 8) whose output still has
    /// at least `keeping` pixels in each direction (8 when even full size is smaller).
    /// libjpeg-turbo has SIMD code for these four scales only: 5/8 took 3.5 ms on a
    /// 900×600 cover where 8/8 took 2.5 ms and 4/8 1.8 ms.
    static func dctScale(width: Int, height: Int, keeping: (Int, Int)) -> Int {
        for numerator in [1, 2, 4, 8] {
            let scaledWidth = (width * numerator + 7) / 8
            let scaledHeight = (height * numerator + 7) / 8
            if scaledWidth >= keeping.0 && scaledHeight >= keeping.1 { return numerator }
        }
        return 8
    }

    private static func checkSize(_ width: Int, _ height: Int) throws {
        if width <= 0 || height <= 0 { throw ImageError(.corrupt, "image has no pixels (\(width)×\(height))") }
        if width > maximumSide || height > maximumSide || width * height > maximumPixels {
            throw ImageError.tooLarge(width: width, height: height)
        }
    }
}

/// A C error-message buffer that outlives one codec call.
private struct ErrorBuffer {
    private var bytes = [CChar](repeating: 0, count: Int(NS_ERR_LEN))

    /// Runs a codec call with the buffer; true when it returned 0.
    mutating func call(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> Bool {
        bytes.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) } == 0
    }

    var message: String {
        let text = bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return text.isEmpty ? "unreadable data" : text
    }
}
