import Foundation

/// Which colours and characters the terminal can show, from the environment.
public enum ColorModeDetection {
    /// `NO_COLOR` (any value) → none; `TERM=dumb` → none; `COLORTERM=truecolor|24bit` or
    /// a `*-direct` TERM → truecolor; otherwise terminfo's colour count (16M → truecolor,
    /// 256 → 256, 8 or 16 → 16, fewer → none); without terminfo, a `*256color*` TERM
    /// → 256, an empty TERM → none, any other TERM → 16.
    public static func detect(environment: [String: String], terminfoColors: Int?) -> ColorMode {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let term = (environment["TERM"] ?? "").lowercased()
        if term == "dumb" { return .none }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .truecolor }
        if term.hasSuffix("-direct") || term.contains("-direct-") { return .truecolor }
        if let colors = terminfoColors {
            if colors >= 1 << 24 { return .truecolor }
            if colors >= 256 { return .palette256 }
            if colors >= 8 { return .palette16 }
            return .none
        }
        if term.contains("256color") { return .palette256 }
        return term.isEmpty ? .none : .palette16
    }

    /// True when the locale (`LC_ALL`, else `LC_CTYPE`, else `LANG`) is not UTF-8, so that
    /// `▀` may not show: callers then draw with `Symbols.ascii`.
    public static func prefersASCII(environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale = locale?.lowercased() else { return true }
        return !(locale.contains("utf-8") || locale.contains("utf8"))
    }

    /// The current process's colour mode: environment plus the terminfo entry of `TERM`.
    public static func detectCurrent(environment: [String: String] = currentEnvironment) -> ColorMode {
        let term = environment["TERM"] ?? ""
        return detect(environment: environment,
                      terminfoColors: term.isEmpty ? nil : TerminfoReader.colors(term: term, environment: environment))
    }
}

extension ColorModeDetection {
    /// The variables colour and locale detection read, from the process environment
    /// (without building Foundation's dictionary of every variable).
    public static var currentEnvironment: [String: String] {
        var environment: [String: String] = [:]
        for name in ["NO_COLOR", "TERM", "COLORTERM", "LC_ALL", "LC_CTYPE", "LANG", "TERMINFO", "TERMINFO_DIRS", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }
}

/// Reads `max_colors` from a compiled terminfo entry (legacy and 32-bit formats)
/// without loading ncurses, which only the `Terminal` module may use.
enum TerminfoReader {
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
                if let bytes = try? ImageDecoder.readBytes(atPath: "\(directory)/\(sub)/\(term)") {
                    return maxColors(in: bytes)
                }
            }
        }
        return nil
    }

    /// `max_colors` (numeric capability 13), or nil when absent or unreadable.
    static func maxColors(in bytes: [UInt8]) -> Int? {
        func short(_ offset: Int) -> Int? {
            guard offset + 1 < bytes.count else { return nil }
            let value = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            return value >= 0x8000 ? value - 0x10000 : value
        }
        guard let magic = short(0), let namesSize = short(2), let boolCount = short(4),
              let numberCount = short(6), namesSize >= 0, boolCount >= 0, numberCount > 13 else { return nil }
        let numberSize: Int
        switch magic {
        case 0o432: numberSize = 2
        case 0o1036: numberSize = 4
        default: return nil
        }
        var offset = 12 + namesSize + boolCount
        if offset % 2 == 1 { offset += 1 }
        offset += 13 * numberSize
        guard offset + numberSize <= bytes.count else { return nil }
        var value = 0
        for index in 0..<numberSize { value |= Int(bytes[offset + index]) << (8 * index) }
        if numberSize == 2, value >= 0x8000 { value -= 0x10000 }
        if numberSize == 4, value >= 0x8000_0000 { value -= 0x1_0000_0000 }
        return value < 0 ? nil : value
    }
}
