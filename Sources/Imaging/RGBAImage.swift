/// A decoded picture: 8-bit sRGB red, green, blue and alpha, row-major, no padding.
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "RGBAImage needs width × height × 4 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A picture filled with one colour.
    public init(width: Int, height: Int, filledWith rgba: (UInt8, UInt8, UInt8, UInt8)) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            pixels[index] = rgba.0
            pixels[index + 1] = rgba.1
            pixels[index + 2] = rgba.2
            pixels[index + 3] = rgba.3
        }
        self.init(width: width, height: height, pixels: pixels)
    }
}

/// Why an image could not be decoded or rendered, in words a user can act on.
public struct ImageError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case unknownFormat
        case corrupt
        case tooLarge
        case unreadable
        /// A page of a kind of document no registered renderer draws.
        case unsupported
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    static let unknownFormat = ImageError(.unknownFormat, "not a PNG or JPEG image")
    static func corruptPNG(_ reason: String) -> ImageError { ImageError(.corrupt, "corrupt PNG: \(reason)") }
    static func corruptJPEG(_ reason: String) -> ImageError { ImageError(.corrupt, "corrupt JPEG: \(reason)") }
    static func tooLarge(width: Int, height: Int) -> ImageError {
        ImageError(.tooLarge, "image too large (\(width)×\(height))")
    }
}
