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

    /// The palette's CIELAB coordinates and chroma as separate arrays, for a tight loop.
    private static let table: (l: [Float], a: [Float], b: [Float], chroma: [Float]) = (
        xterm256Lab.map { Float($0.l) }, xterm256Lab.map { Float($0.a) }, xterm256Lab.map { Float($0.b) },
        xterm256Lab.map { Float(($0.a * $0.a + $0.b * $0.b).squareRoot()) }
    )

    /// How many candidates CIEDE2000 itself judges.
    static let shortlistSize = 8

    /// CIEDE2000 without its hue rotation and hue weighting (cheap: no trigonometry)
    /// shortlists a few candidates; CIEDE2000 itself, which is what the eye and the
    /// quality script measure, decides among them. On 4,000 random colours a shortlist of
    /// 8 missed the winner once (by 0.01); plain CIELAB distance would need over 24.
    private static func nearest(to target: ColorScience.Lab, among range: Range<Int>) -> UInt8 {
        let count = min(shortlistSize, range.count)
        return withUnsafeTemporaryAllocation(of: (Float, Int).self, capacity: count) { shortlist -> UInt8 in
            var filled = 0
            let targetL = Float(target.l), targetA = Float(target.a), targetB = Float(target.b)
            let targetChroma = (targetA * targetA + targetB * targetB).squareRoot()
            table.l.withUnsafeBufferPointer { ls in
            table.a.withUnsafeBufferPointer { as_ in
            table.b.withUnsafeBufferPointer { bs in
            table.chroma.withUnsafeBufferPointer { chromas in
                for index in range {
                    let dL = targetL - ls[index], da = targetA - as_[index], db = targetB - bs[index]
                    let dC = targetChroma - chromas[index]
                    let dH2 = max(da * da + db * db - dC * dC, 0)
                    let meanChroma = (targetChroma + chromas[index]) * 0.5
                    let meanL = (targetL + ls[index]) * 0.5 - 50
                    let sL = 1 + 0.015 * meanL * meanL / (20 + meanL * meanL).squareRoot()
                    let sC = 1 + 0.045 * meanChroma, sH = 1 + 0.015 * meanChroma
                    let distance = dL * dL / (sL * sL) + dC * dC / (sC * sC) + dH2 / (sH * sH)
                    if filled == count && distance >= shortlist[count - 1].0 { continue }
                    var position = filled < count ? filled : count - 1
                    while position > 0 && shortlist[position - 1].0 > distance {
                        shortlist[position] = shortlist[position - 1]
                        position -= 1
                    }
                    shortlist[position] = (distance, index)
                    if filled < count { filled += 1 }
                }
            }}}}
            var best = shortlist[0].1
            var bestDifference = Double.infinity
            for candidate in 0..<filled {
                let index = shortlist[candidate].1
                let difference = ColorScience.deltaE2000(target, xterm256Lab[index])
                if difference < bestDifference {
                    bestDifference = difference
                    best = index
                }
            }
            return UInt8(best)
        }
    }
}
