/// Shrinks an image by averaging, in linear light, exactly the part of the source that
/// each output pixel covers (a box filter with fractional overlaps at the edges).
///
/// The result is premultiplied linear RGBA as `Float`s, four per pixel: transparent
/// source pixels contribute nothing to the colour, only to the coverage.
struct AreaResampler {
    /// One output position's source span: indices `first ..< first + weights.count`.
    struct Span {
        var first: Int
        var weights: [Float]
    }

    /// Spans mapping `sourceCount` input pixels evenly onto `outputCount` outputs.
    static func spans(sourceCount: Int, outputCount: Int) -> [Span] {
        let scale = Double(sourceCount) / Double(outputCount)
        return (0..<outputCount).map { index in
            let start = Double(index) * scale
            let end = min(Double(index + 1) * scale, Double(sourceCount))
            let first = min(Int(start.rounded(.down)), sourceCount - 1)
            let last = max(first + 1, min(Int(end.rounded(.up)), sourceCount))
            var weights = [Float]()
            weights.reserveCapacity(last - first)
            var total = 0.0
            for source in first..<last {
                let overlap = min(end, Double(source + 1)) - max(start, Double(source))
                weights.append(Float(max(overlap, 0)))
                total += max(overlap, 0)
            }
            if total > 0 { weights = weights.map { $0 / Float(total) } }
            return Span(first: first, weights: weights)
        }
    }

    /// Averages `image` down (or up) to `width` × `height` pixels.
    static func average(_ image: RGBAImage, width: Int, height: Int) -> [Float] {
        let columns = spans(sourceCount: image.width, outputCount: width)
        let rows = spans(sourceCount: image.height, outputCount: height)
        let linear = ColorScience.linearFromSRGB8
        // Horizontal pass: each source row becomes `width` premultiplied linear pixels.
        var horizontal = [Float](repeating: 0, count: image.height * width * 4)
        image.pixels.withUnsafeBufferPointer { source in
            linear.withUnsafeBufferPointer { toLinear in
                horizontal.withUnsafeMutableBufferPointer { out in
                    for y in 0..<image.height {
                        let rowStart = y * image.width * 4
                        let outStart = y * width * 4
                        for (x, span) in columns.enumerated() {
                            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                            var offset = rowStart + span.first * 4
                            for weight in span.weights {
                                let alpha = Float(source[offset + 3]) * (1 / 255)
                                let coverage = weight * alpha
                                r += coverage * toLinear[Int(source[offset])]
                                g += coverage * toLinear[Int(source[offset + 1])]
                                b += coverage * toLinear[Int(source[offset + 2])]
                                a += coverage
                                offset += 4
                            }
                            let o = outStart + x * 4
                            out[o] = r
                            out[o + 1] = g
                            out[o + 2] = b
                            out[o + 3] = a
                        }
                    }
                }
            }
        }
        // Vertical pass.
        var result = [Float](repeating: 0, count: width * height * 4)
        horizontal.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { out in
                let rowLength = width * 4
                for (y, span) in rows.enumerated() {
                    let outStart = y * rowLength
                    var sourceRow = span.first * rowLength
                    for weight in span.weights {
                        for index in 0..<rowLength {
                            out[outStart + index] += weight * source[sourceRow + index]
                        }
                        sourceRow += rowLength
                    }
                }
            }
        }
        return result
    }
}
