import CSystemZlib
import Foundation

/// Builds zip files byte by byte, so tests can make exactly the broken or hostile archive
/// they need (every field can be overridden).
struct ZipFixture {
    struct Entry {
        var name: [UInt8]
        var content: [UInt8]
        var method: UInt16 = 8
        var flags: UInt16 = 0x0800
        var versionMadeBy: UInt16 = 0x031E // Unix, spec 3.0
        var externalAttributes: UInt32 = 0o100644 << 16
        var crc: UInt32?
        var declaredSize: UInt32?
        var localName: [UInt8]?
        var localMethod: UInt16?
        /// Raw bytes to store as the entry's data instead of compressing `content`.
        var payload: [UInt8]?
        /// Written the way streaming writers do: zero CRC and sizes in the local header, a data
        /// descriptor after the data.
        var streamed = false
        /// Extra fields for the central directory record only.
        var centralExtra: [UInt8] = []

        init(_ name: String, _ content: String, method: UInt16 = 8) {
            self.init(bytes: Array(name.utf8), content: Array(content.utf8), method: method)
        }

        init(bytes name: [UInt8], content: [UInt8], method: UInt16 = 8) {
            self.name = name
            self.content = content
            self.method = method
        }

        var data: [UInt8] { payload ?? (method == 8 ? ZipFixture.deflate(content) : content) }
        var checksum: UInt32 { crc ?? ZipFixture.crc(content) }
        var size: UInt32 { declaredSize ?? UInt32(content.count) }
    }

    var entries: [Entry]
    /// Every size and offset in ZIP64 extra fields and a ZIP64 end record, as writers do for
    /// archives over 4 GiB (or when told to).
    var zip64 = false

    init(_ entries: [Entry], zip64: Bool = false) {
        self.entries = entries
        self.zip64 = zip64
    }

    func bytes() -> [UInt8] {
        zip64 ? zip64Bytes() : plainBytes()
    }

