import Foundation
import Imaging
import Pictures
import Terminal
import Testing

struct PixelProtocolTests {
    /// A picture of `width` × `height` whose pixel at (x, y) is `colour(x, y)`.
    static func image(width: Int, height: Int, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) -> RGBAImage {
        var pixels: [UInt8] = []
        for y in 0..<height { for x in 0..<width { let (r, g, b) = colour(x, y); pixels += [r, g, b, 255] } }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func kittySendsThePNGInChunksUnderItsId() throws {
        let png = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        let escapes = KittyGraphics.show(png: png, id: 7).map(Self.text)
        #expect(escapes.count == 4)  // 13 336 base64 bytes
        #expect(escapes[0].hasPrefix("\u{1B}_Ga=T,f=100,t=d,i=7,q=2,C=1,m=1;"))
        #expect(escapes[1].hasPrefix("\u{1B}_Gm=1;") && escapes[3].hasPrefix("\u{1B}_Gm=0;"))
        var payload = ""
        for escape in escapes {
            #expect(escape.hasSuffix("\u{1B}\\"))
            let data = escape.split(separator: ";", maxSplits: 1)[1].dropLast(2)
            #expect(data.utf8.count <= KittyGraphics.chunkSize)
            payload += data
        }
        #expect(Data(base64Encoded: payload).map(Array.init) == png)
        #expect(Self.text(KittyGraphics.delete(id: 7)) == "\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\")
        #expect(KittyGraphics.show(png: [1, 2, 3], id: 1).map(Self.text) == ["\u{1B}_Ga=T,f=100,t=d,i=1,q=2,C=1,m=0;AQID\u{1B}\\"])
    }

    @Test func sixelPaintsEachColourOfABandInTurn() {
        // Column 0 black, columns 1–2 white, six rows: one band.
        let indexed = IndexedImage.xterm256(Self.image(width: 3, height: 6) { x, _ in x == 0 ? (0, 0, 0) : (255, 255, 255) })
        #expect(indexed.indices == [16, 231, 231, 16, 231, 231, 16, 231, 231, 16, 231, 231, 16, 231, 231, 16, 231, 231])
        #expect(Self.text(Sixel.encode(indexed))
                == "\u{1B}P0;1;0q\"1;1;3;6#16;2;0;0;0#231;2;100;100;100#16~$#231?~~-\u{1B}\\")
    }

    @Test func sixelRunsAndPartialBands() {
        // 5 wide, 7 high: the second band has one row (bit 1 → "@"), runs of 5 as "!5".
        let indexed = IndexedImage.xterm256(Self.image(width: 5, height: 7) { _, _ in (255, 255, 255) })
        #expect(Self.text(Sixel.encode(indexed)) == "\u{1B}P0;1;0q\"1;1;5;7#231;2;100;100;100#231!5~-#231!5@-\u{1B}\\")
    }

    @Test func ditheringKeepsTheLightOfAGrey() {
        // sRGB 180 is between the greys 178 and 188 and the cube's 175: the average light stays.
        let grey = IndexedImage.xterm256(Self.image(width: 32, height: 32) { _, _ in (180, 180, 180) })
        let linear = { (value: UInt8) in pow((Double(value) / 255 + 0.055) / 1.055, 2.4) }
        let mean = grey.indices.map { linear(grey.palette[Int($0) * 3]) }.reduce(0, +) / Double(grey.indices.count)
        #expect(abs(mean - linear(180)) < 0.01)
        #expect(Set(grey.indices).allSatisfy { (16...255).contains($0) })
    }

    @Test func iTermSendsOneInlineFile() {
        let text = Self.text(ITermImage.show(png: [1, 2, 3]))
        #expect(text == "\u{1B}]1337;File=inline=1;size=3;preserveAspectRatio=1:AQID\u{07}")
    }

    @Test func theWriterReservesTheLinesAndPutsTheCursorBelow() throws {
        let picture = Self.image(width: 20, height: 40) { x, _ in x < 10 ? (0, 0, 0) : (255, 255, 255) }
        let plain = Self.text(try PixelPictureWriter(graphics: .sixel).bytes(for: picture, rows: 2))
        #expect(plain.hasPrefix("\r\n\n\u{1B}[2A\u{1B}7\u{1B}P0;1;0q"))
        #expect(plain.hasSuffix("\u{1B}\\\u{1B}8\u{1B}[2B\r"))
        let tmux = Self.text(try PixelPictureWriter(graphics: .kitty, throughTmux: true).bytes(for: picture, rows: 2))
        #expect(tmux.contains("\u{1B}7\u{1B}Ptmux;\u{1B}\u{1B}_Ga=T,f=100"))
        #expect(tmux.hasSuffix("\u{1B}\u{1B}\\\u{1B}\\\u{1B}8\u{1B}[2B\r"))
        #expect(Self.text(try PixelPictureWriter(graphics: .halfBlocks).bytes(for: picture, rows: 2)) == "\r\n\n\u{1B}[2A\u{1B}7\u{1B}8\u{1B}[2B\r")
    }

    @Test func picturesFitTheirBoxInTheirOwnShape() {
        #expect(PixelFitting.fittedSize(width: 1280, height: 1280, into: (400, 380)) == (380, 380))
        #expect(PixelFitting.fittedSize(width: 200, height: 100, into: (400, 400)) == (400, 200))
        let stripes = Self.image(width: 64, height: 8) { x, _ in (x / 8) % 2 == 0 ? (0, 0, 0) : (255, 255, 255) }
        let fitted = PixelFitting.fitted(stripes, into: (32, 32))
        #expect(fitted.width == 32 && fitted.height == 4)
        // Stripes 8 pixels wide become 4: still pure black and white.
        let row: [UInt8] = (0..<32).map { fitted.pixels[$0 * 4] }
        let expected: [UInt8] = (0..<32).map { ($0 / 4) % 2 == 0 ? 0 : 255 }
        #expect(row == expected)
    }

    @Test func renderDrawsInPixelsWhenAsked() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pixels-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(ImageEncoder.png(Self.image(width: 64, height: 64) { x, _ in x < 32 ? (0, 0, 0) : (255, 255, 255) })).write(to: file)
        let pictures = PixelPictures(graphics: .kitty, detection: GraphicsDetection(graphics: .kitty, cellPixels: PixelSize(width: 8, height: 16)))
        let drawing = try #require(pictures.drawing(in: RenderTool.CellSize(columns: 4, rows: 2)))
        #expect(drawing.box.width == 32 && drawing.box.height == 32)
        let result = RenderTool.render([file.path, file.path], options: RenderOptions(columns: 4, rows: 2), pixels: drawing)
        #expect(result.failures.isEmpty)
        let text = Self.text(result.output)
        #expect(text.contains("i=1,") && text.contains("i=2,"))  // each picture its own id
        #expect(text.hasPrefix("\r\n\n\u{1B}[2A\u{1B}7\u{1B}_Ga=T"))
        #expect(PixelPictures(graphics: .halfBlocks, detection: .halfBlocks(window: nil)).drawing(in: .fallback) == nil)
    }
}
