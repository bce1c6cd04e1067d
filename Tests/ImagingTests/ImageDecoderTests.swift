import CImageCodecs
import Foundation
import Testing
@testable import Imaging

@Suite struct ImageDecoderTests {
    @Test func pngRoundTripIsExact() throws {
        let image = Fixtures.gradient(width: 37, height: 23, alpha: 200)
        let decoded = try ImageDecoder.decode(try ImageEncoder.png(image))
        #expect(decoded == image)
    }

    @Test func jpegRoundTripIsClose() throws {
        let image = Fixtures.gradient(width: 64, height: 48)
        let bytes = try ImageEncoder.jpeg(image, quality: 95)
        #expect(ImageDecoder.sniff(bytes) == .jpeg)
        let decoded = try ImageDecoder.decode(bytes)
        #expect(decoded.width == 64 && decoded.height == 48)
        var largest = 0
        for index in decoded.pixels.indices {
            largest = max(largest, abs(Int(decoded.pixels[index]) - Int(image.pixels[index])))
        }
        #expect(largest <= 8, "JPEG at quality 95 differs by \(largest) levels")
    }

    @Test func jpegDecodesAtAReducedDCTScaleWhenTheTargetIsSmall() throws {
        let bytes = try ImageEncoder.jpeg(Fixtures.gradient(width: 400, height: 600))
        // 8 × 10 = 80 wide and 8 × 20 = 160 tall: 2/8 (100 × 150) is too short, so 4/8
        // (200 × 300), the next scale libjpeg-turbo has SIMD code for (3/8 is skipped).
        #expect(ImageDecoder.oversampling == 8)
        let small = try ImageDecoder.decode(bytes, minimumSize: (width: 10, height: 20))
        #expect(small.width == 200 && small.height == 300)
        let tiny = try ImageDecoder.decode(bytes, minimumSize: (width: 5, height: 5))
        #expect(tiny.width == 50 && tiny.height == 75)
        // 8 × 30 = 240 wide is more than 4/8 gives: full size, never 5/8, 6/8 or 7/8.
        let large = try ImageDecoder.decode(bytes, minimumSize: (width: 30, height: 10))
        #expect(large.width == 400 && large.height == 600)
        let full = try ImageDecoder.decode(bytes, minimumSize: (width: 300, height: 300))
        #expect(full.width == 400 && full.height == 600)
        for width in 1...60 {
            let scale = ImageDecoder.dctScale(width: 400, height: 600, keeping: (width * 8, width * 8))
            #expect([1, 2, 4, 8].contains(scale))
            #expect(scale == 8 || (400 * scale + 7) / 8 >= width * 8)
        }
    }

    @Test func picturesDrawnInCellsAreDecodedWhole() throws {
        // DCT scaling would average in gamma space (HalfBlockFidelityTests): a JPEG for
        // cells is decoded at full size however small the frame, as a PNG always is.
        let options = RenderOptions(columns: 30, rows: 22)
        let jpeg = try ImageEncoder.jpeg(Fixtures.gradient(width: 800, height: 400))
        let drawn = try ImageDecoder.decode(jpeg, drawnWith: options)
        #expect(drawn.width == 800 && drawn.height == 400)
        let png = try ImageEncoder.png(Fixtures.gradient(width: 80, height: 40))
        #expect(try ImageDecoder.decode(png, drawnWith: options).width == 80)
    }

    @Test func dataAndFileEntryPointsAgree() throws {
        let bytes = try ImageEncoder.png(Fixtures.gradient(width: 9, height: 5))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imaging-\(UUID().uuidString).png")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try ImageDecoder.decode(contentsOf: url) == ImageDecoder.decode(Data(bytes)))
    }

