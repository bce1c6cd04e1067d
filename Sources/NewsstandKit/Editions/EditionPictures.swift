import Foundation

/// How much of the web an edition may bring in: pictures are optional, so a slow or huge
/// one is left out (its alt text stays) rather than holding the edition back.
public struct EditionPictureLimits: Sendable {
    public var maximumCount = 60
    public var maximumBytesPerPicture: Int64 = 4 << 20
    public var maximumBytesPerEdition: Int64 = 48 << 20
    /// One picture's request: a silent server is given up on after this.
    public var timeout: TimeInterval = 10
    /// No new picture is started once the edition has spent this long fetching.
    public var totalTime: TimeInterval = 60
    public init() {}
}

/// A picture fetched for an edition, recognised by its bytes.
struct EditionPicture: Sendable {
    var data: Data
    var mediaType: String
    var fileExtension: String
}

/// Fetches an edition's pictures through the library's `HTTPAccess`, several at once, each
/// once, within `EditionPictureLimits`; a picture that fails, is too big, is not PNG, JPEG,
/// GIF or WebP, or is a 1×1 tracker is simply missing from the result. What arrives is kept
/// in the build's work area, so a build started again fetches it from there.
struct EditionPictures {
    let access: HTTPAccess
    let limits: EditionPictureLimits
    let workArea: EditionWorkArea
    /// Asked before each fetch: true stops the build (`EditionBuildStopped`).
    var shouldStop: @Sendable () -> Bool = { false }
    /// Called (from the fetching threads) with how many pictures are done, of how many.
    var progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }

    /// Transfers at once: they wait on servers, not on the processor.
    static let fetchesAtOnce = 8

    /// The pictures wanted, each once, as many as the limits allow.
    func wanted(_ urls: [URL]) -> [URL] {
        var seen = Set<URL>()
        return Array(urls.filter { seen.insert($0).inserted }.prefix(limits.maximumCount))
    }

    func fetch(_ urls: [URL]) throws -> [URL: EditionPicture] {
        let wanted = wanted(urls)
        progress(0, wanted.count)
        guard !wanted.isEmpty else { return [:] }
        let deadline = Date().addingTimeInterval(limits.totalTime)
        let lock = NSLock()
        var bytes: Int64 = 0
        var done = 0
        var stopped = false
        var found: [URL: EditionPicture] = [:]
        FetchPool.run(wanted.count, width: Self.fetchesAtOnce) { index in
            let go = lock.withLock { () -> Bool in
                if !stopped, shouldStop() { stopped = true }
                return !stopped
            }
            let picture = go && Date() < deadline ? fetchOne(wanted[index]) : nil
            let count: Int = lock.withLock {
                if let picture, bytes + Int64(picture.data.count) <= limits.maximumBytesPerEdition {
                    bytes += Int64(picture.data.count)
                    found[wanted[index]] = picture
                }
                done += 1
                return done
            }
            if go { progress(count, wanted.count) }
        }
        if stopped { throw EditionBuildStopped() }
        return found
    }

    private func fetchOne(_ url: URL) -> EditionPicture? {
        let data: Data
        if url.isFileURL {
            // Only beside a local feed (the article cleaner keeps file links from no other).
            guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber,
                  size.int64Value <= limits.maximumBytesPerPicture, let read = try? Data(contentsOf: url) else { return nil }
            data = read
        } else if let kept = workArea.kept(url, .picture) {
            data = kept
        } else {
            let part = workArea.partFile(for: url, .picture)
            defer { try? FileManager.default.removeItem(at: part) }
            let transfer = access.transfer(url, into: part, timeout: limits.timeout, maximumLength: limits.maximumBytesPerPicture,
                                           lowSpeedLimit: Transfer.LowSpeedLimit(minimumBytes: 1024, window: limits.timeout))
            guard let result = try? TransferRunner.run(transfer, validator: nil, policy: RetryPolicy(maxAttempts: 1, baseDelay: 0, maxDelay: 0),
                                                       progress: { _ in }),
                  result.bytes <= limits.maximumBytesPerPicture,
                  let read = try? Data(contentsOf: result.file) else { return nil }
            // Kept as it came, tracker or not: a build started again asks for none of it twice.
            workArea.keep(result.file, for: url, .picture)
            data = read
        }
        guard let kind = PictureBytes.kind(of: data) else { return nil }
        if let size = PictureBytes.size(of: data), size.width <= 1, size.height <= 1 { return nil }
        return EditionPicture(data: data, mediaType: kind.mediaType, fileExtension: kind.fileExtension)
    }
}

/// What a picture's first bytes say: its format and, for PNG, GIF and JPEG, its size.
enum PictureBytes {
    struct Kind: Equatable {
        var mediaType: String
        var fileExtension: String
    }

    static func kind(of data: Data) -> Kind? {
        let b = [UInt8](data.prefix(12))
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return Kind(mediaType: "image/png", fileExtension: "png") }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return Kind(mediaType: "image/jpeg", fileExtension: "jpg") }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return Kind(mediaType: "image/gif", fileExtension: "gif") }
        if b.count == 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) {
            return Kind(mediaType: "image/webp", fileExtension: "webp")
        }
        return nil
    }

    static func size(of data: Data) -> (width: Int, height: Int)? {
        let b = [UInt8](data.prefix(64 << 10))
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        guard let kind = kind(of: data) else { return nil }
        switch kind.fileExtension {
        case "png" where b.count >= 24: return (be32(16), be32(20))
        case "gif" where b.count >= 10: return (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
        case "jpg":
            // Markers until a start-of-frame, which holds the height and the width.
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return (be16(i + 7), be16(i + 5)) }
                i += 2 + be16(i + 2)
            }
            return nil
        default: return nil
        }
    }
}
