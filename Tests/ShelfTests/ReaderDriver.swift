import Foundation
import Terminal
import TextLayout
@testable import NewsstandKit
@testable import Shelf

/// A reader model over an issue's files with its reads done at once, in order, as the
/// app's reader I/O queue does them one after another, and its pictures prepared by
/// `painter` after each message and before each drawing, as the app's run loop does after a
/// frame: the model alone, no run loop.
@dynamicMemberLookup
final class LoadedReader {
    private(set) var model: ReaderScreen
    let loader: ReaderLoader
    let painter: CoverPainter?

    init(_ model: ReaderScreen, loader: ReaderLoader, painter: CoverPainter? = nil) {
        self.model = model
        self.loader = loader
        self.painter = painter
        _ = perform(self.model.start())
        preparePictures()
    }

    /// Opens `issue`, installed in `root`, as the app does (`ReaderEffects.open`).
    convenience init(issue: Issue, root: URL, painter: CoverPainter, theme: Theme = .classic, textWidth: Int? = nil,
                     size: (width: Int, height: Int) = (80, 24), clock: @escaping () -> Date = Date.init, view: ReaderView? = nil,
                     texts: DocumentTexts = .shared) throws {
        let loader = try ReaderLoader(root: root, texts: texts)
        let source = loader.source(of: issue, at: ReaderScreen.startingPlace(of: issue, in: loader.content))
        self.init(ReaderScreen(source, theme: theme, textWidth: textWidth, size: size, clock: clock, view: view),
                  loader: loader, painter: painter)
        // The whole of a long article follows its first part, as `ReaderEffects` posts it.
        for (index, article) in source.articles where !article.isWhole {
            _ = perform(model.update(.loaded(.article(index, loader.article(index)))))
        }
    }

    /// Sends a message; the effects other than reads (done here, their results sent in).
    @discardableResult
    func update(_ message: ReaderMessage) -> [ReaderEffect] {
        defer { preparePictures() }
        return perform(model.update(message))
    }

    /// The pictures the model wants, prepared, and those ready sent back, as the app does.
    private func preparePictures() {
        guard let painter else { return }
        let prepared = painter.prepare(pictures: model.wantedPictures)
        if !prepared.isSame(as: model.pager.pictures) { _ = model.update(.loaded(.pictures(prepared))) }
    }

    private func perform(_ effects: [ReaderEffect]) -> [ReaderEffect] {
        var kept: [ReaderEffect] = []
        for effect in effects {
            guard case .load(let load) = effect else { kept.append(effect); continue }
            var results: [ReaderLoaded] = []
            loader.perform(load) { results.append($0) }
            for result in results { kept += perform(model.update(.loaded(result))) }
        }
        return kept
    }

    subscript<T>(dynamicMember path: KeyPath<ReaderScreen, T>) -> T { model[keyPath: path] }

    /// The reader's view on `canvas`.
    func draw(into canvas: inout Canvas) {
        preparePictures()
        model.view(into: &canvas)
    }
}
