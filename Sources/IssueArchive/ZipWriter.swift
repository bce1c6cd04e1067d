import CSystemZlib
import Foundation

/// Writes a zip archive front to back: each entry's header and data once, in the order
/// added, and the central directory once, at `finish`. ZIPFoundation's `addEntry` reads and
/// rewrites the whole central directory after every entry, so an EPUB of n files cost
/// O(n²) bytes written; this costs the archive's size. No ZIP64: an EPUB is far from
/// 65,535 entries or 4 GiB, and one that is not is refused, not written wrong.
final class ZipWriter {
    private let url: URL
    private let handle: FileHandle
    private var central = Data()
    private var count = 0
    private var offset: UInt64 = 0

    init(url: URL) throws {
        self.url = url
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: url.path) else {
            throw ArchiveError.io("create", url.path, errno: errno == 0 ? EIO : errno)
        }
        self.handle = handle
    }

    deinit { try? handle.close() }

    /// Adds a file: deflated, or stored as it is (`mimetype`, pictures already compressed).
    func add(_ path: String, _ data: Data, compressed: Bool) throws {
        let name = Data(path.utf8)
        let crc = data.withUnsafeBytes { UInt32(crc32(0, $0.bindMemory(to: UInt8.self).baseAddress, uInt($0.count))) }
        let body = compressed ? try Self.deflate(data, path: path) : data
        guard count < 0xFFFF, name.count <= 0xFFFF, data.count < 0xFFFF_FFFF, body.count < 0xFFFF_FFFF,
              offset + UInt64(30 + name.count + body.count) < 0xFFFF_FFFF else {
            throw ArchiveError(.limitExceeded, "'\(ArchiveError.printable(path))' would make \(url.path) larger than a zip without ZIP64 holds")
        }
        // Version 2.0, bit 11: the name is UTF-8; method 8 deflate or 0 stored; no date (1980-01-01).
        let method: UInt16 = compressed ? 8 : 0
        var fields = Data()
        fields.append(le: UInt16(20)); fields.append(le: UInt16(0x0800)); fields.append(le: method)
        fields.append(le: UInt16(0)); fields.append(le: UInt16(0x21))
        fields.append(le: crc); fields.append(le: UInt32(body.count)); fields.append(le: UInt32(data.count))
        fields.append(le: UInt16(name.count)); fields.append(le: UInt16(0))

        var local = Data()
        local.append(le: UInt32(0x0403_4b50)); local.append(fields); local.append(name)
        central.append(le: UInt32(0x0201_4b50)); central.append(le: UInt16(0x0314))   // made by Unix, 2.0
        central.append(fields)
        central.append(le: UInt16(0)); central.append(le: UInt16(0)); central.append(le: UInt16(0))  // comment, disk, internal
        central.append(le: UInt32(0o100644) << 16); central.append(le: UInt32(offset)); central.append(name)
        try write(local)
        try write(body)
        offset += UInt64(local.count + body.count)
        count += 1
    }

    /// Writes the central directory and the end record, and closes the file.
    func finish() throws {
        var end = Data()
        end.append(le: UInt32(0x0605_4b50)); end.append(le: UInt16(0)); end.append(le: UInt16(0))
        end.append(le: UInt16(count)); end.append(le: UInt16(count))
        end.append(le: UInt32(central.count)); end.append(le: UInt32(offset)); end.append(le: UInt16(0))
        try write(central)
        try write(end)
        do { try handle.close() } catch { throw ArchiveError.io("close", url.path, errno: EIO) }
    }

    private func write(_ data: Data) throws {
        do { try handle.write(contentsOf: data) } catch { throw ArchiveError.io("write", url.path, errno: errno == 0 ? EIO : errno) }
    }

    /// Raw deflate (no zlib header), as zip's method 8 holds it.
    private static func deflate(_ data: Data, path: String) throws -> Data {
        var stream = z_stream()
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ArchiveError(.inconsistent, "zlib could not start compressing '\(ArchiveError.printable(path))'")
        }
        defer { deflateEnd(&stream) }
        var output = Data(count: Int(deflateBound(&stream, uLong(data.count))))
        let status = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                return CSystemZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            throw ArchiveError(.inconsistent, "zlib could not compress '\(ArchiveError.printable(path))' (status \(status))")
        }
        output.count = Int(stream.total_out)
        return output
    }
}

private extension Data {
    mutating func append<T: FixedWidthInteger>(le value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
