import CSystemZlib
import Foundation

/// One entry as the central directory and its local header describe it, after both were
/// checked against each other.
struct ZipEntryRecord {
    enum Kind { case file, directory, symlink, special }

    var index: Int
    var name: String
    var rawName: [UInt8]
    var flags: UInt16
    var method: UInt16
    var crc32: UInt32
    var compressedSize: UInt64
    var uncompressedSize: UInt64
    var localHeaderOffset: UInt64
    var dataOffset: UInt64
    /// End of the entry's bytes in the file, data descriptor included.
    var regionEnd: UInt64
    var kind: Kind
}

/// The archive's table of contents, read with our own parser so that every claim it makes
/// (offsets, sizes, methods, flags) is checked before a single byte is extracted.
struct ZipDirectory {
    var entries: [ZipEntryRecord]
    var centralDirectoryOffset: UInt64

    private static let localHeaderSignature: UInt32 = 0x0403_4b50
    private static let centralHeaderSignature: UInt32 = 0x0201_4b50
    private static let endSignature: UInt32 = 0x0605_4b50
    private static let zip64EndSignature: UInt32 = 0x0606_4b50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    private static let descriptorSignature: UInt32 = 0x0807_4b50

    static let methodNames: [UInt16: String] = [
        1: "Shrink", 2: "Reduce", 3: "Reduce", 4: "Reduce", 5: "Reduce", 6: "Implode", 9: "Deflate64",
        10: "PKWARE Implode", 12: "bzip2", 14: "LZMA", 18: "IBM TERSE", 19: "LZ77", 93: "Zstandard",
        94: "MP3", 95: "XZ", 96: "JPEG", 97: "WavPack", 98: "PPMd",
    ]

    static func read(_ file: ArchiveFile, label: String, limits: ExtractionLimits) throws -> ZipDirectory {
        try refuseOtherFormats(file, label: label)
        let end = try findEnd(file)
        guard end.entryCount <= UInt64(limits.maxEntries) else {
            throw ArchiveError(.limitExceeded,
                               "archive has \(end.entryCount) entries, more than the limit of \(limits.maxEntries)")
        }
        guard end.directoryOffset <= file.size, end.directorySize <= file.size - end.directoryOffset,
              end.directoryOffset + end.directorySize <= end.recordOffset else {
            throw ArchiveError(.truncated, "archive is truncated: its central directory lies past the end of the file")
        }
        guard end.directorySize <= 64 << 20 else {
            throw ArchiveError(.limitExceeded, "archive's central directory is larger than 64 MiB")
        }
        let directory = try file.bytes(at: end.directoryOffset, count: Int(end.directorySize), what: "the central directory")
        var entries: [ZipEntryRecord] = []
        entries.reserveCapacity(Int(end.entryCount))
        var cursor = 0
        let reader = ByteReader(directory)
        for index in 0..<Int(end.entryCount) {
            guard cursor + 46 <= directory.count, reader.u32(cursor) == centralHeaderSignature else {
                throw ArchiveError(.inconsistent,
                                   "archive's central directory is damaged: entry \(index + 1) of \(end.entryCount) is missing")
            }
            var entry = try centralEntry(reader, at: &cursor, index: index)
            try checkLocalHeader(&entry, file: file, directoryOffset: end.directoryOffset)
            entries.append(entry)
        }
        try checkLayout(entries, directoryOffset: end.directoryOffset)
        return ZipDirectory(entries: entries, centralDirectoryOffset: end.directoryOffset)
    }

    // MARK: - Not a zip at all

