import CSystemZlib
import Foundation
import ZIPFoundation

/// Extraction that refuses hostile archives before writing anything and leaves nothing half-done.
public enum SafeExtractor {
    /// Extracts into a temporary directory beside `destination`, verifies every entry, then renames
    /// into place. `destination` must not exist. On any failure nothing is left behind.
    public static func extract(archive: URL, to destination: URL, limits: ExtractionLimits = .standard,
                               storage: Storage = SystemStorage()) throws {
        let destination = destination.standardizedFileURL
        if FileSystem.exists(destination) { throw FileSystem.destinationExists(destination) }
        let staging = try FileSystem.makeStagingDirectory(beside: destination, purpose: "extracting")
        do {
            _ = try extractContents(of: archive, into: staging, limits: limits, storage: storage)
            try FileSystem.renameNoReplace(staging, to: destination)
        } catch {
            FileSystem.removeTree(staging)
            throw error
        }
    }

    /// Checks the whole archive without writing anything: the plan extraction would follow.
    static func plan(archive: URL, limits: ExtractionLimits) throws -> (ArchiveFile, [PlannedEntry]) {
        let file = try ArchiveFile(url: archive)
        let ext = archive.pathExtension.lowercased()
        let label = ext.isEmpty ? "file" : ".\(ext)"
        let directory = try ZipDirectory.read(file, label: label, limits: limits)
        try crossCheck(archive: archive, directory: directory)

        var planned: [PlannedEntry] = []
        var kinds: [String: Bool] = [:] // relative path → is a directory
        var total: Int64 = 0
        var compressedTotal: Int64 = 0
        for record in directory.entries {
            let shown = ArchiveError.printable(record.name)
            switch record.kind {
            case .symlink: throw ArchiveError(.unsafeEntryType, "archive entry '\(shown)' is a symbolic link; links are never extracted")
            case .special: throw ArchiveError(.unsafeEntryType, "archive entry '\(shown)' is a device or special file")
            case .file, .directory: break
            }
            let isDirectory = record.kind == .directory
            let parts = try EntryPath.components(of: record.name, isDirectory: isDirectory, maxDepth: limits.maxPathDepth)
            if parts.isEmpty { continue }
            for depth in 1..<parts.count {
                let prefix = parts[0..<depth].joined(separator: "/")
                if kinds[prefix] == false {
                    throw ArchiveError(.duplicateEntry, "archive entry '\(shown)' lies inside '\(ArchiveError.printable(prefix))', which is a file")
                }
                kinds[prefix] = true
            }
            let path = parts.joined(separator: "/")
            if let existing = kinds[path] {
                if isDirectory && existing { continue } // a folder listed twice is harmless
                throw ArchiveError(.duplicateEntry, "archive has two entries named '\(ArchiveError.printable(path))'")
            }
            kinds[path] = isDirectory
            if isDirectory {
                planned.append(PlannedEntry(record: record, path: path, isDirectory: true))
                continue
            }
            guard record.uncompressedSize <= UInt64(limits.maxTotalBytes) else {
                throw ArchiveError(.limitExceeded, "archive entry '\(shown)' would unpack to \(record.uncompressedSize) bytes, more than the limit of \(limits.maxTotalBytes)")
            }
            let size = Int64(record.uncompressedSize)
            total += size
            compressedTotal += Int64(min(record.compressedSize, UInt64(Int64.max / 2)))
            guard total <= limits.maxTotalBytes else {
                throw ArchiveError(.limitExceeded, "archive would unpack to more than the limit of \(limits.maxTotalBytes) bytes")
            }
            if record.method == 0 && record.compressedSize != record.uncompressedSize {
                throw ArchiveError(.inconsistent, "archive entry '\(shown)' is stored uncompressed but its two sizes differ")
            }
            if size >= limits.ratioCheckMinimumBytes,
               Double(size) / Double(max(record.compressedSize, 1)) > limits.maxCompressionRatio {
                throw ArchiveError(.limitExceeded, "archive entry '\(shown)' expands \(Int(Double(size) / Double(max(record.compressedSize, 1))))-fold, more than the limit of \(Int(limits.maxCompressionRatio)); it looks like a zip bomb")
            }
            planned.append(PlannedEntry(record: record, path: path, isDirectory: false))
        }
        if total >= limits.ratioCheckMinimumBytes,
           Double(total) / Double(max(compressedTotal, 1)) > limits.maxCompressionRatio {
            throw ArchiveError(.limitExceeded, "archive expands \(Int(Double(total) / Double(max(compressedTotal, 1))))-fold, more than the limit of \(Int(limits.maxCompressionRatio)); it looks like a zip bomb")
        }
        return (file, planned)
    }

