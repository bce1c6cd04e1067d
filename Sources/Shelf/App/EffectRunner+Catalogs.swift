import Feeds
import Foundation
import NewsstandKit

/// The catalog screen's reads: pages, searches and covers on a queue of their own (so a
/// page never waits behind a feed refresh), the results posted as messages.
extension EffectRunner {
    /// Takes the catalog reads; false for any other effect.
    func performCatalogRead(_ effect: ShelfApp.Effect) -> Bool {
        let library = library
        let box = mailbox
        switch effect {
        case .readCatalogs:
            catalogs.async {
                do { box.post(.catalogsRead(try library.catalogs())) } catch { box.post(.catalogFailed("catalogs: \(error)")) }
            }
        case .loadCatalogPage(let url, let replacing):
            catalogs.async {
                do { box.post(.catalogPageLoaded(try library.catalogBrowser.page(at: url), replacing: replacing)) } catch {
                    box.post(.catalogFailed("\(error)"))
                }
            }
        case .searchCatalog(let page, let terms):
            catalogs.async {
                do { box.post(.catalogPageLoaded(try library.catalogBrowser.search(page, terms: terms), replacing: false)) } catch {
                    box.post(.catalogFailed("search: \(error)"))
                }
            }
        case .fetchCatalogCovers(let urls):
            // After the page: the covers arrive as they come, and the screen draws them then.
            catalogs.async {
                if library.fetchCatalogCovers(urls) > 0 { box.post(.coverReady) }
            }
        default:
            return false
        }
        return true
    }

    func subscribe(catalogFeed url: URL, title: String) {
        do {
            let (publication, result) = try library.subscribe(catalogFeed: url)
            mailbox.post(.catalogSubscribed("Subscribed to “\(publication.title)”: \(result.added.count) new issue(s) on the shelf."))
        } catch {
            mailbox.post(.catalogFailed("cannot subscribe to “\(title)”: \(error)"))
        }
    }
}
