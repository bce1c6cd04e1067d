// libFuzzer target: bytes → ImageDecoder (PNG or JPEG, sniffed), at full size or at the
// DCT scale for the frame a small picture fills (chosen from the input), then a
// half-block render of the result. PNGs also go through both of our own loop's paths
// (whole-buffer libdeflate and row-at-a-time zlib), which must agree where both decode.
import CImageCodecs
import Foundation
import Imaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Array(UnsafeBufferPointer(start: bytes, count: count))
    let scaled = count > 0 && bytes[count - 1] & 1 == 1
    let options = RenderOptions(columns: 6, rows: 4)
    guard let image = try? (scaled ? ImageDecoder.decode(data, drawnWith: options) : ImageDecoder.decode(data))
    else { return 0 }
    precondition(image.width > 0 && image.height > 0, "decoded an empty image")
    _ = CoverRenderer.render(image, options: options)
    if ImageDecoder.sniff(data) == .png, image.width * image.height <= 1 << 22 {
        func decode(_ path: Int32) -> (Int32, [UInt8]) {
            var pixels = [UInt8](repeating: 0, count: image.width * image.height * 4)
            var message = [CChar](repeating: 0, count: 200)
            let status = ns_png_decode_path(bytes, count, &pixels, UInt32(image.width), UInt32(image.height), path,
                                            &message, 200)
            return (status, pixels)
        }
        let whole = decode(Int32(NS_PNG_PATH_WHOLE)), streamed = decode(Int32(NS_PNG_PATH_STREAMED))
        if whole.0 == 0 && streamed.0 == 0 { precondition(whole.1 == streamed.1, "the two PNG paths disagree") }
        if whole.0 == 0 { precondition(whole.1 == image.pixels, "the whole-buffer path disagrees with decode") }
    }
    return 0
}
