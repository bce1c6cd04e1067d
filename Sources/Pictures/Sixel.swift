import Imaging
import Terminal

/// DEC sixel: six rows of pixels at a time, each colour of a band drawn in turn as
/// characters whose six bits say which of the six pixels it paints.
public enum Sixel {
    /// The escape that draws `image` at the cursor: its palette (only the colours used,
    /// in percent as sixel wants), then each band run-length encoded. The terminal leaves
    /// the cursor inside or below the picture: the caller places it afterwards.
    public static func encode(_ image: IndexedImage) -> [UInt8] {
        let width = image.width, height = image.height
        // `P2 = 1`: pixels not painted keep what was there. `"1;1` makes pixels square.
        var output: [UInt8] = Array("\u{1B}P0;1;0q\"1;1;\(width);\(height)".utf8)
        var used = [Bool](repeating: false, count: 256)
        for index in image.indices { used[Int(index)] = true }
        for colour in 0..<min(256, image.palette.count / 3) where used[colour] {
            let percent = (0..<3).map { Int((Double(image.palette[colour * 3 + $0]) * 100 / 255).rounded()) }
            output += Array("#\(colour);2;\(percent[0]);\(percent[1]);\(percent[2])".utf8)
        }
        var bits = [UInt8](repeating: 0, count: width)
        for top in stride(from: 0, to: height, by: 6) {
            let rows = top..<min(top + 6, height)
            var coloursInBand = [Bool](repeating: false, count: 256)
            for y in rows { for x in 0..<width { coloursInBand[Int(image.indices[y * width + x])] = true } }
            var first = true
            for colour in 0..<256 where coloursInBand[colour] {
                for x in 0..<width { bits[x] = 0 }
                for y in rows {
                    let bit = UInt8(1) << UInt8(y - top)
                    for x in 0..<width where Int(image.indices[y * width + x]) == colour { bits[x] |= bit }
                }
                if !first { output.append(UInt8(ascii: "$")) }
                first = false
                output += Array("#\(colour)".utf8)
                appendRuns(bits, to: &output)
            }
            output.append(UInt8(ascii: "-"))
        }
        output += Array("\u{1B}\\".utf8)
        return output
    }

    /// `image` as the escape a terminal drawing sixel of at most `limit` is sent: scaled
    /// down to the limit (`fitting`), on xterm's palette. sixel has no see-through pixels
    /// (`IndexedImage` shows them over black): with `behind`, the colour the terminal shows
    /// around the picture (a cover's wall), they are shown over it instead, a fully
    /// see-through pixel in exactly that colour (`showing(_:over:)`).
    public static func encode(_ image: RGBAImage, within limit: PixelSize, behind: (r: UInt8, g: UInt8, b: UInt8)? = nil) -> [UInt8] {
        let fitted = fitting(image, within: limit)
        guard let behind else { return encode(IndexedImage.xterm256(fitted)) }
        return encode(showing(fitted, over: behind))
    }

    /// The palette register of the colour behind a picture: xterm256 never chooses 0–15
    /// (the terminal's themable colours), so register 0 is free to hold it exactly, where
    /// dithering it among the palette's colours would speckle the wall.
    static let behindRegister: UInt8 = 0

    /// `image` on xterm's palette over `behind`: a partly see-through pixel blended over it,
    /// a fully see-through one in it exactly (register `behindRegister`).
    static func showing(_ image: RGBAImage, over behind: (r: UInt8, g: UInt8, b: UInt8)) -> IndexedImage {
        var pixels = image.pixels
        var clear: [Int] = []
        let under = [behind.r, behind.g, behind.b]
        for pixel in 0..<image.width * image.height {
            let alpha = Int(pixels[pixel * 4 + 3])
            if alpha == 255 { continue }
            if alpha == 0 {
                // Left see-through: xterm256 takes it as black, with no error to spread.
                clear.append(pixel)
                continue
            }
            for channel in 0..<3 {
                let at = pixel * 4 + channel
                pixels[at] = UInt8((Int(pixels[at]) * alpha + Int(under[channel]) * (255 - alpha) + 127) / 255)
            }
            pixels[pixel * 4 + 3] = 255
        }
        let indexed = IndexedImage.xterm256(RGBAImage(width: image.width, height: image.height, pixels: pixels))
        guard !clear.isEmpty else { return indexed }
        var indices = indexed.indices
        for pixel in clear { indices[pixel] = behindRegister }
        var palette = indexed.palette
        let register = Int(behindRegister) * 3
        palette.replaceSubrange(register..<register + 3, with: under)
        return IndexedImage(width: indexed.width, height: indexed.height, palette: palette, indices: indices)
    }

    /// The box a picture for a terminal that draws sixel of at most `limit` is fitted into:
    /// `box` no wider and no taller than the limit (the picture keeps its own shape in it).
    public static func clamped(_ box: (width: Int, height: Int), to limit: PixelSize) -> (width: Int, height: Int) {
        (min(box.width, max(1, limit.width)), min(box.height, max(1, limit.height)))
    }

    /// `image` scaled down, keeping its shape, to fit `limit` (xterm draws nothing of a
    /// larger sixel); `image` itself when it fits.
    public static func fitting(_ image: RGBAImage, within limit: PixelSize) -> RGBAImage {
        guard image.width > limit.width || image.height > limit.height else { return image }
        return PixelFitting.fitted(image, into: clamped((image.width, image.height), to: limit))
    }

    /// Sixel characters (63 + bits), a run of four or more written `!count` once.
    static func appendRuns(_ bits: [UInt8], to output: inout [UInt8]) {
        // Trailing empty sixels draw nothing.
        var end = bits.count
        while end > 0 && bits[end - 1] == 0 { end -= 1 }
        var x = 0
        while x < end {
            var run = 1
            while x + run < end && bits[x + run] == bits[x] { run += 1 }
            let character = 63 + bits[x]
            if run >= 4 {
                output += Array("!\(run)".utf8)
                output.append(character)
            } else {
                output += [UInt8](repeating: character, count: run)
            }
            x += run
        }
    }
}
