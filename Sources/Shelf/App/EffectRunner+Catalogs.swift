import Feeds
import Foundation
import NewsstandKit

/// The catalog screen's longer work, run by `EffectRunner.run` on the catalog queue (pages,
/// searches, catalogs added, sign-ins) or with the refreshes (subscribing). A server that
/// asks for a password is a message: the screen asks the user and sends `.signIn`, which
/// keeps the credentials and comes back as `.signedIn`, whose update does the work again.
extension EffectRunner {
    func addCatalog(_ url: URL, effect: ShelfApp.Effect) {
        do {
            let (catalog, page, added) = try library.catalogs.addCatalog(url: url)
            mailbox.post(.catalogsRead(try library.store.catalogs()))
            mailbox.post(.catalogPageLoaded(page, replacing: false))
            if !added { mailbox.post(.catalogSubscribed("“\(catalog.title)” was already kept.")) }
        } catch {
            report(error, retry: effect, as: "cannot add the catalog: ")
        }
    }

    func signIn(host: String, user: String, password: String, retry: ShelfApp.Effect) {
        do {
            try CredentialStore(paths: library.paths).save(.basic(user: user, password: password), for: host)
            mailbox.post(.signedIn(retry: retry))
        } catch {
            mailbox.post(.catalogFailed("cannot keep the password for \(host): \(error)"))
        }
    }

    func subscribe(catalogFeed url: URL, title: String, effect: ShelfApp.Effect) {
        do {
            let (publication, result) = try library.subscriptions.subscribe(feedURL: url)
            mailbox.post(.catalogSubscribed("Subscribed to “\(publication.title)”: \(result.added.count) new issue(s) on the shelf."))
        } catch {
            report(error, retry: effect, as: "cannot subscribe to “\(title)”: ")
        }
    }

    /// A server that wants a password asks for it; any other failure is one line.
    func report(_ error: Error, retry: ShelfApp.Effect, as prefix: String) {
        if let auth = error as? HTTPAuthenticationRequired {
            mailbox.post(.catalogNeedsSignIn(host: auth.host, server: auth.serverName, wrong: auth.credentialsSent, retry: retry))
        } else {
            mailbox.post(.catalogFailed(prefix + "\(error)"))
        }
    }
}
