@testable import Imaging

/// Images made by the tests themselves.
enum Fixtures {
    /// A smooth colour gradient: red grows to the right, green downwards, blue constant.
    static func gradient(width: Int, height: Int, alpha: UInt8 = 255) -> RGBAImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), 96, alpha]
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// An image of horizontal bands, one colour per row of pixels.
    static func bands(width: Int, _ colours: [(UInt8, UInt8, UInt8)]) -> RGBAImage {
        var pixels = [UInt8]()
        for colour in colours {
            for _ in 0..<width { pixels += [colour.0, colour.1, colour.2, 255] }
        }
        return RGBAImage(width: width, height: colours.count, pixels: pixels)
    }

    static func checkerboard(width: Int, height: Int) -> RGBAImage {
        var pixels = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let value: UInt8 = (x + y) % 2 == 0 ? 0 : 255
                pixels += [value, value, value, 255]
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// CRC-32 (as PNG chunks use it), to forge chunk headers.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A PNG whose IHDR claims `width` × `height` (with a valid CRC) but whose data is tiny.
    static func pngClaiming(width: UInt32, height: UInt32) throws -> [UInt8] {
        var bytes = try ImageEncoder.png(gradient(width: 2, height: 2))
        // Signature (8), IHDR length (4), "IHDR" (4), width, height...
        bytes.replaceSubrange(16..<20, with: bigEndian(width))
        bytes.replaceSubrange(20..<24, with: bigEndian(height))
        let crc = crc32(bytes[12..<29])
        bytes.replaceSubrange(29..<33, with: bigEndian(crc))
        return bytes
    }

    /// A JPEG whose frame header claims `width` × `height`.
    static func jpegClaiming(width: UInt16, height: UInt16) throws -> [UInt8] {
        var bytes = try ImageEncoder.jpeg(gradient(width: 16, height: 16))
        guard let sof = (0..<(bytes.count - 1)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else {
            return bytes
        }
        bytes[sof + 5] = UInt8(height >> 8)
        bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8)
        bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }
}

extension Fixtures {
    /// A progressive JPEG with one of its scans repeated a thousand times. libjpeg only
    /// warns about a repeated scan and decodes it again: thousands would take seconds.
    static func endlessScansJPEG() throws -> [UInt8] {
        let bytes = try ImageEncoder.jpeg(gradient(width: 64, height: 64), progressive: true)
        guard let start = (0..<(bytes.count - 1)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }) else {
            return bytes
        }
        var end = start + 2 + (Int(bytes[start + 2]) << 8 | Int(bytes[start + 3]))
        while end + 1 < bytes.count, !(bytes[end] == 0xFF && bytes[end + 1] != 0 && !(0xD0...0xD7).contains(bytes[end + 1])) {
            end += 1
        }
        let scan = Array(bytes[start..<end])
        var hostile = Array(bytes[..<start])
        for _ in 0..<1000 { hostile += scan }
        hostile += bytes[start...]
        return hostile
    }
}

/// A deterministic pseudo-random sequence (tests must be repeatable).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
