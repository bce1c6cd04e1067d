import Foundation
import Imaging

/// kitty's graphics protocol: a PNG sent in base64 chunks of at most 4096 bytes, under an
/// id so that sending the same id again replaces the picture and `delete` removes it.
public enum KittyGraphics {
    /// The largest chunk of base64 one escape may carry (the protocol's limit).
    public static let chunkSize = 4096

    /// The escapes that show `png` at the cursor: `a=T` (send and show), `q=2` (no replies
    /// to read back), `C=1` (the cursor stays where it is: the caller places it).
    public static func show(png: [UInt8], id: UInt32) -> [[UInt8]] {
        chunks(png: png, control: "a=T,f=100,t=d,i=\(id),q=2,C=1")
    }

    /// The escapes that send `png` under `id` without showing it (`a=t`): `place` shows it,
    /// in one short escape, so nothing (tmux's own drawing) can move the cursor between
    /// the chunks and where the picture lands.
    public static func transmit(png: [UInt8], id: UInt32) -> [[UInt8]] {
        chunks(png: png, control: "a=t,f=100,t=d,i=\(id),q=2")
    }

    /// Shows the picture sent as `id` at the cursor, the cursor left where it is.
    public static func place(id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=p,i=\(id),q=2,C=1\u{1B}\\".utf8)
    }

    /// Shows the picture sent as `id` at the cursor as its placement `placement`: placing
    /// it again under the same two ids moves it there (the old placement is replaced).
    public static func place(id: UInt32, placement: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=p,i=\(id),p=\(placement),q=2,C=1\u{1B}\\".utf8)
    }

    /// Takes placement `placement` of picture `id` off the screen; kitty keeps the picture
    /// (`d=i`, lower case), to be placed again without sending it.
    public static func deletePlacement(id: UInt32, placement: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=i,i=\(id),p=\(placement),q=2\u{1B}\\".utf8)
    }

    private static func chunks(png: [UInt8], control first: String) -> [[UInt8]] {
        let payload = Array(Data(png).base64EncodedString().utf8)
        var escapes: [[UInt8]] = []
        var start = 0
        repeat {
            let end = min(start + chunkSize, payload.count)
            let more = end < payload.count ? 1 : 0
            let control = start == 0 ? "\(first),m=\(more)" : "m=\(more)"
            escapes.append(Array("\u{1B}_G\(control);".utf8) + payload[start..<end] + Array("\u{1B}\\".utf8))
            start = end
        } while start < payload.count
        return escapes
    }

    /// Removes the picture `id` from the screen and kitty's memory (`d=I`, upper case: its
    /// placements and its data).
    public static func delete(id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
    }
}