    @Test func missingFileIsAnErrorNamingIt() {
        let url = URL(fileURLWithPath: "/nonexistent/cover.png")
        #expect { try ImageDecoder.decode(contentsOf: url) } throws: { error in
            "\(error)".contains("/nonexistent/cover.png") && "\(error)".contains("no such file")
        }
    }

    @Test func devicesAndDirectoriesAreRefusedUnread() {
        for path in ["/dev/zero", "/tmp"] {
            #expect(throws: ImageError(.unreadable, "cannot read \(path): not a regular file")) {
                try ImageDecoder.decode(contentsOf: URL(fileURLWithPath: path))
            }
        }
    }

    @Test func otherBytesAreNotAnImage() {
        for bytes: [UInt8] in [[], Array("hello, world".utf8), [0x89, 0x50, 0x4E], [0xFF, 0xD8]] {
            #expect(throws: ImageError(.unknownFormat, "not a PNG or JPEG image")) { try ImageDecoder.decode(bytes) }
        }
    }

    @Test func truncatedPNGIsCorrupt() throws {
        let bytes = try ImageEncoder.png(Fixtures.gradient(width: 120, height: 90))
        for length in [9, 40, bytes.count / 2, bytes.count - 13] {
            #expect { try ImageDecoder.decode(Array(bytes.prefix(length))) } throws: { error in
                (error as? ImageError)?.kind == .corrupt && "\(error)".hasPrefix("corrupt PNG: ")
            }
        }
    }

    @Test func truncatedJPEGIsCorrupt() throws {
        let bytes = try ImageEncoder.jpeg(Fixtures.gradient(width: 120, height: 90))
        for length in [4, 100, bytes.count / 2, bytes.count - 2] {
            #expect { try ImageDecoder.decode(Array(bytes.prefix(length))) } throws: { error in
                (error as? ImageError)?.kind == .corrupt && "\(error)".hasPrefix("corrupt JPEG: ")
            }
        }
        let halfway = Array(bytes.prefix(bytes.count / 2))
        #expect(throws: ImageError(.corrupt, "corrupt JPEG: file is truncated")) { try ImageDecoder.decode(halfway) }
    }

    @Test func aJPEGHeaderClaimingFarMorePixelsThanItsBytesHoldIsRefused() throws {
        // A real 16×16 JPEG whose frame header is changed to say 4000×4000 (a few hundred
        // bytes for 250,000 blocks): refused before 64 MB are allocated and painted grey.
        var bytes = try ImageEncoder.jpeg(Fixtures.gradient(width: 16, height: 16))
        let frame = try #require((0..<(bytes.count - 9)).first { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2) })
        bytes.replaceSubrange((frame + 5)..<(frame + 9), with: [0x0F, 0xA0, 0x0F, 0xA0])
        #expect { try ImageDecoder.decode(bytes) } throws: { error in
            (error as? ImageError)?.kind == .corrupt && "\(error)".contains("cannot hold a 4000×4000 picture")
        }
        // A flat 1000×1500 picture is tiny for its size but well within the bound.
        let flat = try ImageEncoder.jpeg(RGBAImage(width: 1000, height: 1500, filledWith: (200, 30, 30, 255)), quality: 10)
        #expect(try ImageDecoder.decode(flat).width == 1000)
    }

    @Test func enormousDimensionsAreRefusedBeforeDecoding() throws {
        #expect(throws: ImageError(.tooLarge, "image too large (100000×100000)")) {
            try ImageDecoder.decode(try Fixtures.pngClaiming(width: 100_000, height: 100_000))
        }
        #expect(throws: ImageError(.tooLarge, "image too large (60000×60000)")) {
            try ImageDecoder.decode(try Fixtures.jpegClaiming(width: 60_000, height: 60_000))
        }
    }

    @Test func progressiveJPEGsDecode() throws {
        let image = Fixtures.gradient(width: 50, height: 40)
        let progressive = try ImageEncoder.jpeg(image, quality: 95, progressive: true)
        let baseline = try ImageEncoder.jpeg(image, quality: 95)
        #expect(progressive != baseline)
        let decoded = try ImageDecoder.decode(progressive)
        #expect(decoded.width == 50 && decoded.height == 40)
        #expect(zip(decoded.pixels, image.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 10 })
    }

    /// libjpeg only warns about a repeated scan and decodes it again: thousands of them
    /// would take seconds, so more than a few hundred scans is an error.
    @Test func endlessProgressiveScansAreRefused() throws {
        #expect(throws: ImageError(.corrupt, "corrupt JPEG: too many progressive scans")) {
            try ImageDecoder.decode(try Fixtures.endlessScansJPEG())
        }
    }

    @Test func damagedFilesNeverCrash() throws {
        var random = SplitMix64(state: 6)
        let sources = [try ImageEncoder.png(Fixtures.gradient(width: 40, height: 30)),
                       try ImageEncoder.jpeg(Fixtures.gradient(width: 40, height: 30))]
        var errors = 0
        for round in 0..<300 {
            var bytes = sources[round % 2]
            for _ in 0..<(1 + round % 8) {
                let index = Int.random(in: 2..<bytes.count, using: &random)
                bytes[index] = UInt8.random(in: 0...255, using: &random)
            }
            do {
                let image = try ImageDecoder.decode(bytes, minimumSize: (width: 4, height: 4))
                #expect(image.pixels.count == image.width * image.height * 4)
            } catch is ImageError {
                errors += 1
            }
        }
        #expect(errors > 0)
    }
}

