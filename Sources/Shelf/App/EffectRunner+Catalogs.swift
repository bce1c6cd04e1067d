import Feeds
import Foundation
import NewsstandKit

/// The catalog screen's work: pages, searches, catalogs added and covers on a queue of
/// their own (so a page never waits behind a feed refresh), the results posted as
/// messages. A server that asks for a password is a message too: the screen asks the user
/// and sends `.signIn`, which keeps the credentials and does the same work again.
extension EffectRunner {
    /// Takes the catalog screen's effects (all but subscribing, which runs with the
    /// refreshes, and taking a book, a write); false for any other effect.
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
                    self.report(error, retry: effect, as: "")
                }
            }
        case .searchCatalog(let page, let terms):
            catalogs.async {
                do { box.post(.catalogPageLoaded(try library.catalogBrowser.search(page, terms: terms), replacing: false)) } catch {
                    self.report(error, retry: effect, as: "search: ")
                }
            }
        case .addCatalog(let url):
            catalogs.async {
                do {
                    let (catalog, page, added) = try library.addCatalog(url: url)
                    box.post(.catalogsRead(try library.catalogs()))
                    box.post(.catalogPageLoaded(page, replacing: false))
                    if !added { box.post(.catalogSubscribed("“\(catalog.title)” was already kept.")) }
                } catch {
                    self.report(error, retry: effect, as: "cannot add the catalog: ")
                }
            }
        case .signIn(let host, let user, let password, let retry):
            catalogs.async {
                do {
                    try CredentialStore(paths: library.paths).save(.basic(user: user, password: password), for: host)
                } catch {
                    box.post(.catalogFailed("cannot keep the password for \(host): \(error)"))
                    return
                }
                self.perform(retry)
            }
        case .closeStreamedComic(let comic):
            comic.close()
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

    func subscribe(catalogFeed url: URL, title: String, effect: ShelfApp.Effect) {
        do {
            let (publication, result) = try library.subscribe(catalogFeed: url)
            mailbox.post(.catalogSubscribed("Subscribed to “\(publication.title)”: \(result.added.count) new issue(s) on the shelf."))
        } catch {
            report(error, retry: effect, as: "cannot subscribe to “\(title)”: ")
        }
    }

    /// A server that wants a password asks for it; any other failure is one line.
    private func report(_ error: Error, retry: ShelfApp.Effect, as prefix: String) {
        if let auth = error as? HTTPAuthenticationRequired {
            mailbox.post(.catalogNeedsSignIn(host: auth.host, server: auth.serverName, wrong: auth.credentialsSent, retry: retry))
        } else {
            mailbox.post(.catalogFailed(prefix + "\(error)"))
        }
    }
}
