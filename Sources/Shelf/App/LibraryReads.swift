import NewsstandKit

/// The library's reads for the screens: the shelf (unless only the store is wanted), the
/// open store's issues, and how the downloads watched last time ended. Only ever on the
/// reads queue (`EffectRunner.reads`): `shelfReader` keeps what it read last.
final class LibraryReads: @unchecked Sendable {   // `shelfReader` is touched only on the reads queue
    private let library: Library
    private let shelfReader: ShelfReader

    init(library: Library) {
        self.library = library
        shelfReader = ShelfReader(library: library)
    }

    func read(_ request: ShelfApp.ReadRequest) -> ShelfApp.LibraryRead {
        var read = ShelfApp.LibraryRead()
        if !request.storeOnly {
            do {
                read.summaries = try shelfReader.summaries()
                let pending = Set(((try? library.downloads.pendingDownloads()) ?? []).map(\.issueId))
                read.pendingDownloads = pending
                read.finishedDownloads = request.watched.subtracting(pending).compactMap { try? library.store.issue(id: $0) }
            } catch {
                read.error = "\(error)"
            }
        }
        do {
            if let id = request.storePublicationID { read.store = (id, try shelfReader.storeTiles(publicationID: id)) }
        } catch {
            read.error = "\(error)"
        }
        return read
    }
}
