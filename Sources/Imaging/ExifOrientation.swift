/// The EXIF `Orientation` tag (0x0112): how the stored pixels must be turned to stand
/// upright. Cameras and phones store a portrait photo sideways and set 6 or 8; a cover
/// photographed on a phone would otherwise lie on its side.
public enum ExifOrientation: Int, Sendable, Equatable, CaseIterable {
    case up = 1, mirrored = 2, upsideDown = 3, upsideDownMirrored = 4
    case leftMirrored = 5, right = 6, rightMirrored = 7, left = 8

    /// True when upright the image is as wide as it is stored tall (5–8).
    public var swapsSides: Bool { rawValue >= 5 }

    /// The orientation a PNG or JPEG file declares (`up` when none, or when the metadata
    /// cannot be read: a damaged tag never stops the picture being drawn).
    public static func of<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> ExifOrientation
    where Bytes.Element == UInt8, Bytes.Index == Int {
        switch ImageDecoder.sniff(bytes) {
        case .jpeg?: return fromJPEG(bytes) ?? .up
        case .png?: return fromPNG(bytes) ?? .up
        case nil: return .up
        }
    }

    /// JPEG: an APP1 segment starting "Exif\0\0", before the first scan.
    static func fromJPEG<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> ExifOrientation?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let start = bytes.startIndex, end = bytes.endIndex
        var offset = start + 2
        while offset + 4 <= end {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }  // the scan began: no more metadata
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= end else { return nil }
            let body = (offset + 4)..<(offset + 2 + length)
            if marker == 0xE1, body.count > 6,
               bytes[body.lowerBound..<(body.lowerBound + 6)].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) {
                return fromTIFF(bytes[(body.lowerBound + 6)..<body.upperBound])
            }
            offset += 2 + length
        }
        return nil
    }

    /// PNG: an eXIf chunk (TIFF data) before the image data.
    static func fromPNG<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> ExifOrientation?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var offset = bytes.startIndex + 8
        while offset + 12 <= bytes.endIndex {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            guard length <= bytes.endIndex - offset - 12 else { return nil }
            let type = bytes[(offset + 4)..<(offset + 8)]
            if type.elementsEqual("eXIf".utf8) { return fromTIFF(bytes[(offset + 8)..<(offset + 8 + length)]) }
            if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return nil }
            offset += 12 + length
        }
        return nil
    }

    /// The Orientation entry of the first image file directory of TIFF-structured data.
    static func fromTIFF<Bytes: RandomAccessCollection>(_ tiff: Bytes) -> ExifOrientation?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let base = tiff.startIndex
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[base], tiff[base + 1]) {
        case (0x49, 0x49): littleEndian = true   // "II"
        case (0x4D, 0x4D): littleEndian = false  // "MM"
        default: return nil
        }
        func read(_ at: Int, _ size: Int) -> Int? {
            guard at >= 0, size <= tiff.count, at <= tiff.count - size else { return nil }
            var value = 0
            for index in 0..<size {
                let byte = Int(tiff[base + at + (littleEndian ? size - 1 - index : index)])
                value = value << 8 | byte
            }
            return value
        }
        guard read(2, 2) == 42, let directory = read(4, 4), let count = read(directory, 2) else { return nil }
        for entry in 0..<min(count, 1000) {
            let at = directory + 2 + entry * 12
            guard let tag = read(at, 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT (3), one value, kept in the first two bytes of the value field.
            guard read(at + 2, 2) == 3, read(at + 4, 4) == 1, let value = read(at + 8, 2) else { return nil }
            return ExifOrientation(rawValue: value)
        }
        return nil
    }
}

extension RGBAImage {
    /// The image turned as `orientation` says, so that it stands upright.
    public func oriented(_ orientation: ExifOrientation) -> RGBAImage {
        if orientation == .up || width == 0 || height == 0 { return self }
        let outWidth = orientation.swapsSides ? height : width
        let outHeight = orientation.swapsSides ? width : height
        var out = [UInt8](repeating: 0, count: pixels.count)
        let w = width, h = height
        pixels.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // The stored pixel that shows at (x, y) once upright.
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .up: (sx, sy) = (x, y)
                        case .mirrored: (sx, sy) = (w - 1 - x, y)
                        case .upsideDown: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .upsideDownMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        let word = source.loadUnaligned(fromByteOffset: (sy * w + sx) * 4, as: UInt32.self)
                        target.storeBytes(of: word, toByteOffset: (y * outWidth + x) * 4, as: UInt32.self)
                    }
                }
            }
        }
        return RGBAImage(width: outWidth, height: outHeight, pixels: out)
    }
}
