/// What a terminal paints from a sixel escape, read back for tests: the pixels of each
/// row (nil where the escape painted nothing), in the colours its registers define.
struct SixelDecoder {
    typealias RGB = (r: UInt8, g: UInt8, b: UInt8)
    let width: Int
    let height: Int
    private(set) var pixels: [RGB?]

    subscript(x: Int, y: Int) -> RGB? { pixels[y * width + x] }

    /// Reads `ESC P … q "1;1;W;H #n;2;r;g;b … ESC \`: registers in percent, `#n` selects,
    /// `!count` repeats, `$` returns to the band's start, `-` goes to the next band.
    init(_ bytes: [UInt8]) throws {
        let text = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        guard let q = text.firstIndex(of: "q") else { throw PicturesTestError("no sixel introducer") }
        var at = q + 1
        func number() -> Int {
            var value = 0
            while at < text.count, let digit = Int(String(text[at])) { value = value * 10 + digit; at += 1 }
            return value
        }
        func numbers() -> [Int] {
            var list = [number()]
            while at < text.count, text[at] == ";" { at += 1; list.append(number()) }
            return list
        }
        guard at < text.count, text[at] == "\"" else { throw PicturesTestError("no raster attributes") }
        at += 1
        let raster = numbers()
        guard raster.count == 4 else { throw PicturesTestError("raster attributes \(raster)") }
        (width, height) = (raster[2], raster[3])
        pixels = Array(repeating: nil, count: width * height)
        var registers: [Int: RGB] = [:]
        var colour: RGB?
        var x = 0, band = 0
        func paint(_ character: Unicode.Scalar, times: Int) throws {
            let bits = Int(character.value) - 63
            guard (0..<64).contains(bits) else { throw PicturesTestError("not a sixel: \(character)") }
            for _ in 0..<times {
                for bit in 0..<6 where bits & (1 << bit) != 0 {
                    let y = band * 6 + bit
                    guard x < width, y < height, let colour else { throw PicturesTestError("painted outside or with no colour") }
                    pixels[y * width + x] = colour
                }
                x += 1
            }
        }
        while at < text.count {
            let character = text[at]
            at += 1
            switch character {
            case "#":
                let values = numbers()
                if values.count == 5 {
                    let percent = values[2...].map { UInt8((Double($0) * 255 / 100).rounded()) }
                    registers[values[0]] = (percent[0], percent[1], percent[2])
                }
                colour = registers[values[0]]
            case "!":
                let count = number()
                try paint(text[at], times: count)
                at += 1
            case "$": x = 0
            case "-": x = 0; band += 1
            case "\u{1B}": return
            default: try paint(character, times: 1)
            }
        }
        throw PicturesTestError("no string terminator")
    }
}
