// libFuzzer target: bytes → ImageDecoder (PNG or JPEG, sniffed), at full size and at a
// DCT-scaled size chosen from the input, then a half-block render of the result.
import Foundation
import Imaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Array(UnsafeBufferPointer(start: bytes, count: count))
    let scaled = count > 0 && bytes[count - 1] & 1 == 1
    let minimum: (width: Int, height: Int)? = scaled ? (width: 8, height: 8) : nil
    guard let image = try? ImageDecoder.decode(data, minimumSize: minimum) else { return 0 }
    precondition(image.width > 0 && image.height > 0, "decoded an empty image")
    _ = CoverRenderer.render(image, options: RenderOptions(columns: 6, rows: 4))
    return 0
}
