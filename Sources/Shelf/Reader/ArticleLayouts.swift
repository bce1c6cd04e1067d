import TextLayout

/// Which layout of an article: the article (its resource, first part or whole) at a column
/// width, with the pictures that read as descriptions and those laid out at their drawn size.
struct LayoutKey: Hashable {
    var resource: String
    var isWhole: Bool
    var width: Int
    var undrawable: Set<String> = []
    var pictureSizes: [String: PixelSize] = [:]
}

/// The reader's layouts, memoised by article and width outside the model: the model keeps
/// a `LayoutKey`, and the lines are a function of it (laid out a few blocks at a time, as
/// `ArticleText` does), so dropping an entry changes nothing but time. One per open reader,
/// used on the main thread only; a few recent layouts are kept (a width changed back and
/// forth, the article before).
final class ArticleLayouts {
    private var entries: [(key: LayoutKey, text: ArticleText)] = []
    static let kept = 6

    /// The layout for `key`, made from `article` when it is not kept.
    func text(for key: LayoutKey, of article: @autoclosure () -> LoadedArticle) -> ArticleText {
        if let found = entries.firstIndex(where: { $0.key == key }) {
            let entry = entries.remove(at: found)
            entries.append(entry)
            return entry.text
        }
        let article = article()
        let document = article.document.describingPictures(key.undrawable)
        let weights = key.undrawable.isEmpty ? article.blockWeights
            : ArticleText.blockWeights(of: document, from: article.document, weights: article.blockWeights)
        let made = ArticleText(document: document, width: key.width, pictureSizes: key.pictureSizes, blockWeights: weights)
        keep(made, for: key)
        return made
    }

    /// Keeps a layout made elsewhere (the article a search found, laid out while searching).
    func keep(_ text: ArticleText, for key: LayoutKey) {
        entries.removeAll { $0.key == key }
        entries.append((key, text))
        if entries.count > Self.kept { entries.removeFirst(entries.count - Self.kept) }
    }
}
