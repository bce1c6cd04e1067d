import CImageCodecs

/// Writes `RGBAImage`s as PNG or JPEG files (for generated covers and test fixtures).
public enum ImageEncoder {
    public static func png(_ image: RGBAImage) throws -> [UInt8] {
        try encode(image) { rgba, out, size, error, length in
            ns_png_encode(rgba, UInt32(image.width), UInt32(image.height), out, size, error, length)
        }
    }

    /// A baseline (or progressive) JPEG; `quality` 1...100. Alpha is dropped.
    public static func jpeg(_ image: RGBAImage, quality: Int = 90, progressive: Bool = false) throws -> [UInt8] {
        try encode(image) { rgba, out, size, error, length in
            ns_jpeg_encode(rgba, UInt32(image.width), UInt32(image.height), Int32(min(max(quality, 1), 100)),
                           progressive ? 1 : 0, out, size, error, length)
        }
    }

    private static func encode(
        _ image: RGBAImage,
        _ body: (UnsafePointer<UInt8>, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                 UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= 65_500, image.height <= 65_500 else {
            throw ImageError(.tooLarge, "cannot encode an image of \(image.width)×\(image.height)")
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: Int(NS_ERR_LEN))
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            message.withUnsafeMutableBufferPointer { body(pixels.baseAddress!, &output, &size, $0.baseAddress!, $0.count) }
        }
        guard status == 0, let output else {
            throw ImageError(.corrupt, "cannot encode image: \(String(cString: message))")
        }
        defer { ns_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
