import Foundation

/// The xterm palette and nearest-colour search in OKLab, where distances follow what
/// people see (RGB distance picks visibly wrong greys and blues).
public enum Palette {
    /// RGB of palette entry `index` as xterm shows it by default (0–15 follow the user's
    /// theme in practice; these are xterm's defaults).
    public static func rgb(ofIndex index: UInt8) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = Int(index)
        if i < 16 { return ansi16[i] }
        if i < 232 {
            let n = i - 16
            return (cubeLevels[n / 36], cubeLevels[(n / 6) % 6], cubeLevels[n % 6])
        }
        let grey = UInt8(8 + 10 * (i - 232))
        return (grey, grey, grey)
    }

    /// Nearest of colours 16–255 (0–15 are left alone: users retheme them).
    public static func nearest256(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
        nearest(OKLab(r: r, g: g, b: b), among: extended)
    }

    /// Nearest of the 16 ANSI colours (`count: 8` for the first eight only). A neutral
    /// colour (a grey, a wood, a paper) keeps to the greys, and a tinted one to the hues
    /// of its side of the wheel: nearest by distance alone turns mid greys and browns red,
    /// which on a wall or a status bar reads as an error.
    public static func nearest16(r: UInt8, g: UInt8, b: UInt8, count: Int = 16) -> UInt8 {
        let target = OKLab(r: r, g: g, b: b)
        let eight = count < 16
        switch target.chroma {
        case ..<0.06: return nearest(target, among: eight ? greys8 : greys16)
        case ..<0.1 where target.a > 0: return nearest(target, among: eight ? warm8 : warm16)
        case ..<0.1: return nearest(target, among: eight ? cool8 : cool16)
        default: return nearest(target, among: eight ? basic8 : basic16)
        }
    }

    /// The same answer by looking at every candidate (the tests hold the fast search to it).
    static func nearest256ByFullScan(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
        let target = OKLab(r: r, g: g, b: b)
        var best: UInt8 = 16
        var bestDistance = Double.infinity
        for i in 16...255 {
            let c = rgb(ofIndex: UInt8(i))
            let d = target.distanceSquared(to: OKLab(r: c.r, g: c.g, b: c.b))
            if d < bestDistance { bestDistance = d; best = UInt8(i) }
        }
        return best
    }

    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]
    static let ansi16: [(r: UInt8, g: UInt8, b: UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// Candidates sorted by lightness: a search walks outwards from the target's lightness
    /// and stops once the lightness gap alone exceeds the best distance (exact, and it
    /// looks at a few dozen entries instead of 240).
    private static let extended = SortedPalette(indices: Array(16...255))
    private static let basic16 = SortedPalette(indices: Array(0..<16))
    private static let basic8 = SortedPalette(indices: Array(0..<8))
    private static let greys8 = SortedPalette(indices: [0, 7])
    private static let greys16 = SortedPalette(indices: [0, 7, 8, 15])
    /// Browns and creams: the greys and yellow (brown on the Linux console).
    private static let warm8 = SortedPalette(indices: [0, 3, 7])
    private static let warm16 = SortedPalette(indices: [0, 3, 7, 8, 11, 15])
    /// Slates and pale blues: the greys, green, blue and cyan.
    private static let cool8 = SortedPalette(indices: [0, 2, 4, 6, 7])
    private static let cool16 = SortedPalette(indices: [0, 2, 4, 6, 7, 8, 10, 12, 14, 15])

    private static func nearest(_ target: OKLab, among palette: SortedPalette) -> UInt8 {
        palette.nearest(to: target)
    }
}

private struct SortedPalette {
    let entries: [(index: UInt8, lab: OKLab)]

    init(indices: [Int]) {
        entries = indices.map { i in
            let c = Palette.rgb(ofIndex: UInt8(i))
            return (UInt8(i), OKLab(r: c.r, g: c.g, b: c.b))
        }.sorted { $0.lab.l < $1.lab.l }
    }

    func nearest(to target: OKLab) -> UInt8 {
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].lab.l < target.l { low = mid + 1 } else { high = mid }
        }
        var best = entries[min(low, entries.count - 1)].index
        var bestDistance = Double.infinity
        var down = low - 1, up = low
        while down >= 0 || up < entries.count {
            let gapDown = down >= 0 ? target.l - entries[down].lab.l : .infinity
            let gapUp = up < entries.count ? entries[up].lab.l - target.l : .infinity
            if min(gapDown, gapUp) * min(gapDown, gapUp) >= bestDistance { break }
            let k: Int
            if gapUp <= gapDown { k = up; up += 1 } else { k = down; down -= 1 }
            let d = target.distanceSquared(to: entries[k].lab)
            // Ties go to the lower palette index, as a plain scan in index order would.
            if d < bestDistance || (d == bestDistance && entries[k].index < best) {
                bestDistance = d
                best = entries[k].index
            }
        }
        return best
    }
}

/// A colour in OKLab (Björn Ottosson, 2020): L lightness, a green–red, b blue–yellow.
public struct OKLab: Sendable, Equatable {
    public var l: Double, a: Double, b: Double

    public init(l: Double, a: Double, b: Double) { self.l = l; self.a = a; self.b = b }

    /// From 8-bit sRGB.
    public init(r: UInt8, g: UInt8, b blue: UInt8) {
        let lr = OKLab.linear(r), lg = OKLab.linear(g), lb = OKLab.linear(blue)
        let l = (0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb).cubeRoot
        let m = (0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb).cubeRoot
        let s = (0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb).cubeRoot
        self.l = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
        self.a = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
        self.b = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
    }

    /// How coloured it is: 0 for a grey, about 0.2 and more for a saturated colour.
    public var chroma: Double { (a * a + b * b).squareRoot() }

    public func distanceSquared(to other: OKLab) -> Double {
        let dl = l - other.l, da = a - other.a, db = b - other.b
        return dl * dl + da * da + db * db
    }

    private static let linearTable: [Double] = (0...255).map { v in
        let c = Double(v) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    private static func linear(_ v: UInt8) -> Double { linearTable[Int(v)] }
}

private extension Double {
    var cubeRoot: Double { cbrt(self) }
}
