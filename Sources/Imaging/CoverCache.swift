import FileWrites
import Foundation

/// Rendered pictures (covers, pages, article images), kept in memory and on disk and
/// rendered on worker threads, so a screen never waits twice for the same picture.
///
/// Pictures are keyed by a hash of the image's bytes (a document page: of the document's
/// path, size, modification time and page number) and the render options, so a renamed
/// or re-downloaded copy of a cover is still a hit. Disk entries are written to a
/// temporary file and renamed into place; a damaged entry is ignored and rewritten.
public final class CoverCache: Sendable {
    private let engine: CoverCacheEngine

    /// `directory`: where rendered pictures are kept on disk (nil: memory only).
    /// `workers`: threads that render in the background. `documents`: who draws the pages
    /// of documents.
    public init(directory: URL?, workers: Int = 2, documents: DocumentRenderers = .shared) {
        engine = CoverCacheEngine(directory: directory, workers: workers, documents: documents)
    }

    /// The worker threads finish the queued renders and stop.
    deinit { engine.shutDown() }

    /// Most pictures kept in memory (a 30×22 picture is ~30 KB); the oldest go first.
    public var memoryLimit: Int {
        get { engine.memoryLimit }
        set { engine.memoryLimit = newValue }
    }

    /// The cached picture if it is ready; otherwise nil, and a render is scheduled on a
    /// worker thread (once per source and options); `onReady` is called on that thread when
    /// it completes, whether it succeeded or failed (see `error(for:options:)`). A file
    /// that does not exist fails at once, without a callback.
    public func picture(for source: ImageSource, options: RenderOptions,
                        onReady: @escaping @Sendable () -> Void) -> CellPicture? {
        engine.picture(for: source, options: options, onReady: onReady)
    }

    /// Why the last render of this source with these options failed, if it did.
    public func error(for source: ImageSource, options: RenderOptions) -> ImageError? {
        engine.error(for: source, options: options)
    }

    /// Renders now on the calling thread (or answers from the cache), filling the cache.
    public func renderNow(_ source: ImageSource, options: RenderOptions) throws -> CellPicture {
        try engine.renderNow(source, options: options)
    }

    /// `picture(for:options:onReady:)` of an image file.
    public func picture(for imageFile: URL, options: RenderOptions,
                        onReady: @escaping @Sendable () -> Void) -> CellPicture? {
        picture(for: .file(imageFile), options: options, onReady: onReady)
    }

    /// `error(for:options:)` of an image file.
    public func error(for imageFile: URL, options: RenderOptions) -> ImageError? {
        error(for: .file(imageFile), options: options)
    }

    /// `renderNow(_:options:)` of an image file.
    public func renderNow(imageFile: URL, options: RenderOptions) throws -> CellPicture {
        try renderNow(.file(imageFile), options: options)
    }

    /// The picture for image bytes, from memory, disk, or a fresh render.
    public func picture(forBytes data: [UInt8], options: RenderOptions) throws -> CellPicture {
        try engine.picture(forBytes: data, options: options)
    }

    /// Stops the worker threads once the queued renders are done (also done on deinit).
    public func shutDown() { engine.shutDown() }
}

/// The cache itself; the worker threads hold it, so that `CoverCache` can go away.
/// Unchecked Sendable: `lock` (the condition its workers wait on) guards every mutable field.
final class CoverCacheEngine: @unchecked Sendable {
    var memoryLimit: Int {
        get { lock.lock(); defer { lock.unlock() }; return limit }
        set { lock.lock(); limit = newValue; lock.unlock() }
    }

    private let directory: URL?
    private let documents: DocumentRenderers
    private let lock = NSCondition()
    private var limit = 2048
    private var sourceHashes: [SourceKey: UInt64] = [:]
    private var pictures: [PictureKey: CellPicture] = [:]
    private var pictureOrder: [PictureKey] = []
    private var failures: [JobKey: ImageError] = [:]
    private var waiting: [JobKey: [@Sendable () -> Void]] = [:]
    private var queue: [JobKey] = []
    private var workers: [Thread] = []
    private var stopping = false