    private static func refuseOtherFormats(_ file: ArchiveFile, label: String) throws {
        let head = try file.bytes(at: 0, count: Int(min(file.size, 512)), what: "the header")
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<(offset + magic.count)]) == magic
        }
        let other: String?
        if starts([0x52, 0x61, 0x72, 0x21, 0x1A, 0x07]) { other = "a RAR archive" }
        else if starts([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { other = "a 7-Zip archive" }
        else if starts([0x1F, 0x8B]) { other = "a gzip file" }
        else if starts(Array("%PDF-".utf8)) { other = "a PDF document" }
        else if starts(Array("ustar".utf8), at: 257) { other = "a tar archive" }
        else if starts([0x42, 0x5A, 0x68]) { other = "a bzip2 file" }
        else if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { other = "an xz file" }
        else { other = nil }
        if let other {
            throw ArchiveError(.wrongFormat, "this \(label) is \(other), not a zip")
        }
        if file.size == 0 {
            throw ArchiveError(.notAZip, "this \(label) is empty, not a zip")
        }
    }

    // MARK: - End of central directory

    private struct End {
        var entryCount: UInt64
        var directorySize: UInt64
        var directoryOffset: UInt64
        /// Where the (ZIP64) end record starts: the central directory must end before it.
        var recordOffset: UInt64
    }

    private static func findEnd(_ file: ArchiveFile) throws -> End {
        let tailLength = Int(min(file.size, 22 + 0xFFFF))
        let tailStart = file.size - UInt64(tailLength)
        let tail = ByteReader(try file.bytes(at: tailStart, count: tailLength, what: "the end record"))
        // The record whose comment ends exactly at the end of the file; a second one that does
        // too (a record hidden in a comment) makes the archive ambiguous. Trailing bytes are
        // accepted only when no record ends exactly there.
        var found: Int?
        var fitting: Int?
        var position = tailLength - 22
        while position >= 0 {
            if tail.u32(position) == endSignature {
                let end = position + 22 + Int(tail.u16(position + 20))
                if end == tailLength {
                    if found != nil {
                        throw ArchiveError(.inconsistent, "archive has two end records; it is damaged or crafted to mislead")
                    }
                    found = position
                } else if end < tailLength && fitting == nil {
                    fitting = position
                }
            }
            position -= 1
        }
        found = found ?? fitting
        guard let at = found else {
            let head = try file.bytes(at: 0, count: Int(min(file.size, 4)), what: "the header")
            if head == [0x50, 0x4B, 0x03, 0x04] {
                throw ArchiveError(.truncated, "archive is truncated: its central directory is missing")
            }
            throw ArchiveError(.notAZip, "file is not a zip archive")
        }
        let recordOffset = tailStart + UInt64(at)
        let disk = tail.u16(at + 4), directoryDisk = tail.u16(at + 6)
        var end = End(entryCount: UInt64(tail.u16(at + 10)), directorySize: UInt64(tail.u32(at + 12)),
                      directoryOffset: UInt64(tail.u32(at + 16)), recordOffset: recordOffset)
        if recordOffset >= 20 {
            let locator = ByteReader(try file.bytes(at: recordOffset - 20, count: 20, what: "the ZIP64 locator"))
            if locator.u32(0) == zip64LocatorSignature {
                let zip64Offset = locator.u64(8)
                guard zip64Offset < recordOffset, recordOffset - zip64Offset >= 56 else {
                    throw ArchiveError(.inconsistent, "archive's ZIP64 end record is damaged")
                }
                let record = ByteReader(try file.bytes(at: zip64Offset, count: 56, what: "the ZIP64 end record"))
                guard record.u32(0) == zip64EndSignature else {
                    throw ArchiveError(.inconsistent, "archive's ZIP64 end record is damaged")
                }
                guard record.u32(16) == 0, record.u32(20) == 0 else {
                    throw ArchiveError(.unsupportedMethod, "archive is split across several files, which is not supported")
                }
                end = End(entryCount: record.u64(32), directorySize: record.u64(40),
                          directoryOffset: record.u64(48), recordOffset: zip64Offset)
                return end
            }
        }
        guard disk == 0, directoryDisk == 0 else {
            throw ArchiveError(.unsupportedMethod, "archive is split across several files, which is not supported")
        }
        if tail.u16(at + 8) != tail.u16(at + 10) {
            throw ArchiveError(.inconsistent, "archive's end record is damaged: its entry counts disagree")
        }
        return end
    }

    // MARK: - Central directory entries

    private static func centralEntry(_ reader: ByteReader, at cursor: inout Int, index: Int) throws -> ZipEntryRecord {
        let base = cursor
        let versionMadeBy = reader.u16(base + 4)
        let flags = reader.u16(base + 8)
        let method = reader.u16(base + 10)
        let crc = reader.u32(base + 16)
        var compressed = UInt64(reader.u32(base + 20))
        var uncompressed = UInt64(reader.u32(base + 24))
        let nameLength = Int(reader.u16(base + 28))
        let extraLength = Int(reader.u16(base + 30))
        let commentLength = Int(reader.u16(base + 32))
        let external = reader.u32(base + 38)
        var localOffset = UInt64(reader.u32(base + 42))
        let next = base + 46 + nameLength + extraLength + commentLength
        guard next <= reader.bytes.count else {
            throw ArchiveError(.inconsistent, "archive's central directory is damaged at entry \(index + 1)")
        }
        let rawName = reader.slice(base + 46, nameLength)
        let extra = reader.slice(base + 46 + nameLength, extraLength)
        cursor = next

        var name = (flags & (1 << 11)) != 0 ? String(decoding: rawName, as: UTF8.self) : CodePage437.decodeUnflaggedName(rawName)
        if (flags & (1 << 11)) != 0, String(validatingUTF8: rawName.map { CChar(bitPattern: $0) } + [0]) == nil,
           !rawName.contains(0) {
            throw ArchiveError.unsafePath(name, "is marked UTF-8 but its name is not valid UTF-8")
        }
        for field in extraFields(extra) {
            switch field.id {
            case 0x0001:
                // ZIP64: only the fields that overflowed are present, in this order.
                let zip64 = ByteReader(field.data)
                var at = 0
                if uncompressed == 0xFFFF_FFFF { uncompressed = zip64.u64(at); at += 8 }
                if compressed == 0xFFFF_FFFF { compressed = zip64.u64(at); at += 8 }
                if localOffset == 0xFFFF_FFFF { localOffset = zip64.u64(at); at += 8 }
                guard at <= field.data.count else {
                    throw ArchiveError(.inconsistent, "archive entry '\(ArchiveError.printable(name))' has a damaged ZIP64 field")
                }
            case 0x7075 where (flags & (1 << 11)) == 0 && field.data.count > 5 && field.data[0] == 1:
                // Info-ZIP Unicode path: trusted only if it was made from this very name.
                let unicode = ByteReader(field.data)
                let expected = unicode.u32(1)
                let actual = rawName.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
                if expected == actual, let decoded = String(validating: field.data[5...], as: UTF8.self) {
                    name = decoded
                }
            default:
                break
            }
        }

        let host = versionMadeBy >> 8
        let mode = (host == 3 || host == 19) ? (external >> 16) & 0o170000 : 0
        let kind: ZipEntryRecord.Kind
        switch mode {
        case 0o120000: kind = .symlink
        case 0o040000: kind = .directory
        case 0, 0o100000: kind = name.hasSuffix("/") || (host == 0 && (external & 0x10) != 0) ? .directory : .file
        default: kind = .special
        }
        return ZipEntryRecord(index: index, name: name, rawName: rawName, flags: flags, method: method, crc32: crc,
                              compressedSize: compressed, uncompressedSize: uncompressed,
                              localHeaderOffset: localOffset, dataOffset: 0, regionEnd: 0, kind: kind)
    }

    private static func extraFields(_ extra: [UInt8]) -> [(id: UInt16, data: [UInt8])] {
        let reader = ByteReader(extra)
        var fields: [(UInt16, [UInt8])] = []
        var at = 0
        while at + 4 <= extra.count {
            let id = reader.u16(at), length = Int(reader.u16(at + 2))
            guard at + 4 + length <= extra.count else { break }
            fields.append((id, reader.slice(at + 4, length)))
            at += 4 + length
        }
        return fields
    }

    // MARK: - Local headers

    private static func checkLocalHeader(_ entry: inout ZipEntryRecord, file: ArchiveFile, directoryOffset: UInt64) throws {
        let shown = ArchiveError.printable(entry.name)
        func disagree(_ what: String) -> ArchiveError {
            ArchiveError(.inconsistent,
                         "archive entry '\(shown)' is damaged: its local header and the central directory disagree about \(what)")
        }
        if (entry.flags & 0x41) != 0 || entry.method == 99 || (entry.flags & (1 << 13)) != 0 {
            throw ArchiveError(.encrypted, "archive entry '\(shown)' is encrypted; encrypted archives are not supported")
        }
        if entry.method != 0 && entry.method != 8 {
            let name = methodNames[entry.method].map { " (\($0))" } ?? ""
            throw ArchiveError(.unsupportedMethod,
                               "archive entry '\(shown)' uses compression method \(entry.method)\(name), which is not supported")
        }
        guard entry.localHeaderOffset < directoryOffset else {
            throw ArchiveError(.inconsistent, "archive entry '\(shown)' points into the central directory")
        }
        let header = ByteReader(try file.bytes(at: entry.localHeaderOffset, count: 30, what: "the header of '\(shown)'"))
        guard header.u32(0) == localHeaderSignature else {
            throw ArchiveError(.inconsistent, "archive entry '\(shown)' is damaged: no local header where the central directory says")
        }
        let flags = header.u16(6)
        if (flags & 0x41) != 0 { throw ArchiveError(.encrypted, "archive entry '\(shown)' is encrypted; encrypted archives are not supported") }
        guard header.u16(8) == entry.method else { throw disagree("the compression method") }
        let nameLength = Int(header.u16(26)), extraLength = Int(header.u16(28))
        let variable = try file.bytes(at: entry.localHeaderOffset + 30, count: nameLength + extraLength,
                                      what: "the header of '\(shown)'")
        guard Array(variable[0..<nameLength]) == entry.rawName else { throw disagree("the name") }
        var compressed = UInt64(header.u32(18)), uncompressed = UInt64(header.u32(22))
        if compressed == 0xFFFF_FFFF || uncompressed == 0xFFFF_FFFF,
           let zip64 = extraFields(Array(variable[nameLength...])).first(where: { $0.id == 0x0001 }) {
            let reader = ByteReader(zip64.data)
            var at = 0
            if uncompressed == 0xFFFF_FFFF { uncompressed = reader.u64(at); at += 8 }
            if compressed == 0xFFFF_FFFF { compressed = reader.u64(at) }
        }
        let usesDescriptor = (flags & 0x08) != 0
        if !usesDescriptor {
            guard header.u32(14) == entry.crc32 else { throw disagree("the CRC-32") }
            guard compressed == entry.compressedSize, uncompressed == entry.uncompressedSize else { throw disagree("the size") }
        } else {
            // Streamed entries may leave the local fields zero; if they are filled in, they must agree.
            if header.u32(14) != 0 && header.u32(14) != entry.crc32 { throw disagree("the CRC-32") }
            if compressed != 0 && compressed != entry.compressedSize { throw disagree("the size") }
        }
        entry.dataOffset = entry.localHeaderOffset + 30 + UInt64(nameLength + extraLength)
        let (dataEnd, overflow) = entry.dataOffset.addingReportingOverflow(entry.compressedSize)
        guard !overflow, dataEnd <= file.size else {
            throw ArchiveError(.truncated, "archive is truncated: the data of '\(shown)' lies past the end of the file")
        }
        entry.regionEnd = dataEnd
        if usesDescriptor {
            let probe = ByteReader(try file.bytes(at: dataEnd, count: Int(min(24, file.size - dataEnd)), what: "a data descriptor"))
            let signed = probe.u32(0) == descriptorSignature
            let crcAt = signed ? 4 : 0
            let wide = entry.compressedSize >= 0xFFFF_FFFF || entry.uncompressedSize >= 0xFFFF_FFFF
            let length = crcAt + 4 + (wide ? 16 : 8)
            guard probe.bytes.count >= length else {
                throw ArchiveError(.truncated, "archive is truncated: the data descriptor of '\(shown)' is missing")
            }
            let descriptorCRC = probe.u32(crcAt)
            if descriptorCRC != entry.crc32 {
                // Some streaming writers leave the central CRC zero; the descriptor then has the
                // real one, and the data is checked against it.
                guard entry.crc32 == 0 else { throw disagree("the CRC-32") }
                entry.crc32 = descriptorCRC
            }
            entry.regionEnd = dataEnd + UInt64(length)
        }
    }

    /// Every entry must own its bytes: entries that share data are how the non-recursive
    /// zip bomb multiplies one compressed block into terabytes.
    private static func checkLayout(_ entries: [ZipEntryRecord], directoryOffset: UInt64) throws {
        let ordered = entries.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
        for (previous, next) in zip(ordered, ordered.dropFirst()) where previous.regionEnd > next.localHeaderOffset {
            throw ArchiveError(.overlappingEntries,
                               "archive entries '\(ArchiveError.printable(previous.name))' and '\(ArchiveError.printable(next.name))' overlap; the archive is a zip bomb or damaged")
        }
        if let last = ordered.last, last.regionEnd > directoryOffset {
            throw ArchiveError(.overlappingEntries,
                               "archive entry '\(ArchiveError.printable(last.name))' overlaps the central directory; the archive is damaged")
        }
    }
}
