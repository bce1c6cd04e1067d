import Foundation
import TextLayout

/// The title bar's place in paged content, in both views of a PDF: "page 14 of 350", and
/// "page xii · 14 of 350" where the PDF labels the page otherwise than its number.
enum PagePlace {
    static func describe(_ index: Int, of count: Int, label: String?) -> String {
        let number = "\(index + 1) of \(count)"
        guard let label = ownLabel(index, label) else { return "page " + number }
        return "page \(label) · " + number
    }

    /// The share of the pages read at page `index` of `count`, the same in both views: the
    /// page shown counts as read (as PDF readers count), except the first of several, since
    /// an issue opened at its start has not been read yet.
    static func progress(_ index: Int, of count: Int) -> Double {
        guard count > 0, index > 0 || count == 1 else { return 0 }
        return Double(min(index + 1, count)) / Double(count)
    }

    /// A page in a list of pages: "Page 14", or "Page xii" where the PDF says so.
    static func title(_ index: Int, label: String?) -> String {
        "Page " + (ownLabel(index, label) ?? String(index + 1))
    }

    /// The label, cleaned and shortened, when it says something the number does not.
    private static func ownLabel(_ index: Int, _ label: String?) -> String? {
        guard let label = label.map({ Sanitizer.clean($0) })?.trimmingCharacters(in: .whitespaces), !label.isEmpty,
              label != String(index + 1) else { return nil }
        return DisplayWidth.truncate(label, to: 16)
    }
}