    init(directory: URL?, workers: Int = 2, documents: DocumentRenderers) {
        self.directory = directory
        self.documents = documents
        if let directory {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        for index in 0..<max(workers, 1) {
            let thread = Thread { self.work() }
            thread.name = "CoverCache worker \(index)"
            thread.qualityOfService = .userInitiated
            self.workers.append(thread)
            thread.start()
        }
    }

    /// Stops the worker threads once the queued renders are done.
    func shutDown() {
        lock.lock()
        stopping = true
        lock.broadcast()
        lock.unlock()
    }

    func picture(for source: ImageSource, options: RenderOptions,
                 onReady: @escaping @Sendable () -> Void) -> CellPicture? {
        let key = JobKey(source: SourceKey(source), options: options)
        lock.lock()
        defer { lock.unlock() }
        if key.source.isMissingFile {
            failures[key] = ImageError(.unreadable, "cannot read \(source.file?.path ?? "\(source)"): no such file")
            return nil
        }
        if let hash = sourceHashes[key.source], let picture = pictures[PictureKey(hash: hash, options: options)] {
            return picture
        }
        if failures[key] != nil { return nil }
        if waiting[key] != nil {
            waiting[key, default: []].append(onReady)
            return nil
        }
        waiting[key] = [onReady]
        queue.append(key)
        lock.signal()
        return nil
    }

    func error(for source: ImageSource, options: RenderOptions) -> ImageError? {
        let key = JobKey(source: SourceKey(source), options: options)
        lock.lock()
        defer { lock.unlock() }
        return failures[key]
    }

    func renderNow(_ source: ImageSource, options: RenderOptions) throws -> CellPicture {
        try renderNow(SourceKey(source), options: options)
    }

    private func renderNow(_ key: SourceKey, options: RenderOptions) throws -> CellPicture {
        switch key.source {
        case .file(let url):
            let data = try ImageDecoder.readBytes(atPath: url.path)
            return try picture(forBytes: data, source: key, options: options)
        case .bytes(let image):
            return try picture(forBytes: image.bytes, source: key, options: options)
        case .page(let page):
            // Hashing a whole document for one page would cost more than drawing it.
            let region = page.region.map { "|\($0.x0),\($0.y0),\($0.x1),\($0.y1)" } ?? ""
            let hash = ContentHash.hash(Array("\(page.kind)|\(page.index)|\(key.file?.description ?? page.document.path)\(region)".utf8))
            return try picture(hash: hash, source: key, options: options) {
                try self.documents.render(page, fitting: options.pixelSize)
            }
        }
    }

    func picture(forBytes data: [UInt8], options: RenderOptions) throws -> CellPicture {
        try picture(forBytes: data, source: nil, options: options)
    }

    private func picture(forBytes data: [UInt8], source: SourceKey?, options: RenderOptions) throws -> CellPicture {
        try picture(hash: ContentHash.hash(data), source: source, options: options) {
            try ImageDecoder.decode(data, drawnWith: options)
        }
    }

    /// The picture whose content hashes to `hash`, from memory, disk, or `image` rendered.
    private func picture(hash: UInt64, source: SourceKey?, options: RenderOptions,
                         image: () throws -> RGBAImage) throws -> CellPicture {
        let key = PictureKey(hash: hash, options: options)
        lock.lock()
        if let source { sourceHashes[source] = hash }
        if let picture = pictures[key] {
            lock.unlock()
            return picture
        }
        lock.unlock()
        if let picture = readDisk(key) {
            remember(picture, for: key)
            return picture
        }
        let picture = CoverRenderer.render(try image(), options: options)
        writeDisk(picture, for: key)
        remember(picture, for: key)
        return picture
    }

    private func remember(_ picture: CellPicture, for key: PictureKey) {
        lock.lock()
        defer { lock.unlock() }
        if pictures.updateValue(picture, forKey: key) == nil { pictureOrder.append(key) }
        if pictureOrder.count > limit {
            let excess = pictureOrder.count - limit
            for old in pictureOrder.prefix(excess) { pictures[old] = nil }
            pictureOrder.removeFirst(excess)
        }
    }

    // MARK: Workers

    private func work() {
        while true {
            lock.lock()
            while queue.isEmpty && !stopping { lock.wait() }
            if queue.isEmpty {
                lock.unlock()
                return
            }
            // Newest request first: after a scroll, the covers now on screen come first.
            let job = queue.removeLast()
            lock.unlock()

            var failure: ImageError?
            do {
                _ = try renderNow(job.source, options: job.options)
            } catch let error as ImageError {
                failure = error
            } catch {
                failure = ImageError(.unreadable, "\(job.source.source): \(error)")
            }
            lock.lock()
            if let failure { failures[job] = failure }
            let callbacks = waiting.removeValue(forKey: job) ?? []
            lock.unlock()
            for callback in callbacks { callback() }
        }
    }

    // MARK: Disk

    private func diskURL(_ key: PictureKey) -> URL? {
        guard let directory else { return nil }
        let hash = String(key.hash, radix: 16)
        let options = key.options
        let name = "\(String(repeating: "0", count: 16 - hash.count))\(hash)-\(options.columns)x\(options.rows)"
            + "-\(options.colorMode.rawValue)-\(options.symbols.rawValue)"
            + "-\(Int((options.cellAspect * 1000).rounded()))\(options.letterbox ? "-l" : "")"
            + "-v\(PictureCoding.version).cells"
        return directory.appendingPathComponent(name)
    }

    private func readDisk(_ key: PictureKey) -> CellPicture? {
        guard let url = diskURL(key), let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return PictureCoding.decode([UInt8](data))
    }

    private func writeDisk(_ picture: CellPicture, for key: PictureKey) {
        guard let url = diskURL(key) else { return }
        // A cache that cannot be written only costs a render next time.
        try? AtomicFile.write(Data(PictureCoding.encode(picture)), to: url)
    }
}

/// A file as found on disk: a changed size or modification time means changed content.
private struct FileIdentity: Hashable, CustomStringConvertible {
    let path: String
    let size: Int64
    let modified: Int64

    init?(_ url: URL) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        path = url.path
        size = Int64(info.st_size)
        #if os(Linux)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #else
        modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #endif
    }

    var description: String { "\(path)|\(size)|\(modified)" }
}

private struct PictureKey: Hashable {
    let hash: UInt64
    let options: RenderOptions
}

/// A source as it is now: a file's identity changes when the file does.
private struct SourceKey: Hashable {
    let source: ImageSource
    let file: FileIdentity?

    init(_ source: ImageSource) {
        self.source = source
        file = source.file.flatMap(FileIdentity.init)
    }

    /// Read from a file that is not there.
    var isMissingFile: Bool { source.file != nil && file == nil }
}

private struct JobKey: Hashable {
    let source: SourceKey
    let options: RenderOptions
}
