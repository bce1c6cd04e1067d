#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads `max_colors` from a compiled terminfo entry (legacy and 32-bit formats) as a
/// file: asking ncurses costs `setupterm`, too slow for `render`'s start.
enum TerminfoFile {
    static func colors(term: String, environment: [String: String]) -> Int? {
        guard !term.isEmpty, !term.contains("/"), let first = term.first else { return nil }
        var directories: [String] = []
        if let dir = environment["TERMINFO"], !dir.isEmpty { directories.append(dir) }
        if let home = environment["HOME"], !home.isEmpty { directories.append(home + "/.terminfo") }
        if let dirs = environment["TERMINFO_DIRS"] {
            directories += dirs.split(separator: ":").map(String.init)
        }
        directories += ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo", "/usr/lib/terminfo"]
        let hex = String(first.asciiValue ?? 0, radix: 16)
        for directory in directories {
            for sub in [String(first), hex] {
                if let bytes = contents(of: "\(directory)/\(sub)/\(term)") {
                    return maxColors(in: bytes)
                }
            }
        }
        return nil
    }

    /// `max_colors` (numeric capability 13): 0 when the entry has none (vt100), nil when
    /// the bytes are not a compiled entry.
    static func maxColors(in bytes: [UInt8]) -> Int? {
        func short(_ offset: Int) -> Int? {
            guard offset + 1 < bytes.count else { return nil }
            let value = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            return value >= 0x8000 ? value - 0x10000 : value
        }
        guard let magic = short(0), let namesSize = short(2), let boolCount = short(4),
              let numberCount = short(6), namesSize >= 0, boolCount >= 0, numberCount >= 0 else { return nil }
        let numberSize: Int
        switch magic {
        case 0o432: numberSize = 2
        case 0o1036: numberSize = 4
        default: return nil
        }
        guard numberCount > 13 else { return 0 }
        var offset = 12 + namesSize + boolCount
        if offset % 2 == 1 { offset += 1 }
        offset += 13 * numberSize
        guard offset + numberSize <= bytes.count else { return nil }
        var value = 0
        for index in 0..<numberSize { value |= Int(bytes[offset + index]) << (8 * index) }
        if numberSize == 2, value >= 0x8000 { value -= 0x10000 }
        if numberSize == 4, value >= 0x8000_0000 { value -= 0x1_0000_0000 }
        return max(0, value)
    }

    /// A compiled entry's bytes; nil when missing, unreadable or larger than ncurses reads (1 MB).
    static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              status.st_size > 0, status.st_size <= 1 << 20 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        return count == bytes.count ? bytes : nil
    }
}
