import Foundation

/// iTerm2's inline images (also WezTerm and mlterm): one `OSC 1337 ; File=… : base64 BEL`.
public enum ITermImage {
    /// Shows `png` at the cursor at its own pixel size.
    public static func show(png: [UInt8]) -> [UInt8] {
        Array("\u{1B}]1337;File=inline=1;size=\(png.count);preserveAspectRatio=1:".utf8)
            + Array(Data(png).base64EncodedString().utf8) + [0x07]
    }
}
