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

    static let xterm256Chroma: [Double] = xterm256Lab.map { ($0.a * $0.a + $0.b * $0.b).squareRoot() }

    /// CIEDE2000 without its hue rotation and hue weighting (cheap: no trigonometry)
    /// shortlists a dozen candidates; CIEDE2000 itself, which is what the eye and the
    /// quality script measure, decides among them. On 4,000 random colours the shortlist
    /// always held the winner; plain CIELAB distance would need over 24 candidates.
    private static func nearest(to target: ColorScience.Lab, among range: Range<Int>) -> UInt8 {
        let shortlistSize = 12
        var shortlist: [(distance: Double, index: Int)] = []
        shortlist.reserveCapacity(shortlistSize + 1)
        let targetChroma = (target.a * target.a + target.b * target.b).squareRoot()
        xterm256Lab.withUnsafeBufferPointer { labs in
            xterm256Chroma.withUnsafeBufferPointer { chromas in
                for index in range {
                    let entry = labs[index]
                    let dL = target.l - entry.l, da = target.a - entry.a, db = target.b - entry.b
                    let dC = targetChroma - chromas[index]
                    let dH2 = max(da * da + db * db - dC * dC, 0)
                    let meanChroma = (targetChroma + chromas[index]) / 2
                    let meanL = (target.l + entry.l) / 2 - 50
                    let sL = 1 + 0.015 * meanL * meanL / (20 + meanL * meanL).squareRoot()
                    let sC = 1 + 0.045 * meanChroma, sH = 1 + 0.015 * meanChroma
                    let distance = dL * dL / (sL * sL) + dC * dC / (sC * sC) + dH2 / (sH * sH)
                    if shortlist.count < shortlistSize || distance < shortlist[shortlist.count - 1].distance {
                        var position = shortlist.count
                        while position > 0 && shortlist[position - 1].distance > distance { position -= 1 }
                        shortlist.insert((distance, index), at: position)
                        if shortlist.count > shortlistSize { shortlist.removeLast() }
                    }
                }
            }
        }
        var best = shortlist[0].index
        var bestDifference = Double.infinity
        for candidate in shortlist {
            let difference = ColorScience.deltaE2000(target, xterm256Lab[candidate.index])
            if difference < bestDifference {
                bestDifference = difference
                best = candidate.index
            }
        }
        return UInt8(best)
    }
}