    private func plainBytes() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for var entry in entries {
            let offset = UInt32(out.count)
            let data = entry.data
            if entry.streamed {
                entry.flags |= 0x08
                var local = entry
                local.crc = 0
                local.declaredSize = 0
                out += ZipFixture.localHeader(local, compressedSize: 0) + data
                out += ZipFixture.le32(0x0807_4b50) + ZipFixture.le32(entry.checksum) + ZipFixture.le32(UInt32(data.count))
                    + ZipFixture.le32(entry.size)
            } else {
                out += ZipFixture.localHeader(entry, compressedSize: UInt32(data.count)) + data
            }
            central += ZipFixture.centralRecord(entry, compressedSize: UInt32(data.count), offset: offset)
        }
        return out + central + ZipFixture.end(count: entries.count, size: central.count, offset: out.count)
    }

    private func zip64Bytes() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let offset = UInt64(out.count)
            let data = entry.data
            let name = entry.name
            let localExtra = ZipFixture.le16(1) + ZipFixture.le16(16) + ZipFixture.le64(UInt64(entry.content.count))
                + ZipFixture.le64(UInt64(data.count))
            out += ZipFixture.le32(0x0403_4b50) + ZipFixture.le16(45) + ZipFixture.le16(entry.flags) + ZipFixture.le16(entry.method)
                + ZipFixture.le16(0) + ZipFixture.le16(0x5821) + ZipFixture.le32(entry.checksum) + ZipFixture.le32(0xFFFF_FFFF)
                + ZipFixture.le32(0xFFFF_FFFF) + ZipFixture.le16(UInt16(name.count)) + ZipFixture.le16(UInt16(localExtra.count))
                + name + localExtra + data
            // Sizes in the extra field, the offset in place (as writers do below 4 GiB).
            let centralExtra = ZipFixture.le16(1) + ZipFixture.le16(16) + ZipFixture.le64(UInt64(entry.content.count))
                + ZipFixture.le64(UInt64(data.count))
            central += ZipFixture.le32(0x0201_4b50) + ZipFixture.le16(entry.versionMadeBy) + ZipFixture.le16(45)
                + ZipFixture.le16(entry.flags) + ZipFixture.le16(entry.method) + ZipFixture.le16(0) + ZipFixture.le16(0x5821)
                + ZipFixture.le32(entry.checksum) + ZipFixture.le32(0xFFFF_FFFF) + ZipFixture.le32(0xFFFF_FFFF)
                + ZipFixture.le16(UInt16(name.count)) + ZipFixture.le16(UInt16(centralExtra.count)) + ZipFixture.le16(0)
                + ZipFixture.le16(0) + ZipFixture.le16(0) + ZipFixture.le32(entry.externalAttributes) + ZipFixture.le32(UInt32(offset))
                + name + centralExtra
        }
        let recordOffset = UInt64(out.count + central.count)
        let count = UInt64(entries.count)
        let record = ZipFixture.le32(0x0606_4b50) + ZipFixture.le64(44) + ZipFixture.le16(45) + ZipFixture.le16(45)
            + ZipFixture.le32(0) + ZipFixture.le32(0) + ZipFixture.le64(count) + ZipFixture.le64(count)
            + ZipFixture.le64(UInt64(central.count)) + ZipFixture.le64(UInt64(out.count))
        let locator = ZipFixture.le32(0x0706_4b50) + ZipFixture.le32(0) + ZipFixture.le64(recordOffset) + ZipFixture.le32(1)
        let end = ZipFixture.le32(0x0605_4b50) + ZipFixture.le16(0) + ZipFixture.le16(0) + ZipFixture.le16(0xFFFF)
            + ZipFixture.le16(0xFFFF) + ZipFixture.le32(0xFFFF_FFFF) + ZipFixture.le32(0xFFFF_FFFF) + ZipFixture.le16(0)
        return out + central + record + locator + end
    }

    func write(to url: URL) throws {
        try Data(bytes()).write(to: url)
    }

    static func localHeader(_ e: Entry, compressedSize: UInt32) -> [UInt8] {
        let name = e.localName ?? e.name
        return le32(0x0403_4b50) + le16(20) + le16(e.flags) + le16(e.localMethod ?? e.method) + le16(0) + le16(0x5821)
            + le32(e.checksum) + le32(compressedSize) + le32(e.size) + le16(UInt16(name.count)) + le16(0) + name
    }

    static func centralRecord(_ e: Entry, compressedSize: UInt32, offset: UInt32) -> [UInt8] {
        le32(0x0201_4b50) + le16(e.versionMadeBy) + le16(20) + le16(e.flags) + le16(e.method) + le16(0) + le16(0x5821)
            + le32(e.checksum) + le32(compressedSize) + le32(e.size) + le16(UInt16(e.name.count))
            + le16(UInt16(e.centralExtra.count)) + le16(0) + le16(0) + le16(0) + le32(e.externalAttributes) + le32(offset)
            + e.name + e.centralExtra
    }

    static func end(count: Int, size: Int, offset: Int) -> [UInt8] {
        le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(count)) + le16(UInt16(count)) + le32(UInt32(size))
            + le32(UInt32(offset)) + le16(0)
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { le16(UInt16(v & 0xFFFF)) + le16(UInt16(v >> 16)) }
    static func le64(_ v: UInt64) -> [UInt8] { le32(UInt32(v & 0xFFFF_FFFF)) + le32(UInt32(v >> 32)) }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    /// Raw deflate (no zlib header), as zip stores it.
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(&stream, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
        let produced: Int = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                _ = CSystemZlib.deflate(&stream, Z_FINISH)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<produced])
    }
}

/// A scratch folder per test, removed afterwards.
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("issuearchive-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func zip(_ name: String, _ entries: [ZipFixture.Entry]) throws -> URL {
        let archive = file(name)
        try ZipFixture(entries).write(to: archive)
        return archive
    }

    /// Everything under the scratch folder (relative paths), to prove nothing stray was written.
    func listing() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        var all: [String] = []
        while let next = enumerator?.nextObject() as? String { all.append(next) }
        return all.sorted()
    }
}
