import GRDB

/// How a paged document (a PDF issue) is read: its pages drawn, or its words reflowed as
/// text. Chosen with a key in the reader and kept per issue in the library.
public enum ReaderView: String, Sendable, CaseIterable {
    case pages, text
}

extension Library {
    /// The view the reader last used for `issue`; nil when it was never switched.
    public func readerView(for issue: Issue) -> ReaderView? {
        guard let id = issue.id else { return nil }
        let value = try? store.readerView(issueID: id)
        return value.flatMap(ReaderView.init(rawValue:))
    }

    /// Keeps the view for the next time `issue` is opened.
    public func setReaderView(_ view: ReaderView, for issue: Issue) throws {
        guard let id = issue.id else { return }
        try store.setReaderView(view.rawValue, issueID: id)
    }

    /// Whether `issue`'s pages were last fitted to the width (`w`); false when never chosen.
    public func readerFitsWidth(for issue: Issue) -> Bool {
        guard let id = issue.id else { return false }
        return ((try? store.readerFitWidth(issueID: id)) ?? nil) ?? false
    }

    /// Keeps the fit for the next time `issue` is opened.
    public func setReaderFitsWidth(_ fits: Bool, for issue: Issue) throws {
        guard let id = issue.id else { return }
        try store.setReaderFitWidth(fits, issueID: id)
    }
}
