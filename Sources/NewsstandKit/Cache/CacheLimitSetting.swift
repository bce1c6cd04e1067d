import Foundation
import TOMLReader

/// `newsstand cache --limit SIZE` writes `cache_limit` into config.toml: the one place the
/// budget lives, so what a person reads in the file is what the agent uses. The rest of the
/// file (comments, other keys, tables) is kept as it was.
public enum CacheLimitSetting {
    /// Sets `cache_limit = "SIZE"` in the config file (created if missing) and returns the
    /// new budget in bytes. The size is checked first; a file that would not load afterwards
    /// is not written.
    @discardableResult
    public static func set(_ size: String, paths: Paths) throws -> Int64 {
        let bytes = try ByteSize.parse(size)
        let file = paths.configFile
        let old = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let updated = setting(size.trimmingCharacters(in: .whitespaces), in: old)
        _ = try Config.parse(updated, file: file.path)
        try FileManager.default.createDirectory(at: paths.config, withIntermediateDirectories: true)
        let permissions = (try? FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]) as? NSNumber
        try Data(updated.utf8).write(to: file, options: .atomic)
        try? FileManager.default.setAttributes([.posixPermissions: permissions ?? NSNumber(value: 0o600)], ofItemAtPath: file.path)
        return bytes
    }

    /// The bytes a `cache_limit` value names: a size string or a whole number of bytes.
    static func bytes(of value: TOMLValue, file: String) throws -> Int64 {
        do {
            if let bytes = value.integer {
                guard bytes >= 0 else { throw ByteSizeError(text: "\(bytes)") }
                return Int64(bytes)
            }
            guard let text = value.string else { throw ByteSizeError(text: "\(value)") }
            return try ByteSize.parse(text)
        } catch {
            throw ConfigError(file: file, message: "cache_limit: \(error)")
        }
    }

    /// `text` with its top-level `cache_limit` line replaced, or one added before the first
    /// table (keys after a `[table]` header belong to that table).
    static func setting(_ size: String, in text: String) -> String {
        let line = "cache_limit = \"\(size.replacingOccurrences(of: "\"", with: ""))\""
        var lines = text.isEmpty ? [] : text.components(separatedBy: "\n")
        let firstTable = lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("[") } ?? lines.count
        if let existing = lines[..<firstTable].firstIndex(where: { isCacheLimit($0) }) {
            lines[existing] = line
        } else {
            var at = firstTable
            while at > 0, lines[at - 1].trimmingCharacters(in: .whitespaces).isEmpty { at -= 1 }
            lines.insert(line, at: at)
            if at == 0, lines.count > 1, !lines[1].trimmingCharacters(in: .whitespaces).isEmpty { lines.insert("", at: 1) }
        }
        var result = lines.joined(separator: "\n")
        if !result.hasSuffix("\n") { result += "\n" }
        return result
    }

    private static func isCacheLimit(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("cache_limit") else { return false }
        return trimmed.dropFirst("cache_limit".count).trimmingCharacters(in: .whitespaces).hasPrefix("=")
    }
}
