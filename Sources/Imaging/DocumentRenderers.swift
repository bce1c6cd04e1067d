import Foundation
import Synchronization

/// Draws the pages of one kind of document (PDF) as pictures.
public protocol DocumentRenderer: Sendable {
    /// The page (or its `region`) upright. `size` is the pixel size it will be drawn at
    /// (nil: its natural size); a renderer may draw larger for quality.
    func render(_ page: DocumentPage, fitting size: (width: Int, height: Int)?) throws -> RGBAImage
}

/// The document renderers a process has, by the kind of document they draw. A page of a
/// kind nobody registered fails with an `ImageError` of kind `.unsupported`.
public final class DocumentRenderers: Sendable {
    /// The renderers every picture is drawn with unless a caller passes its own.
    public static let shared = DocumentRenderers()

    // Registration may happen while workers render.
    private let renderers = Mutex<[DocumentKind: any DocumentRenderer]>([:])

    public init() {}

    /// Makes `renderer` draw every document of `kind` (replacing the one before, if any).
    public func register(_ renderer: any DocumentRenderer, for kind: DocumentKind) {
        renderers.withLock { $0[kind] = renderer }
    }

    public func renderer(for kind: DocumentKind) -> (any DocumentRenderer)? {
        renderers.withLock { $0[kind] }
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
