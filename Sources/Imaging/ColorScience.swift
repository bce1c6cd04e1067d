import Foundation

/// sRGB transfer functions, CIELAB and CIEDE2000 (D65, as in IEC 61966-2-1 and
/// Sharma, Wu & Dalal 2005), used to average in linear light and to choose palette
/// colours by perceived difference.
enum ColorScience {
    /// Linear-light value of each 8-bit sRGB level.
    static let linearFromSRGB8: [Float] = (0..<256).map { Float(srgbToLinear(Double($0) / 255)) }

    static func srgbToLinear(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    static func linearToSRGB(_ value: Double) -> Double {
        let clamped = min(max(value, 0), 1)
        return clamped <= 0.0031308 ? clamped * 12.92 : 1.055 * pow(clamped, 1 / 2.4) - 0.055
    }

    /// Nearest 8-bit sRGB level of a linear-light value (what rounding `linearToSRGB(value)
    /// × 255` gives), without `pow`: the level at the start of the value's 1/8192 slice of
    /// 0...1, moved up once if the value reaches the next level's rounding boundary. The
    /// boundaries are at least 1/3300 apart, so a slice holds at most one. (A `pow` per
    /// channel was 2 % of a cover's render, a binary search as much in mispredictions.)
    @inline(__always)
    static func srgb8(fromLinear value: Float) -> UInt8 {
        guard value > 0 else { return 0 }  // also NaN
        guard value < 1 else { return 255 }
        let slice = Int(value * Float(levelSlices))
        var level = Int(levelAtSlice[slice])
        if level < 255 && Double(value) >= roundingBoundaries[level + 1] { level += 1 }
        return UInt8(level)
    }

    private static let levelSlices = 8192

    /// `roundingBoundaries[k]`: the least linear value that rounds to level k (k ≥ 1);
    /// index 0 is unused (everything below level 1's boundary is level 0).
    private static let roundingBoundaries: [Double] =
        [-Double.infinity] + (1..<256).map { srgbToLinear((Double($0) - 0.5) / 255) }

    /// The level of each slice's lowest value.
    private static let levelAtSlice: [UInt8] = {
        var levels = [UInt8](repeating: 0, count: levelSlices + 1)
        var level = 0
        for slice in 0...levelSlices {
            let start = Double(Float(slice) / Float(levelSlices))
            while level < 255 && start >= roundingBoundaries[level + 1] { level += 1 }
            levels[slice] = UInt8(level)
        }
        return levels
    }()

    struct Lab: Equatable {
        var l: Double
        var a: Double
        var b: Double

        func squaredDistance(to other: Lab) -> Double {
            let dl = l - other.l, da = a - other.a, db = b - other.b
            return dl * dl + da * da + db * db
        }
    }

    static func lab(r: UInt8, g: UInt8, b: UInt8) -> Lab {
        lab(linearR: Double(linearFromSRGB8[Int(r)]), g: Double(linearFromSRGB8[Int(g)]),
            b: Double(linearFromSRGB8[Int(b)]))
    }

    static func lab(linearR r: Double, g: Double, b: Double) -> Lab {
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        func f(_ t: Double) -> Double {
            t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116
        }
        let fx = f(x), fy = f(y), fz = f(z)
        return Lab(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    /// CIE lightness (0...100) of a linear-light luminance.
    static func lightness(luminance y: Double) -> Double {
        let f = y > 216.0 / 24389.0 ? cbrt(y) : (24389.0 / 27.0 * y + 16) / 116
        return 116 * f - 16
    }

    private static let cos30 = cos(Double.pi / 6), sin30 = sin(Double.pi / 6)
    private static let cos6 = cos(6 * Double.pi / 180), sin6 = sin(6 * Double.pi / 180)
    private static let cos63 = cos(63 * Double.pi / 180), sin63 = sin(63 * Double.pi / 180)

    @inline(__always)
    private static func seventhPower(_ value: Double) -> Double {
        let square = value * value
        return square * square * square * value
    }

    /// CIEDE2000 colour difference with kL = kC = kH = 1.
    static func deltaE2000(_ first: Lab, _ second: Lab) -> Double {
        let radians = Double.pi / 180
        let c1 = (first.a * first.a + first.b * first.b).squareRoot()
        let c2 = (second.a * second.a + second.b * second.b).squareRoot()
        let meanC = (c1 + c2) / 2
        let meanC7 = seventhPower(meanC)
        let g = 0.5 * (1 - (meanC7 / (meanC7 + 6_103_515_625)).squareRoot())
        let a1 = (1 + g) * first.a, a2 = (1 + g) * second.a
        let c1p = (a1 * a1 + first.b * first.b).squareRoot()
        let c2p = (a2 * a2 + second.b * second.b).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = atan2(b, a) / radians
            return h < 0 ? h + 360 : h
        }
        let h1 = hue(first.b, a1), h2 = hue(second.b, a2)
        let dL = second.l - first.l
        let dC = c2p - c1p
        var dh = 0.0
        if c1p * c2p != 0 {
            dh = h2 - h1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (c1p * c2p).squareRoot() * sin(dh * radians / 2)
        let meanL = (first.l + second.l) / 2
        let meanCp = (c1p + c2p) / 2
        var meanH = h1 + h2
        if c1p * c2p != 0 {
            if abs(h1 - h2) > 180 {
                meanH = meanH < 360 ? (meanH + 360) / 2 : (meanH - 360) / 2
            } else {
                meanH /= 2
            }
        }
        // cos(kh + φ) from cos h and sin h by the multiple-angle formulas: one cos and one
        // sin instead of four cosines.
        let cosH = cos(meanH * radians), sinH = sin(meanH * radians)
        let cos2H = 2 * cosH * cosH - 1, sin2H = 2 * sinH * cosH
        let cos3H = cos2H * cosH - sin2H * sinH, sin3H = sin2H * cosH + cos2H * sinH
        let cos4H = 2 * cos2H * cos2H - 1, sin4H = 2 * sin2H * cos2H
        let t = 1 - 0.17 * (cosH * cos30 + sinH * sin30) + 0.24 * cos2H
            + 0.32 * (cos3H * cos6 - sin3H * sin6) - 0.20 * (cos4H * cos63 + sin4H * sin63)
        let hueOffset = (meanH - 275) / 25
        let dTheta = 30 * exp(-hueOffset * hueOffset)
        let meanCp7 = seventhPower(meanCp)
        let rC = 2 * (meanCp7 / (meanCp7 + 6_103_515_625)).squareRoot()
        let lMinus50 = (meanL - 50) * (meanL - 50)
        let sL = 1 + 0.015 * lMinus50 / (20 + lMinus50).squareRoot()
        let sC = 1 + 0.045 * meanCp
        let sH = 1 + 0.015 * meanCp * t
        let rT = -sin(2 * dTheta * radians) * rC
        let l = dL / sL, c = dC / sC, h = dH / sH
        return (l * l + c * c + h * h + rT * c * h).squareRoot()
    }
}
