import Terminal

/// The window the reader draws in: the title bar and a blank row above, the status and hint
/// bars below, the text or the page between.
struct ReaderFrame: Equatable {
    var width: Int
    var height: Int

    /// Rows of text or page between the bars.
    var visibleRows: Int { max(1, height - 4) }
    /// Where a page is drawn: a column of margin each side.
    var pageView: Rect { Rect(x: 1, y: 2, width: max(1, width - 2), height: visibleRows) }

    /// A text column of the chosen width, narrowed to the window.
    func column(_ textWidth: Int) -> Int { max(10, min(textWidth, width - 4)) }
}
