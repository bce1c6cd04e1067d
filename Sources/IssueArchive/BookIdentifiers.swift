import Foundation
import Markup

/// One identifier a book gives itself: its text and the scheme it was given, if any. From an
/// EPUB's package, a `dc:identifier` and its OPF 2 `opf:scheme` ("ISBN", "uuid"; EPUB 3
/// puts the scheme in the text: `urn:isbn:…`); from a PDF's XMP, an `xmp:Identifier` and its
/// `xmpidq:Scheme`, or the ISBN or DOI under PRISM's and pdfx's names, as calibre writes them.
public struct BookIdentifier: Sendable, Equatable, Codable {
    public var value: String
    public var scheme: String?

    public init(value: String, scheme: String? = nil) { (self.value, self.scheme) = (value, scheme) }

    /// The identifiers of the EPUB extracted at `root`, in the package's order; empty when it
    /// is not an EPUB or names none. Reads the container and the package document only.
    public static func of(epub root: URL) -> [BookIdentifier] {
        guard let tree = try? ContentTree(root: root), let packagePath = try? EPUBBook.packageDocument(tree),
              let data = tree.data(packagePath), let package = XMLReading.root(of: data),
              let metadata = package.first("metadata") else { return [] }
        return metadata.all("identifier").compactMap { element in
            make(element.allText, scheme: element.attribute("scheme"))
        }
    }

    /// The identifiers an XMP packet (a PDF's `/Metadata`) gives, in its order, each once:
    /// every `xmp:Identifier` (a `rdf:li` with `xmpidq:Scheme` and `rdf:value`, as elements or
    /// attributes, or a bare one), `dc:identifier`, and PRISM's and pdfx's `isbn` and `doi`.
    /// At most `limit`; empty for a packet that is not XML.
    public static func of(xmp: Data, limit: Int = 64) -> [BookIdentifier] {
        guard let root = XMLReading.root(of: xmp) else { return [] }
        var found: [BookIdentifier] = []
        func add(_ text: String?, scheme: String? = nil) {
            guard found.count < limit, let identifier = make(text ?? "", scheme: scheme), !found.contains(identifier) else { return }
            found.append(identifier)
        }
        for property in root.descendants("Identifier", namespace: XMPNamespace.xmp) {
            let items = property.descendants("li", namespace: XMPNamespace.rdf)
            for item in items {
                let scheme = item.first("Scheme", namespace: XMPNamespace.identifierQualifier)?.allText ?? item.attribute("Scheme")
                add(item.first("value", namespace: XMPNamespace.rdf)?.allText ?? item.attribute("value") ?? item.text, scheme: scheme)
            }
            if items.isEmpty { add(property.allText) }
        }
        for property in root.descendants("identifier", namespace: XMPNamespace.dc) {
            let items = property.descendants("li", namespace: XMPNamespace.rdf)
            if items.isEmpty { add(property.allText) } else { items.forEach { add($0.allText) } }
        }
        for scheme in ["isbn", "doi"] {
            for element in root.descendants(scheme) where XMPNamespace.namesISBNAndDOI(element.namespaceURI) {
                add(element.allText, scheme: scheme)
            }
        }
        return found
    }

    /// An identifier of this text and scheme (trimmed, an empty scheme none); nil for an
    /// empty or overlong text (no identifier runs to kilobytes).
    private static func make(_ text: String, scheme: String?) -> BookIdentifier? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let scheme = scheme?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty, value.utf8.count <= 512 else { return nil }
        return BookIdentifier(value: value, scheme: scheme?.isEmpty == false ? scheme : nil)
    }
}

/// The namespaces XMP identifiers are read in.
enum XMPNamespace {
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let xmp = "http://ns.adobe.com/xap/1.0/"
    static let identifierQualifier = "http://ns.adobe.com/xmp/Identifier/qual/1.0/"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let pdfx = "http://ns.adobe.com/pdfx/1.3/"

    /// pdfx, or PRISM of any version (calibre writes 2.0; publishers 1.2 to 3.0).
    static func namesISBNAndDOI(_ namespace: String?) -> Bool {
        guard let namespace else { return false }
        return namespace == pdfx || namespace.hasPrefix("http://prismstandard.org/namespaces/basic/")
    }
}