@Suite struct PNGVariantTests {
    /// A minimal 16-bit RGB PNG, written by hand (our encoder writes 8-bit only).
    static func png16(width: Int, height: Int, sample: UInt16) throws -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return Fixtures.bigEndian(UInt32(data.count)) + body + Fixtures.bigEndian(Fixtures.crc32(body[...]))
        }
        var raw: [UInt8] = []
        for _ in 0..<height {
            raw.append(0)
            for _ in 0..<(width * 3) { raw += [UInt8(sample >> 8), UInt8(sample & 0xFF)] }
        }
        // A stored (uncompressed) deflate block inside a zlib stream.
        var zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(raw.count & 0xFF), UInt8(raw.count >> 8),
                             UInt8(~raw.count & 0xFF), UInt8((~raw.count >> 8) & 0xFF)]
        zlib += raw
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        zlib += Fixtures.bigEndian(b << 16 | a)
        let header = Fixtures.bigEndian(UInt32(width)) + Fixtures.bigEndian(UInt32(height)) + [16, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
            + chunk("IEND", [])
    }

    @Test func sixteenBitSamplesAreSRGBLikeEightBitOnes() throws {
        let image = try ImageDecoder.decode(try Self.png16(width: 3, height: 2, sample: 0x8080))
        #expect(image.width == 3 && image.height == 2)
        #expect(Array(image.pixels.prefix(4)) == [128, 128, 128, 255])
    }
}