    struct PlannedEntry {
        var record: ZipEntryRecord
        /// Relative, normalised, checked.
        var path: String
        var isDirectory: Bool
    }

    /// ZIPFoundation reads the same archive as a second opinion: if the two readers do not
    /// list the same entries, one of them is being fooled, and the archive is refused.
    private static func crossCheck(archive: URL, directory: ZipDirectory) throws {
        let zip: Archive
        do {
            zip = try Archive(url: archive, accessMode: .read)
        } catch {
            throw ArchiveError(.inconsistent, "archive is damaged: its entries cannot be listed")
        }
        var count = 0
        for entry in zip {
            guard count < directory.entries.count else { break }
            let record = directory.entries[count]
            // Entries with a data descriptor are compared by count only: ZIPFoundation reads the
            // descriptor by position and some writers leave out its signature.
            let streamed = (record.flags & 0x08) != 0
            guard streamed || record.kind == .directory
                    || (entry.uncompressedSize == record.uncompressedSize && entry.checksum == record.crc32) else {
                throw ArchiveError(.inconsistent, "archive entry '\(ArchiveError.printable(record.name))' is damaged: its headers disagree")
            }
            count += 1
        }
        guard count == directory.entries.count else {
            throw ArchiveError(.inconsistent, "archive is damaged: its central directory lists \(directory.entries.count) entries but only \(count) can be read")
        }
    }

    /// Writes every planned entry under `directory` (which must be new and empty) and returns
    /// the relative paths of the files written, in archive order.
    @discardableResult
    static func extractContents(of archive: URL, into directory: URL, limits: ExtractionLimits,
                                storage: Storage = SystemStorage()) throws -> [String] {
        let (file, planned) = try plan(archive: archive, limits: limits)
        var writer = EntryWriter(file: file, storage: storage)
        var made: Set<String> = []
        var files: [String] = []
        func makeDirectories(_ path: String) throws {
            var prefix = ""
            for part in path.split(separator: "/") {
                prefix += prefix.isEmpty ? String(part) : "/" + part
                if made.contains(prefix) { continue }
                let url = directory.appendingPathComponent(prefix)
                if mkdir(url.path, 0o755) != 0 && !(errno == EEXIST && FileSystem.isDirectory(url)) {
                    throw ArchiveError.io("create the folder", prefix, errno: errno)
                }
                made.insert(prefix)
            }
        }
        for entry in planned {
            if entry.isDirectory {
                try makeDirectories(entry.path)
                continue
            }
            if let slash = entry.path.lastIndex(of: "/") { try makeDirectories(String(entry.path[..<slash])) }
            try writer.write(entry.record, to: directory.appendingPathComponent(entry.path))
            files.append(entry.path)
        }
        return files
    }
}

/// Copies one entry's data to a new file: inflating with zlib when needed, bounded by the
/// declared sizes (input and output), CRC-32 checked. Buffers are reused across entries.
struct EntryWriter {
    private let file: ArchiveFile
    private let storage: Storage
    private static let chunk = 256 * 1024
    private var input = [UInt8](repeating: 0, count: chunk)
    private var output = [UInt8](repeating: 0, count: chunk)

    init(file: ArchiveFile, storage: Storage = SystemStorage()) {
        self.file = file
        self.storage = storage
    }

