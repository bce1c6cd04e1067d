/// Pictures for terminals that draw real pixels (kitty, sixel, iTerm2): the image fitted
/// into a box of pixels in its own shape, each pixel the linear-light average of the part
/// of the image it covers, as half blocks are.
public enum PixelFitting {
    /// The largest size of a `width` × `height` image inside `box` that keeps its shape.
    public static func fittedSize(width: Int, height: Int, into box: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let boxWidth = max(box.width, 1), boxHeight = max(box.height, 1)
        guard width > 0, height > 0 else { return (boxWidth, boxHeight) }
        if width * boxHeight >= height * boxWidth {
            return (boxWidth, min(boxHeight, max(1, Int((Double(height) * Double(boxWidth) / Double(width)).rounded()))))
        }
        return (min(boxWidth, max(1, Int((Double(width) * Double(boxHeight) / Double(height)).rounded()))), boxHeight)
    }

    /// `image` resampled to fill `fittedSize` inside `box`.
    public static func fitted(_ image: RGBAImage, into box: (width: Int, height: Int)) -> RGBAImage {
        let size = fittedSize(width: image.width, height: image.height, into: box)
        if size.width == image.width && size.height == image.height { return image }
        let averaged = AreaResampler.average(image, width: size.width, height: size.height)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = averaged[index + 3]
            guard alpha > 0 else { continue }
            for channel in 0..<3 { pixels[index + channel] = ColorScience.srgb8(fromLinear: averaged[index + channel] / alpha) }
            pixels[index + 3] = UInt8(max(0, min(255, (alpha * 255).rounded())))
        }
        return RGBAImage(width: size.width, height: size.height, pixels: pixels)
    }
}
