/// Bounds checked before anything is written, and again while writing (declared sizes can lie).
public struct ExtractionLimits: Sendable, Equatable {
    /// Sum of every entry's uncompressed size.
    public var maxTotalBytes: Int64
    public var maxEntries: Int
    /// Uncompressed ÷ compressed size, for an entry or the whole archive, once it is larger than
    /// `ratioCheckMinimumBytes` (tiny files legitimately compress very well).
    public var maxCompressionRatio: Double
    public var ratioCheckMinimumBytes: Int64
    /// Folders nested deeper than this are refused.
    public var maxPathDepth: Int

    public init(maxTotalBytes: Int64, maxEntries: Int, maxCompressionRatio: Double,
                ratioCheckMinimumBytes: Int64 = 1 << 20, maxPathDepth: Int = 32) {
        self.maxTotalBytes = maxTotalBytes
        self.maxEntries = maxEntries
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioCheckMinimumBytes = ratioCheckMinimumBytes
        self.maxPathDepth = maxPathDepth
    }

    /// Generous for real periodicals (a 300-page comic at print resolution is well under 2 GiB)
    /// and far below what a zip bomb needs (deflate tops out near 1032:1).
    public static let standard = ExtractionLimits(
        maxTotalBytes: 2 << 30, maxEntries: 20_000, maxCompressionRatio: 200
    )
}