/// Our own PNG loop (8-bit RGB/RGBA) must agree with libpng byte for byte.
@Suite struct PNGFastPathTests {
    /// An 8-bit PNG of `pixels` (3 or 4 channels) whose row `y` uses filter type `y % 5`,
    /// so that every filter is exercised, in stored (uncompressed) deflate blocks.
    static func filteredPNG(width: Int, height: Int, channels: Int, pixels: [UInt8],
                            declaredHeight: Int? = nil) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return Fixtures.bigEndian(UInt32(data.count)) + body + Fixtures.bigEndian(Fixtures.crc32(body[...]))
        }
        let stride = width * channels
        var raw: [UInt8] = []
        for y in 0..<height {
            let filter = y % 5
            raw.append(UInt8(filter))
            for i in 0..<stride {
                let x = Int(pixels[y * stride + i])
                let a = i >= channels ? Int(pixels[y * stride + i - channels]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * stride + i]) : 0
                let c = (y > 0 && i >= channels) ? Int(pixels[(y - 1) * stride + i - channels]) : 0
                let predictor: Int
                switch filter {
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: predictor = 0
                }
                raw.append(UInt8((x - predictor) & 0xFF))
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let last: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        zlib += Fixtures.bigEndian(b << 16 | a)
        let header = Fixtures.bigEndian(UInt32(width)) + Fixtures.bigEndian(UInt32(declaredHeight ?? height))
            + [8, channels == 4 ? 6 : 2, 0, 0, 0]
        // Split the data over two IDAT chunks, as encoders do for large images.
        let half = zlib.count / 2
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", Array(zlib[..<half])) + chunk("IDAT", Array(zlib[half...])) + chunk("IEND", [])
    }

    static func noise(count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(state: seed)
        // Smooth ramps plus noise: predictors matter, and every byte value occurs.
        return (0..<count).map { UInt8(truncatingIfNeeded: $0 / 3 + Int.random(in: 0...40, using: &random)) }
    }

    @Test(arguments: [3, 4])
    func everyFilterDecodesLikeLibpng(channels: Int) throws {
        for width in [1, 2, 37] { try everyFilterDecodesLikeLibpng(channels: channels, width: width) }
    }

    func everyFilterDecodesLikeLibpng(channels: Int, width: Int) throws {
        let height = 23
        let pixels = Self.noise(count: width * height * channels, seed: UInt64(channels))
        let png = Self.filteredPNG(width: width, height: height, channels: channels, pixels: pixels)
        let decoded = try ImageDecoder.decode(png)
        var expected: [UInt8] = []
        for index in 0..<(width * height) {
            expected += pixels[(index * channels)..<(index * channels + 3)]
            expected.append(channels == 4 ? pixels[index * channels + 3] : 255)
        }
        #expect(decoded == RGBAImage(width: width, height: height, pixels: expected))
        // And libpng, through its own path, agrees.
        var reference = [UInt8](repeating: 0, count: width * height * 4)
        var message = [CChar](repeating: 0, count: 200)
        let status = png.withUnsafeBufferPointer { data in
            ns_png_decode_libpng(data.baseAddress, data.count, &reference, UInt32(width), UInt32(height), &message, 200)
        }
        #expect(status == 0)
        #expect(reference == expected)
        // Both of our loop's paths took it, and agree.
        #expect(Self.decode(png, width: width, height: height, path: NS_PNG_PATH_WHOLE) == .success(expected))
        #expect(Self.decode(png, width: width, height: height, path: NS_PNG_PATH_STREAMED) == .success(expected))
    }

    enum PathResult: Equatable { case success([UInt8]), declined, failed }

    /// One of our loop's paths (the whole-buffer libdeflate one, or zlib a row at a time).
    static func decode(_ png: [UInt8], width: Int, height: Int, path: Int) -> PathResult {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var message = [CChar](repeating: 0, count: 200)
        let status = png.withUnsafeBufferPointer { data in
            ns_png_decode_path(data.baseAddress, data.count, &pixels, UInt32(width), UInt32(height), Int32(path),
                               &message, 200)
        }
        return status == 0 ? .success(pixels) : status == -1 ? .declined : .failed
    }

    @Test func extraImageDataAfterTheLastRowIsIgnoredLikeLibpngDoes() throws {
        // 9 rows of data for an image declared 8 rows tall: the whole-buffer inflate has
        // no room for it and hands over to the streaming loop, which stops after row 8.
        let width = 13
        let pixels = Self.noise(count: width * 9 * 3, seed: 21)
        let png = Self.filteredPNG(width: width, height: 9, channels: 3, pixels: pixels, declaredHeight: 8)
        let decoded = try ImageDecoder.decode(png)
        #expect(decoded.width == width && decoded.height == 8)
        var expected: [UInt8] = []
        for index in 0..<(width * 8) { expected += pixels[(index * 3)..<(index * 3 + 3)] + [255] }
        #expect(decoded.pixels == expected)
        #expect(Self.decode(png, width: width, height: 8, path: NS_PNG_PATH_WHOLE) == .declined)
        #expect(Self.decode(png, width: width, height: 8, path: NS_PNG_PATH_STREAMED) == .success(expected))
    }

    @Test func truncatedImageDataIsAnErrorOnEveryPath() throws {
        let width = 13
        let pixels = Self.noise(count: width * 8 * 3, seed: 22)
        // Data for 7 rows, 8 declared.
        let png = Self.filteredPNG(width: width, height: 7, channels: 3, pixels: Array(pixels.prefix(width * 7 * 3)),
                                   declaredHeight: 8)
        #expect(throws: ImageError.self) { try ImageDecoder.decode(png) }
        #expect(Self.decode(png, width: width, height: 8, path: NS_PNG_PATH_WHOLE) == .declined)
        #expect(Self.decode(png, width: width, height: 8, path: NS_PNG_PATH_STREAMED) == .failed)
    }

    @Test func libpngsOwnFilesDecodeTheSameThroughBothPaths() throws {
        for (width, height, alpha) in [(120, 90, UInt8(255)), (33, 71, 128), (1, 1, 255)] {
            var image = Fixtures.gradient(width: width, height: height, alpha: alpha)
            var random = SplitMix64(state: UInt64(width))
            for index in image.pixels.indices where index % 4 != 3 {
                image.pixels[index] = image.pixels[index] &+ UInt8.random(in: 0...30, using: &random)
            }
            #expect(try ImageDecoder.decode(ImageEncoder.png(image)) == image)
        }
    }

    @Test func damagedDataInOurPathIsAnError() throws {
        let pixels = Self.noise(count: 20 * 20 * 3, seed: 9)
        var png = Self.filteredPNG(width: 20, height: 20, channels: 3, pixels: pixels)
        png[60] ^= 0xFF  // inside the first IDAT: its CRC no longer matches
        #expect { try ImageDecoder.decode(png) } throws: { error in
            (error as? ImageError)?.kind == .corrupt && "\(error)".hasPrefix("corrupt PNG: ")
        }
    }
}
