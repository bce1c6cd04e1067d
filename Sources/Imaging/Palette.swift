/// The xterm palettes and nearest-colour choice by perceived difference.
enum Palette {
    /// xterm's 256 colours: the 16 system colours (xterm defaults), the 6×6×6 cube and
    /// the 24 greys.
    static let xterm256: [(UInt8, UInt8, UInt8)] = {
        var colours: [(UInt8, UInt8, UInt8)] = [
            (0x00, 0x00, 0x00), (0xCD, 0x00, 0x00), (0x00, 0xCD, 0x00), (0xCD, 0xCD, 0x00),
            (0x00, 0x00, 0xEE), (0xCD, 0x00, 0xCD), (0x00, 0xCD, 0xCD), (0xE5, 0xE5, 0xE5),
            (0x7F, 0x7F, 0x7F), (0xFF, 0x00, 0x00), (0x00, 0xFF, 0x00), (0xFF, 0xFF, 0x00),
            (0x5C, 0x5C, 0xFF), (0xFF, 0x00, 0xFF), (0x00, 0xFF, 0xFF), (0xFF, 0xFF, 0xFF),
        ]
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        for r in levels { for g in levels { for b in levels { colours.append((r, g, b)) } } }
        for step in 0..<24 {
            let grey = UInt8(8 + 10 * step)
            colours.append((grey, grey, grey))
        }
        return colours
    }()

    static let xterm256Lab: [ColorScience.Lab] = xterm256.map { ColorScience.lab(r: $0.0, g: $0.1, b: $0.2) }

    /// Index (16...255) of the 256-colour entry nearest to an sRGB colour by CIEDE2000.
    /// Entries 0–15 are left out: terminals let users theme them.
    static func nearest256(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
        nearest(to: ColorScience.lab(r: r, g: g, b: b), among: 16..<256)
    }

    /// Index (0...15) of the nearest system colour, assuming xterm's defaults.
    static func nearest16(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
        nearest(to: ColorScience.lab(r: r, g: g, b: b), among: 0..<16)
    }

    /// Index (0...15) of the system colour nearest to a CIELAB colour (xterm's defaults).
    static func nearestSystem(to lab: ColorScience.Lab) -> UInt8 {
        nearest(to: lab, among: 0..<16)
    }

    /// Palette entries' CIELAB coordinates and chroma, eight entries per vector.
    struct Batch {
        var first: Int
        var l: [SIMD8<Float>] = [], a: [SIMD8<Float>] = [], b: [SIMD8<Float>] = [], chroma: [SIMD8<Float>] = []

        init(_ range: Range<Int>) {
            precondition(range.count % 8 == 0)
            first = range.lowerBound
            for start in stride(from: range.lowerBound, to: range.upperBound, by: 8) {
                var l = SIMD8<Float>(), a = SIMD8<Float>(), b = SIMD8<Float>(), chroma = SIMD8<Float>()
                for lane in 0..<8 {
                    let lab = xterm256Lab[start + lane]
                    l[lane] = Float(lab.l)
                    a[lane] = Float(lab.a)
                    b[lane] = Float(lab.b)
                    chroma[lane] = Float((lab.a * lab.a + lab.b * lab.b).squareRoot())
                }
                self.l.append(l)
                self.a.append(a)
                self.b.append(b)
                self.chroma.append(chroma)
            }
        }

        var count: Int { l.count * 8 }
    }

    private static let extended = Batch(16..<256)
    private static let system = Batch(0..<16)

    /// CIEDE2000 without its hue rotation and hue weighting (cheap: no trigonometry, eight
    /// entries at a time) finds the entries that could be nearest; CIEDE2000 itself, which
    /// is what the eye and the quality script measure, decides among them. Entries further
    /// than `reach` beyond the cheap measure's best practically never win: on 6,000 random
    /// colours this judged 3 entries on average and missed the true winner 0.3% of the
    /// time, by 0.002 on average (plain CIELAB distance would need over 24 candidates).
    static let reach: Float = 3

    private static func nearest(to target: ColorScience.Lab, among range: Range<Int>) -> UInt8 {
        let batch = range.lowerBound == 0 ? system : extended
        return withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: batch.l.count) { distances -> UInt8 in
            let targetL = SIMD8<Float>(repeating: Float(target.l))
            let targetA = SIMD8<Float>(repeating: Float(target.a))
            let targetB = SIMD8<Float>(repeating: Float(target.b))
            let targetChroma = SIMD8<Float>(repeating: Float((target.a * target.a + target.b * target.b).squareRoot()))
            var closest = SIMD8<Float>(repeating: .infinity)
            for vector in 0..<batch.l.count {
                let l = batch.l[vector], chroma = batch.chroma[vector]
                let dL = targetL - l, da = targetA - batch.a[vector], db = targetB - batch.b[vector]
                let dC = targetChroma - chroma
                let hue2 = da * da + db * db - dC * dC
                let dH2 = hue2.replacing(with: 0, where: hue2 .< 0)
                let meanChroma = (targetChroma + chroma) * 0.5
                let meanL = (targetL + l) * 0.5 - 50
                let meanL2 = meanL * meanL
                let sL = 1 + 0.015 * meanL2 / (20 + meanL2).squareRoot()
                let sC = 1 + 0.045 * meanChroma, sH = 1 + 0.015 * meanChroma
                let distance = dL * dL / (sL * sL) + dC * dC / (sC * sC) + dH2 / (sH * sH)
                distances[vector] = distance
                closest.replace(with: distance, where: distance .< closest)
            }
            let limit = (closest.min().squareRoot() + reach) * (closest.min().squareRoot() + reach)
            var best = batch.first
            var bestDifference = Double.infinity
            for vector in 0..<batch.l.count where any(distances[vector] .<= limit) {
                for lane in 0..<8 where distances[vector][lane] <= limit {
                    let index = batch.first + vector * 8 + lane
                    let difference = ColorScience.deltaE2000(target, xterm256Lab[index])
                    if difference < bestDifference {
                        bestDifference = difference
                        best = index
                    }
                }
            }
            return UInt8(best)
        }
    }
}
