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
        // 8 × 10 = 80 wide and 8 × 20 = 160 tall are kept by 3/8 scale (150 × 225), not 2/8 (100 × 150).
        #expect(ImageDecoder.oversampling == 8)
        let small = try ImageDecoder.decode(bytes, minimumSize: (width: 10, height: 20))
        #expect(small.width == 150 && small.height == 225)
        let tiny = try ImageDecoder.decode(bytes, minimumSize: (width: 5, height: 5))
        #expect(tiny.width == 50 && tiny.height == 75)
        let full = try ImageDecoder.decode(bytes, minimumSize: (width: 300, height: 300))
        #expect(full.width == 400 && full.height == 600)
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
        let bytes = try ImageEncoder.jpeg(Fixtures.gradient(width: 64, height: 64), progressive: true)
        let start = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        var end = start + 2 + (Int(bytes[start + 2]) << 8 | Int(bytes[start + 3]))
        while end + 1 < bytes.count, !(bytes[end] == 0xFF && bytes[end + 1] != 0 && !(0xD0...0xD7).contains(bytes[end + 1])) {
            end += 1
        }
        let scan = Array(bytes[start..<end])
        var hostile = Array(bytes[..<start])
        for _ in 0..<1000 { hostile += scan }
        hostile += bytes[start...]
        #expect(throws: ImageError(.corrupt, "corrupt JPEG: too many progressive scans")) {
            try ImageDecoder.decode(hostile)
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