    mutating func write(_ record: ZipEntryRecord, to url: URL) throws {
        let shown = ArchiveError.printable(record.name)
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw ArchiveError(.duplicateEntry, "archive has two entries named '\(shown)'") }
            throw ArchiveError.io("create", url.lastPathComponent, errno: errno)
        }
        defer { close(descriptor) }
        var crc: UInt = crc32(0, nil, 0)
        var written: UInt64 = 0
        let storage = self.storage
        let expected = record.uncompressedSize

        func emit(_ pointer: UnsafePointer<UInt8>, _ count: Int) throws {
            guard count > 0 else { return }
            written += UInt64(count)
            guard written <= expected else {
                throw ArchiveError(.limitExceeded, "archive entry '\(shown)' unpacks to more than the \(expected) bytes it declares; the archive is damaged or hostile")
            }
            crc = crc32(crc, pointer, uInt(count))
            let failure = storage.writeAll(descriptor, pointer, count)
            if failure != 0 { throw ArchiveError.io("write", url.lastPathComponent, errno: failure) }
        }

        if record.method == 0 {
            try copyStored(record, emit: emit)
        } else {
            try inflate(record, shown: shown, emit: emit)
        }
        guard written == expected else {
            throw ArchiveError(.truncated, "archive entry '\(shown)' is damaged: its data ends after \(written) of \(expected) bytes")
        }
        guard UInt32(truncatingIfNeeded: crc) == record.crc32 else {
            throw ArchiveError(.checksumMismatch, "archive entry '\(shown)' is damaged: its CRC-32 does not match")
        }
    }

    private mutating func copyStored(_ record: ZipEntryRecord, emit: (UnsafePointer<UInt8>, Int) throws -> Void) throws {
        var offset = record.dataOffset
        var left = record.compressedSize
        let file = self.file
        try input.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            while left > 0 {
                let got = try file.read(into: base, count: Int(min(UInt64(buffer.count), left)), at: offset)
                guard got > 0 else { break }
                try emit(base, got)
                offset += UInt64(got)
                left -= UInt64(got)
            }
        }
    }

    private mutating func inflate(_ record: ZipEntryRecord, shown: String,
                                  emit: (UnsafePointer<UInt8>, Int) throws -> Void) throws {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ArchiveError(.io, "cannot start zlib to inflate '\(shown)'")
        }
        defer { inflateEnd(&stream) }
        var offset = record.dataOffset
        var left = record.compressedSize
        let file = self.file
        var finished = false
        try input.withUnsafeMutableBufferPointer { inBuffer in
            try output.withUnsafeMutableBufferPointer { outBuffer in
                guard let inBase = inBuffer.baseAddress, let outBase = outBuffer.baseAddress else { return }
                while !finished {
                    if stream.avail_in == 0 {
                        // Only this entry's own compressed bytes are ever fed to zlib.
                        guard left > 0 else {
                            throw ArchiveError(.truncated, "archive entry '\(shown)' is damaged: its compressed data ends early")
                        }
                        let got = try file.read(into: inBase, count: Int(min(UInt64(inBuffer.count), left)), at: offset)
                        guard got > 0 else {
                            throw ArchiveError(.truncated, "archive is truncated inside '\(shown)'")
                        }
                        offset += UInt64(got)
                        left -= UInt64(got)
                        stream.next_in = inBase
                        stream.avail_in = uInt(got)
                    }
                    stream.next_out = outBase
                    stream.avail_out = uInt(outBuffer.count)
                    let status = CSystemZlib.inflate(&stream, Z_NO_FLUSH)
                    switch status {
                    case Z_OK, Z_BUF_ERROR: break
                    case Z_STREAM_END: finished = true
                    default:
                        throw ArchiveError(.checksumMismatch, "archive entry '\(shown)' is damaged: its compressed data is corrupt")
                    }
                    let produced = outBuffer.count - Int(stream.avail_out)
                    try emit(outBase, produced)
                    if status == Z_BUF_ERROR && produced == 0 && stream.avail_in > 0 {
                        throw ArchiveError(.checksumMismatch, "archive entry '\(shown)' is damaged: its compressed data is corrupt")
                    }
                }
            }
        }
    }
}
