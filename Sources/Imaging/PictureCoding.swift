/// The compact binary form of a `CellPicture` kept in the disk cache:
/// "NSCP", version, columns and rows (UInt16 LE), then per cell the glyph (length byte +
/// UTF-8) and two colours (tag 0 = default, 1 = RGB + 3 bytes, 2 = indexed + 1 byte),
/// and last a 64-bit hash of everything before it, so a torn or damaged file is ignored.
enum PictureCoding {
    static let magic: [UInt8] = Array("NSCP".utf8)
    static let version: UInt8 = 1

    static func encode(_ picture: CellPicture) -> [UInt8] {
        var bytes = magic
        bytes.append(version)
        appendUInt16(picture.columns, to: &bytes)
        appendUInt16(picture.rows, to: &bytes)
        for cell in picture.cells {
            let glyph = Array(String(cell.glyph).utf8)
            bytes.append(UInt8(min(glyph.count, 255)))
            bytes.append(contentsOf: glyph.prefix(255))
            appendColor(cell.foreground, to: &bytes)
            appendColor(cell.background, to: &bytes)
        }
        let checksum = ContentHash.hash(bytes)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: checksum >> UInt64(shift))) }
        return bytes
    }

    /// The picture, or nil when the bytes are not a whole, intact encoding.
    static func decode(_ bytes: [UInt8]) -> CellPicture? {
        guard bytes.count >= 17, Array(bytes[0..<4]) == magic, bytes[4] == version else { return nil }
        let body = bytes.count - 8
        var stored: UInt64 = 0
        for index in 0..<8 { stored |= UInt64(bytes[body + index]) << UInt64(8 * index) }
        guard bytes.withUnsafeBytes({ ContentHash.hash(UnsafeRawBufferPointer(rebasing: $0[0..<body])) }) == stored
        else { return nil }
        let columns = Int(bytes[5]) | Int(bytes[6]) << 8
        let rows = Int(bytes[7]) | Int(bytes[8]) << 8
        var offset = 9
        var cells: [PictureCell] = []
        cells.reserveCapacity(columns * rows)
        func color() -> CellColor?? {
            guard offset < body else { return .none }
            let tag = bytes[offset]
            offset += 1
            switch tag {
            case 0: return .some(nil)
            case 1:
                guard offset + 3 <= body else { return .none }
                defer { offset += 3 }
                return .some(.rgb(bytes[offset], bytes[offset + 1], bytes[offset + 2]))
            case 2:
                guard offset + 1 <= body else { return .none }
                defer { offset += 1 }
                return .some(.indexed(bytes[offset]))
            default: return .none
            }
        }
        for _ in 0..<(columns * rows) {
            guard offset < body else { return nil }
            let length = Int(bytes[offset])
            offset += 1
            guard length > 0, offset + length <= body else { return nil }
            let text = String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
            offset += length
            guard text.count == 1, let glyph = text.first,
                  let foreground = color(), let background = color() else { return nil }
            cells.append(PictureCell(glyph: glyph, foreground: foreground, background: background))
        }
        guard offset == body else { return nil }
        return CellPicture(columns: columns, rows: rows, cells: cells)
    }

    private static func appendUInt16(_ value: Int, to bytes: inout [UInt8]) {
        let clamped = UInt16(clamping: value)
        bytes.append(UInt8(truncatingIfNeeded: clamped))
        bytes.append(UInt8(truncatingIfNeeded: clamped >> 8))
    }

    private static func appendColor(_ color: CellColor?, to bytes: inout [UInt8]) {
        switch color {
        case nil: bytes.append(0)
        case .rgb(let r, let g, let b): bytes.append(contentsOf: [1, r, g, b])
        case .indexed(let index): bytes.append(contentsOf: [2, index])
        }
    }
}
