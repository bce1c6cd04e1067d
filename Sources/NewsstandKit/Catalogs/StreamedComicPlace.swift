import Feeds
import Foundation

extension StreamedComic {
    /// Tells the server the page the reader left at, after `close()`, where the server keeps
    /// the place from the pages asked for (`OPDSProgress.streamKeepsPlace`): the pages fetched
    /// ahead moved it past the page read, so that page is asked for once more, last. Blocks
    /// for one request: run it off any key's path.
    public func tellPlace(through progress: OPDSProgress) throws {
        guard OPDSProgress.streamKeepsPlace(stream) else { return }
        finishFetching()
        try progress.tell(stream, page: currentPage, maxWidth: maxWidth)
    }
}
