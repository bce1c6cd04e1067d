/// Error diffusion onto the 16 system colours.
///
/// Sixteen colours are too few for a cover: the nearest colour alone turns gradients
/// into flat bands. Floyd–Steinberg diffusion (serpentine, in linear light, so that the
/// average light of an area is kept) spreads each pixel's error to its neighbours; the
/// colour itself is chosen by perceived difference (CIEDE2000), as for 256 colours.
///
/// The terminal's real 16 colours are unknown (users theme them): xterm's defaults are
/// assumed, as the quality script does.
enum Dithering {
    /// Share of each pixel's error passed on: a little less than all of it keeps isolated
    /// specks out of flat areas (chosen on the shared covers, see benchmarks/HISTORY.md,
    /// "Imaging after issue 6, session 2").
    static let strength: Float = 0.85

    /// xterm's 16 default colours in linear light.
    static let systemLinear: [SIMD3<Float>] = (0..<16).map { index in
        let (r, g, b) = Palette.xterm256[index]
        return SIMD3(ColorScience.linearFromSRGB8[Int(r)], ColorScience.linearFromSRGB8[Int(g)],
                     ColorScience.linearFromSRGB8[Int(b)])
    }

    /// The palette index (0...15) of each pixel of a `width` × `height` grid, nil where the
    /// pixel is mostly transparent (it shows the terminal's background and passes no error).
    static func systemIndices(_ pixels: [LinearPixel], width: Int, height: Int,
                              strength: Float = strength) -> [UInt8?] {
        var result = [UInt8?](repeating: nil, count: pixels.count)
        guard width > 0, height > 0 else { return result }
        // Errors for this row and the next, with a pixel of margin on each side.
        var current = [SIMD3<Float>](repeating: .zero, count: width + 2)
        var next = current
        var cache: [UInt32: UInt8] = [:]
        for y in 0..<height {
            let leftToRight = y % 2 == 0
            for step in 0..<width {
                let x = leftToRight ? step : width - 1 - step
                let pixel = pixels[y * width + x]
                guard pixel.alpha >= CoverRenderer.opaqueThreshold else { continue }
                let unpremultiplied = SIMD3(pixel.red, pixel.green, pixel.blue) / pixel.alpha
                var wanted = unpremultiplied + current[x + 1]
                wanted.clamp(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
                // Nearby wanted colours share a choice (10 bits per channel of linear light).
                let key = UInt32(wanted.x * 1023) << 20 | UInt32(wanted.y * 1023) << 10 | UInt32(wanted.z * 1023)
                let index: UInt8
                if let known = cache[key] {
                    index = known
                } else {
                    let lab = ColorScience.lab(linearR: Double(wanted.x), g: Double(wanted.y), b: Double(wanted.z))
                    index = Palette.nearestSystem(to: lab)
                    cache[key] = index
                }
                result[y * width + x] = index
                let error = (wanted - systemLinear[Int(index)]) * strength
                // Floyd–Steinberg weights, mirrored on right-to-left rows.
                let ahead = leftToRight ? x + 2 : x, behind = leftToRight ? x : x + 2
                current[ahead] += error * (7.0 / 16)
                next[behind] += error * (3.0 / 16)
                next[x + 1] += error * (5.0 / 16)
                next[ahead] += error * (1.0 / 16)
            }
            swap(&current, &next)
            for index in next.indices { next[index] = .zero }
        }
        return result
    }
}
