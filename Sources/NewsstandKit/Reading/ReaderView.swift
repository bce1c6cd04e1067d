/// How a paged document (a PDF issue) is read: its pages drawn, or its words reflowed as
/// text. Chosen with a key in the reader and kept per issue in the library.
public enum ReaderView: String, Sendable, CaseIterable {
    case pages, text
}
