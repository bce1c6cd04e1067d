import Foundation
import Testing
import Imaging

/// Inputs kept from `Fuzz/` runs (see RELIABILITY.md).
struct FuzzRegressionTests {
    /// fuzz-image, 2026-11-22: a damaged 368-byte JPEG whose frame claims 42×21505 pixels
    /// (a 1:512 strip) tripped libFuzzer's 10 s timeout on a starved machine. It decodes
    /// and renders (its time is the fuzz target's to watch; tests do not time).
    static let tallStripJPEG = "/9j/7gAOQWRvYu5lAGQAAAAAAP/bAEMACAYGBwYFCAcHBwkJCAoBAAAAAAAAABITDxQdGh8eHRocAP/bAEMACAYGBwYFCAcHBwkJCAoBAAAAAABuYWwSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcsKTAuMTQ0NB8nOT04MjwuMzQy/8AAFAhUAQAqBEMRAE0RAFkRAEsRAP/EAB8AAAEFAQEBAQEBAAAAAAAAAAcAAgMEBQYHCAkKC2qG+v/aAA4EQwBNAFkASwC4KK//2dHwJBwgJC4nICIsIxwcKDcsKTAxNDQ0Hyc5PTgyPC4zNDL/wAAUCAAEACoEQxEATREAWREASxEA/wAAAAAHAAIDBLQFBgcICQoLanN0dYb6/9oADgRDAE0AWQBLALgor//Z0fAkM2JyggkKFhoXJhknJRgoKSo0NTY3ODk6Q0RFR0hJSlNUVfj5+ubo6efq8fLz9AUA2gAIAQEAAD8A4XTvCfY="

    @Test func aDamagedJPEGClaimingA42By21505StripDecodesOrFailsAndRenders() throws {
        let bytes = try #require(Data(base64Encoded: Self.tallStripJPEG))
        for minimum in [nil, (width: 8, height: 8)] as [(width: Int, height: Int)?] {
            do {
                let image = try ImageDecoder.decode(bytes, minimumSize: minimum)
                #expect(image.width > 0 && image.height > 0)
                #expect(image.height > image.width)
                let picture = CoverRenderer.render(image, options: RenderOptions(columns: 6, rows: 4))
                #expect(picture.columns == 6 && picture.rows == 4)
            } catch {
                #expect(!"\(error)".isEmpty)  // a refusal with a reason is fine too
            }
        }
    }

    /// fuzz-image, 2026-11-22 (session 3): a 359-byte progressive JPEG whose frame claims
    /// 11527×2823 pixels took 3.7 s under ASan (30 s on a starved machine) to allocate
    /// 130 MB and paint it grey. Now refused from its header.
    static let hollowProgressiveJPEG = "/9j/4AAQSkZJRgABAQAAAQABAAT/2wBDAAoHBwgHBgoICAgLCgoLDhgQDg0NDh0VFhEYBQUFBQUFBQUFBQUFBRcAAAAAAAAABQUFBQUFBQUEBQUFBQUFBQVIND0+O//bAEMBCgsLDg0OCgAQHDsoIig7Ozs7ODs7Ozs7Ozs7Ozs7OztEOzs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozv/wgARCAsHLQcDASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABQAG/8QAFgEBAQEAAAAAAAAAAAAAAAAAAwIF/9oADAMBAAIQAxAAAAEhFJKAFtJPr/8AAAAAAAABAgAAfgAAAAAAAACJUE5HDQoaAAAAABAh/+EAAP/ZCgAAAA1JSERSAAAAEQAAAAsIAgAAABZC8VAAAAD///////////////////////////////////////////8dSURBVII="

    @Test func aHollowProgressiveJPEGClaiming32MegapixelsIsRefusedFromItsHeader() throws {
        let bytes = try #require(Data(base64Encoded: Self.hollowProgressiveJPEG))
        #expect { try ImageDecoder.decode(bytes) } throws: { error in
            (error as? ImageError)?.kind == .corrupt && "\(error)".contains("359 bytes cannot hold a 11527×2823 picture")
        }
    }
}
