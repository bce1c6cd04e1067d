/// Shrinks an image by averaging, in linear light, exactly the part of the source that
/// each output pixel covers (a box filter with fractional overlaps at the edges).
///
/// The result is premultiplied linear RGBA as `Float`s, four per pixel: transparent
/// source pixels contribute nothing to the colour, only to the coverage.
struct AreaResampler {
    /// For each output position, the source span `first[i] ..< first[i] + count[i]` and its
    /// weights (summing to 1) at `weights[weightStart[i]...]`, all in flat arrays.
    struct Spans {
        var first: [Int] = []
        var count: [Int] = []
        var weightStart: [Int] = []
        var weights: [Float] = []
    }

    /// Spans mapping `sourceCount` input pixels evenly onto `outputCount` outputs.
    static func spans(sourceCount: Int, outputCount: Int) -> Spans {
        var spans = Spans()
        let scale = Double(sourceCount) / Double(outputCount)
        for index in 0..<outputCount {
            let start = Double(index) * scale
            let end = min(Double(index + 1) * scale, Double(sourceCount))
            let first = min(Int(start.rounded(.down)), sourceCount - 1)
            let last = max(first + 1, min(Int(end.rounded(.up)), sourceCount))
            let overlaps = (first..<last).map { max(min(end, Double($0 + 1)) - max(start, Double($0)), 0) }
            let total = overlaps.reduce(0, +)
            spans.first.append(first)
            spans.count.append(last - first)
            spans.weightStart.append(spans.weights.count)
            spans.weights += overlaps.map { Float(total > 0 ? $0 / total : 1 / Double(overlaps.count)) }
        }
        return spans
    }

    /// Averages `image` down (or up) to `width` × `height` pixels.
    static func average(_ image: RGBAImage, width: Int, height: Int) -> [Float] {
        let columns = spans(sourceCount: image.width, outputCount: width)
        let rows = spans(sourceCount: image.height, outputCount: height)
        let opaque = isOpaque(image)
        // Horizontal pass: each source row becomes `width` premultiplied linear pixels.
        var horizontal = [Float](repeating: 0, count: image.height * width * 4)
        image.pixels.withUnsafeBufferPointer { source in
            ColorScience.linearFromSRGB8.withUnsafeBufferPointer { toLinear in
            columns.first.withUnsafeBufferPointer { firsts in
            columns.count.withUnsafeBufferPointer { counts in
            columns.weightStart.withUnsafeBufferPointer { weightStarts in
            columns.weights.withUnsafeBufferPointer { weights in
            horizontal.withUnsafeMutableBufferPointer { out in
                for y in 0..<image.height {
                    let rowStart = y * image.width * 4
                    var o = y * width * 4
                    for x in 0..<width {
                        var offset = rowStart &+ firsts[x] &* 4
                        let w = weightStarts[x], count = counts[x]
                        if opaque {
                            // Inside a span every source pixel counts fully: only the two
                            // end pixels need their fractional weights. Pointers and
                            // wrapping arithmetic keep overflow checks out of the loop.
                            let lut = toLinear.baseAddress!
                            var p = source.baseAddress! + offset
                            let firstWeight = weights[w]
                            var r = firstWeight * lut[Int(p[0])]
                            var g = firstWeight * lut[Int(p[1])]
                            var b = firstWeight * lut[Int(p[2])]
                            if count > 1 {
                                let inner = weights[w &+ 1]
                                // Two sets of sums, so that each addition need not wait
                                // for the one before it (the loop is latency-bound).
                                var ir: Float = 0, ig: Float = 0, ib: Float = 0
                                var jr: Float = 0, jg: Float = 0, jb: Float = 0
                                p += 4
                                let pairsEnd = p + ((count &- 2) / 2) &* 8
                                while p < pairsEnd {
                                    ir += lut[Int(p[0])]
                                    ig += lut[Int(p[1])]
                                    ib += lut[Int(p[2])]
                                    jr += lut[Int(p[4])]
                                    jg += lut[Int(p[5])]
                                    jb += lut[Int(p[6])]
                                    p += 8
                                }
                                if (count &- 2) & 1 == 1 {
                                    ir += lut[Int(p[0])]
                                    ig += lut[Int(p[1])]
                                    ib += lut[Int(p[2])]
                                    p += 4
                                }
                                ir += jr
                                ig += jg
                                ib += jb
                                let lastWeight = weights[w &+ count &- 1]
                                r += inner * ir + lastWeight * lut[Int(p[0])]
                                g += inner * ig + lastWeight * lut[Int(p[1])]
                                b += inner * ib + lastWeight * lut[Int(p[2])]
                            }
                            out[o] = r
                            out[o + 1] = g
                            out[o + 2] = b
                            out[o + 3] = 1
                        } else {
                            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                            for index in w..<(w + count) {
                                let coverage = weights[index] * Float(source[offset + 3]) * (1 / 255)
                                r += coverage * toLinear[Int(source[offset])]
                                g += coverage * toLinear[Int(source[offset + 1])]
                                b += coverage * toLinear[Int(source[offset + 2])]
                                a += coverage
                                offset += 4
                            }
                            out[o] = r
                            out[o + 1] = g
                            out[o + 2] = b
                            out[o + 3] = a
                        }
                        o += 4
                    }
                }
            }}}}}}
        }
        // Vertical pass.
        var result = [Float](repeating: 0, count: width * height * 4)
        horizontal.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { out in
                let rowLength = width * 4
                for y in 0..<height {
                    let outStart = y * rowLength
                    var sourceRow = rows.first[y] * rowLength
                    let start = rows.weightStart[y]
                    let target = out.baseAddress! + outStart
                    for w in start..<(start + rows.count[y]) {
                        let weight = rows.weights[w]
                        let from = source.baseAddress! + sourceRow
                        for index in 0..<rowLength {
                            target[index] += weight * from[index]
                        }
                        sourceRow += rowLength
                    }
                }
            }
        }
        return result
    }

    /// True when every alpha byte is 255 (two pixels per 64-bit word).
    private static func isOpaque(_ image: RGBAImage) -> Bool {
        image.pixels.withUnsafeBytes { bytes in
            let pairs = bytes.count / 8
            let alphas = UInt64(littleEndian: 0xFF00_0000_FF00_0000)
            var all = alphas
            var offset = 0
            for _ in 0..<pairs {
                all &= bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
            if all & alphas != alphas { return false }
            return bytes.count % 8 == 0 || bytes[bytes.count - 1] == 255
        }
    }
}
