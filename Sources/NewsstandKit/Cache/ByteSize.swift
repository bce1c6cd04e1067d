import Foundation

/// Sizes as people write them in `cache_limit` and `--limit`: `2GB`, `500 MiB`, `1.5G`,
/// `750000000`. Units ending in `iB`, and single letters (`K`, `M`, `G`, `T`), are powers
/// of 1024; `KB`, `MB`, `GB`, `TB` are powers of 1000, as on a disk's label.
public enum ByteSize {
    public static let kibibyte: Int64 = 1024
    public static let mebibyte: Int64 = 1024 * 1024
    public static let gibibyte: Int64 = 1024 * 1024 * 1024

    private static let units: [String: Double] = [
        "": 1, "b": 1, "byte": 1, "bytes": 1,
        "k": 1024, "kib": 1024, "kb": 1e3,
        "m": 1024 * 1024, "mib": 1024 * 1024, "mb": 1e6,
        "g": 1024 * 1024 * 1024, "gib": 1024 * 1024 * 1024, "gb": 1e9,
        "t": 1024 * 1024 * 1024 * 1024, "tib": 1024 * 1024 * 1024 * 1024, "tb": 1e12,
    ]

    /// The number of bytes `text` names, or an error saying what a size looks like.
    public static func parse(_ text: String) throws -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let number = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces).lowercased()
        guard !number.isEmpty, number.filter({ $0 == "." }).count <= 1, let value = Double(number),
              let scale = units[unit] else {
            throw ByteSizeError(text: text)
        }
        let bytes = (value * scale).rounded(.down)
        guard bytes.isFinite, bytes < 9e18 else { throw ByteSizeError(text: text) }
        return Int64(bytes)
    }

    /// `1.5 GiB`, `512 MiB`, `900 KiB`, `12 B`: binary units, so a size shown can be typed back.
    public static func format(_ bytes: Int64) -> String {
        let steps: [(Int64, String)] = [(1 << 40, "TiB"), (gibibyte, "GiB"), (mebibyte, "MiB"), (kibibyte, "KiB")]
        for (scale, name) in steps where abs(bytes) >= scale {
            let value = Double(bytes) / Double(scale)
            let text = value >= 100 || value == value.rounded() ? String(format: "%.0f", value) : String(format: "%.1f", value)
            return "\(text) \(name)"
        }
        return "\(bytes) B"
    }
}

public struct ByteSizeError: Error, CustomStringConvertible, Equatable {
    public var text: String
    public var description: String {
        "'\(text)' is not a size: write a number and a unit, like 2GB, 500 MiB, 1.5G or 800000000 (bytes)"
    }
}
