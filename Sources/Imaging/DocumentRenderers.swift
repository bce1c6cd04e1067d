import Foundation

/// Draws the pages of one kind of document (PDF) as pictures.
public protocol DocumentRenderer: Sendable {
    /// The page (or its `region`) upright. `size` is the pixel size it will be drawn at
    /// (nil: its natural size); a renderer may draw larger for quality.
    func render(_ page: DocumentPage, fitting size: (width: Int, height: Int)?) throws -> RGBAImage
}

/// The document renderers a process has, by the kind of document they draw. A page of a
/// kind nobody registered fails with an `ImageError` of kind `.unsupported`.
public final class DocumentRenderers: @unchecked Sendable {
    /// The renderers every picture is drawn with unless a caller passes its own.
    public static let shared = DocumentRenderers()

    // `lock` guards `renderers`: registration may happen while workers render.
    private let lock = NSLock()
    private var renderers: [DocumentKind: any DocumentRenderer] = [:]

    public init() {}

    /// Makes `renderer` draw every document of `kind` (replacing the one before, if any).
    public func register(_ renderer: any DocumentRenderer, for kind: DocumentKind) {
        lock.withLock { renderers[kind] = renderer }
    }

    public func renderer(for kind: DocumentKind) -> (any DocumentRenderer)? {
        lock.withLock { renderers[kind] }
    }

    /// The page drawn by the renderer registered for its kind.
    public func render(_ page: DocumentPage, fitting size: (width: Int, height: Int)?) throws -> RGBAImage {
        guard let renderer = renderer(for: page.kind) else {
            throw ImageError(.unsupported, "cannot draw pages of \(page.kind.rawValue.uppercased()) documents "
                             + "(\(page.document.lastPathComponent)): no renderer for them is installed")
        }
        return try renderer.render(page, fitting: size)
    }
}
