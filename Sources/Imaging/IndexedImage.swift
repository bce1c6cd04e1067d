/// An image as indices into a palette of at most 256 colours: what sixel sends.
public struct IndexedImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// sRGB colours, three bytes each.
    public let palette: [UInt8]
    /// One palette index per pixel, row by row.
    public let indices: [UInt8]

    /// `image` on xterm's 6×6×6 cube and 24 greys (the 16 themable system colours left out),
    /// Floyd–Steinberg dithered in linear light so areas keep their average light; each
    /// colour chosen by perceived difference (CIEDE2000). Transparency is shown over black.
    public static func xterm256(_ image: RGBAImage) -> IndexedImage {
        let width = image.width, height = image.height
        var indices = [UInt8](repeating: 0, count: width * height)
        let linear = Palette.xterm256.map { colour in
            SIMD3<Float>(ColorScience.linearFromSRGB8[Int(colour.0)], ColorScience.linearFromSRGB8[Int(colour.1)],
                         ColorScience.linearFromSRGB8[Int(colour.2)])
        }
        var current = [SIMD3<Float>](repeating: .zero, count: width + 2)
        var next = current
        // Nearest colours by 6-bit channels: CIEDE2000 over 240 entries is too slow per pixel.
        var nearest = [Int16](repeating: -1, count: 1 << 18)
        for y in 0..<height {
            let leftToRight = y % 2 == 0
            for step in 0..<width {
                let x = leftToRight ? step : width - 1 - step
                let offset = (y * width + x) * 4
                let alpha = Float(image.pixels[offset + 3]) / 255
                var wanted = SIMD3<Float>(ColorScience.linearFromSRGB8[Int(image.pixels[offset])],
                                          ColorScience.linearFromSRGB8[Int(image.pixels[offset + 1])],
                                          ColorScience.linearFromSRGB8[Int(image.pixels[offset + 2])]) * alpha + current[x + 1]
                wanted.clamp(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
                let r = ColorScience.srgb8(fromLinear: wanted.x), g = ColorScience.srgb8(fromLinear: wanted.y),
                    b = ColorScience.srgb8(fromLinear: wanted.z)
                let key = Int(r >> 2) << 12 | Int(g >> 2) << 6 | Int(b >> 2)
                if nearest[key] < 0 { nearest[key] = Int16(Palette.nearest256(r: r, g: g, b: b)) }
                let chosen = Int(nearest[key])
                indices[y * width + x] = UInt8(chosen)
                let error = (wanted - linear[chosen]) * Dithering.strength
                let ahead = leftToRight ? 1 : -1
                current[x + 1 + ahead] += error * (7.0 / 16)
                next[x + 1 - ahead] += error * (3.0 / 16)
                next[x + 1] += error * (5.0 / 16)
                next[x + 1 + ahead] += error * (1.0 / 16)
            }
            swap(&current, &next)
            for index in next.indices { next[index] = .zero }
        }
        return IndexedImage(width: width, height: height,
                            palette: Palette.xterm256.flatMap { [$0.0, $0.1, $0.2] }, indices: indices)
    }

    public init(width: Int, height: Int, palette: [UInt8], indices: [UInt8]) {
        self.width = width
        self.height = height
        self.palette = palette
        self.indices = indices
    }
}
