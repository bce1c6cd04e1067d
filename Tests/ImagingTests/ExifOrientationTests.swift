import Testing
@testable import Imaging

@Suite struct ExifOrientationTests {
    /// 4 × 2 stored pixels, each a different colour (red channel = index).
    static let stored = RGBAImage(width: 4, height: 2, pixels: (0..<8).flatMap { [UInt8($0 * 30), 0, 0, 255] })

    /// The red channels of an image, row by row, as stored-pixel indices.
    static func indices(_ image: RGBAImage) -> [[Int]] {
        (0..<image.height).map { y in (0..<image.width).map { x in Int(image.pixels[(y * image.width + x) * 4]) / 30 } }
    }

    @Test func everyOrientationStandsUpright() {
        // Stored:  0 1 2 3
        //          4 5 6 7
        let expected: [ExifOrientation: [[Int]]] = [
            .up: [[0, 1, 2, 3], [4, 5, 6, 7]],
            .mirrored: [[3, 2, 1, 0], [7, 6, 5, 4]],
            .upsideDown: [[7, 6, 5, 4], [3, 2, 1, 0]],
            .upsideDownMirrored: [[4, 5, 6, 7], [0, 1, 2, 3]],
            .leftMirrored: [[0, 4], [1, 5], [2, 6], [3, 7]],
            .right: [[4, 0], [5, 1], [6, 2], [7, 3]],
            .rightMirrored: [[7, 3], [6, 2], [5, 1], [4, 0]],
            .left: [[3, 7], [2, 6], [1, 5], [0, 4]],
        ]
        for orientation in ExifOrientation.allCases {
            let upright = Self.stored.oriented(orientation)
            #expect(Self.indices(upright) == expected[orientation], "orientation \(orientation.rawValue)")
            #expect(upright.width == (orientation.swapsSides ? 2 : 4))
        }
    }

    /// TIFF data whose first directory holds `entries` (tag, type, count, value).
    static func tiff(littleEndian: Bool, entries: [(UInt16, UInt16, UInt32, UInt16)]) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] { littleEndian ? [0, 8, 16, 24].map { UInt8(v >> $0 & 0xFF) } : [24, 16, 8, 0].map { UInt8(v >> $0 & 0xFF) } }
        var bytes: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        bytes += u16(42) + u32(8) + u16(UInt16(entries.count))
        for (tag, type, count, value) in entries { bytes += u16(tag) + u16(type) + u32(count) + u16(value) + [0, 0] }
        return bytes + u32(0)
    }

    /// A JPEG with an APP1 Exif segment inserted after its SOI marker.
    static func jpeg(_ image: RGBAImage, exif: [UInt8]) throws -> [UInt8] {
        let plain = try ImageEncoder.jpeg(image, quality: 95)
        let body = [0x45, 0x78, 0x69, 0x66, 0, 0] + exif
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        return Array(plain[..<2]) + segment + Array(plain[2...])
    }

    @Test func jpegsAreTurnedByTheirExifTagInEitherByteOrder() throws {
        // A 40 × 20 picture: left half red, right half blue.
        var pixels: [UInt8] = []
        for _ in 0..<20 { for x in 0..<40 { pixels += x < 20 ? [220, 20, 20, 255] : [20, 20, 220, 255] } }
        let picture = RGBAImage(width: 40, height: 20, pixels: pixels)
        for littleEndian in [true, false] {
            let other = (UInt16(0x010F), UInt16(2), UInt32(4), UInt16(0))  // Make, before Orientation
            let tagged = try Self.jpeg(picture, exif: Self.tiff(littleEndian: littleEndian,
                                                                 entries: [other, (0x0112, 3, 1, 6)]))
            #expect(ExifOrientation.of(tagged) == .right)
            let upright = try ImageDecoder.decode(tagged)
            #expect(upright.width == 20 && upright.height == 40)
            // Turned clockwise, the left (red) half is now on top.
            #expect(upright.pixels[0] > 150 && upright.pixels[2] < 100)
            let bottom = (39 * 20 + 10) * 4
            #expect(upright.pixels[bottom] < 100 && upright.pixels[bottom + 2] > 150)
            // Decoded for a small frame, the DCT scale is chosen for the upright shape.
            let small = try ImageDecoder.decode(tagged, drawnWith: RenderOptions(columns: 2, rows: 2))
            #expect(small.width * 2 == small.height)
        }
    }

    @Test func pngsCarryItInAnEXIfChunk() throws {
        let png = try ImageEncoder.png(Self.stored)
        let data = Self.tiff(littleEndian: false, entries: [(0x0112, 3, 1, 8)])
        let body = Array("eXIf".utf8) + data
        let chunk = Fixtures.bigEndian(UInt32(data.count)) + body + Fixtures.bigEndian(Fixtures.crc32(body[...]))
        let tagged = Array(png[..<33]) + chunk + Array(png[33...])  // after IHDR
        #expect(ExifOrientation.of(tagged) == .left)
        #expect(Self.indices(try ImageDecoder.decode(tagged)) == [[3, 7], [2, 6], [1, 5], [0, 4]])
    }

    @Test func damagedOrOddMetadataLeavesThePictureAsStored() throws {
        let picture = Fixtures.gradient(width: 8, height: 4)
        let cases: [[UInt8]] = [
            Self.tiff(littleEndian: true, entries: [(0x0112, 3, 1, 9)]),   // no such orientation
            Self.tiff(littleEndian: true, entries: [(0x0112, 4, 1, 6)]),   // LONG, not SHORT
            Self.tiff(littleEndian: true, entries: [(0x0112, 3, 2, 6)]),   // two values
            [0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0x7F],                    // directory far away
            [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0xFF, 0xFF],                    // entries past the end
            [0x41, 0x41, 42, 0, 8, 0, 0, 0],                                // no byte order
            [],
        ]
        for exif in cases {
            let tagged = try Self.jpeg(picture, exif: exif)
            #expect(ExifOrientation.of(tagged) == .up)
            let decoded = try ImageDecoder.decode(tagged)
            #expect(decoded.width == 8 && decoded.height == 4)
        }
        // A segment length running past the end of the file.
        var cut = try Self.jpeg(picture, exif: Self.tiff(littleEndian: true, entries: [(0x0112, 3, 1, 6)]))
        cut[4] = 0xFF
        #expect(ExifOrientation.of(cut) == .up)
        #expect(ExifOrientation.of([0xFF, 0xD8, 0xFF]) == .up)
    }
}
