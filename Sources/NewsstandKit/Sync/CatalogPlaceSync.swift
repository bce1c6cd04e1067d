import Foundation

/// Keeps the places of issues taken from a catalog that keeps places (an OPDS 2 progression
/// link, recorded by `Subscriptions.take`) in step with that catalog, as `PlaceSync` does
/// with the servers the user added and by the same rules: the newest place by its time wins;
/// one that would move the reader back, or forward by more than a few pages, is offered
/// rather than taken; every place replaced goes to the issue's history. Run by `PlaceSync.sync`,
/// so on opening an issue (an effect), on `sync now` and by the agent's step.
public struct CatalogPlaceSync: Sendable {
    let store: LibraryStore
    let clock: WallClock
    let progress: OPDSProgress

    public init(store: LibraryStore, paths: Paths, clock: WallClock) {
        self.init(store: store, clock: clock, progress: OPDSProgress(paths: paths))
    }

    init(store: LibraryStore, clock: WallClock, progress: OPDSProgress) {
        (self.store, self.clock, self.progress) = (store, clock, progress)
    }

    /// Syncs the issues with a progression link (all, or those of `issues`); `onlyDue` (the
    /// agent) only those whose place changed since they were last checked. A catalog that
    /// does not answer is asked nothing more this time; the places wait for the next sync.
    public func sync(issues: [Int64]? = nil, onlyDue: Bool = false, into report: inout PlaceSync.Report) {
        let places: [LibraryStore.CatalogPlace]
        do {
            places = try store.catalogPlaces(issues: issues).filter { !onlyDue || $0.isDue }
        } catch {
            report.problems.append("the library could not be read: \(error)")
            return
        }
        var down: Set<String> = []
        for place in places {
            let host = place.url.host ?? place.url.absoluteString
            guard !down.contains(host) else { continue }
            do {
                let (step, seen) = try sync(place)
                switch step {
                case .sent: report.sent += 1
                case .received: report.received += 1
                case .offered: report.offered += 1
                case .unnamed: report.unnamed += 1
                case .nothing: break
                }
                try store.noteCatalogPlaceChecked(place.issue, at: clock.now(), seen: seen)
            } catch let error as SyncError {
                down.insert(host)
                report.problems.append(error.description)
            } catch {
                report.problems.append("the library could not keep a place from \(host): \(error)")
            }
        }
    }

    /// Whether sync has anything of a catalog's to look at now (the agent's step asks).
    public func hasDuePlaces() -> Bool { ((try? store.catalogPlaces()) ?? []).contains { $0.isDue } }

    /// One issue with its catalog: the newer place wins (`PlaceSync.weigh`); also the
    /// catalog's place as it now stands, to be kept as `seen`. A catalog place that has not
    /// moved since it was last seen is not newer, whatever its time.
    func sync(_ place: LibraryStore.CatalogPlace) throws -> (PlaceSync.Step, seen: Locator?) {
        let issue = place.issue
        let local = issue.locator
        let theirs = try progress.read(place.url)
        let their = theirs.flatMap(Self.locator)
        if let their, place.seen.map({ PlaceSync.move(from: $0, to: their) != .none }) ?? true,
           local.map({ their.updated > $0.updated }) ?? true {
            let source = "\(place.url.host ?? "the catalog"): \(theirs?.device ?? "the catalog's reader")"
            return (try PlaceSync.weigh(their, over: local, of: issue, from: source, in: store, at: clock.now()), their)
        }
        guard let local, their.map({ PlaceSync.move(from: local, to: $0) != .none }) ?? true else { return (.nothing, their) }
        let ours = OPDSProgress.Place(position: local.page.map { $0 + 1 }, totalProgression: local.totalProgression, modified: local.updated)
        let device = PlaceSync.deviceName
        let written = try progress.write(ours, to: place.url, device: (id: device, name: device)) == .written
        return written ? (.sent, local) : (.nothing, their)
    }

    /// A catalog's place as a locator dated by the catalog: a position is a page (from 1),
    /// else the share of the whole book.
    static func locator(from place: OPDSProgress.Place) -> Locator? {
        guard let updated = place.modified, place.position != nil || place.totalProgression != nil else { return nil }
        let total = place.totalProgression ?? 0
        if let position = place.position, position >= 1 {
            return Locator(resource: "", progression: 1, totalProgression: total, page: position - 1, updated: updated)
        }
        return Locator(resource: "", progression: 0, totalProgression: total, updated: updated)
    }
}

extension PlaceSync {
    /// The places kept by catalogs, over this sync's transport and sign-ins.
    var catalogs: CatalogPlaceSync {
        let credentials = self.credentials
        return CatalogPlaceSync(store: store, clock: clock,
                                progress: OPDSProgress(transport: transport, credentials: { try? credentials().credentials(for: $0) }))
    }
}
