import Foundation

/// One `dc:identifier` of an EPUB's package: its text and the OPF 2 `opf:scheme` it was
/// given, if any ("ISBN", "uuid"); EPUB 3 puts the scheme in the text (`urn:isbn:…`).
public struct EPUBIdentifier: Sendable, Equatable {
    public var value: String
    public var scheme: String?

    public init(value: String, scheme: String? = nil) { (self.value, self.scheme) = (value, scheme) }

    /// The identifiers of the book extracted at `root`, in the package's order; empty when
    /// it is not an EPUB or names none. Reads the container and the package document only.
    public static func of(book root: URL) -> [EPUBIdentifier] {
        guard let tree = try? ContentTree(root: root), let packagePath = try? EPUBBook.packageDocument(tree),
              let data = tree.data(packagePath), let package = XMLReading.root(of: data),
              let metadata = package.first("metadata") else { return [] }
        return metadata.all("identifier").compactMap { element in
            let value = element.allText.trimmingCharacters(in: .whitespacesAndNewlines)
            let scheme = element.attribute("scheme")?.trimmingCharacters(in: .whitespacesAndNewlines)
            return value.isEmpty ? nil : EPUBIdentifier(value: value, scheme: scheme?.isEmpty == true ? nil : scheme)
        }
    }
}
