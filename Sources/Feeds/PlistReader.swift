import Foundation
import Markup

/// The property list of the Newsstand tutorials: an array of issues, each a dictionary with
/// `Name`, `Title`, `Date`, `Cover` and `Content` — or its lower-case variant, where `covers`
/// is a dictionary of sizes and `content` an array of assets. The array may also sit under an
/// `issues` key of a dictionary that names the publication.
enum PlistReader {
    /// An XML property list read through Markup (no DTD, no entities), as plain values.
    static func value(_ element: XMLElement) -> Any? {
        switch element.localName {
        case "plist": return element.children.first.flatMap(value)
        case "dict":
            var dict: [String: Any] = [:]
            var key: String?
            for child in element.children {
                if child.localName == "key" {
                    key = child.text
                } else if let k = key {
                    dict[k] = value(child)
                    key = nil
                }
            }
            return dict
        case "array": return element.children.compactMap(value)
        case "string": return element.text
        case "integer": return Int64(element.text.trimmingCharacters(in: .whitespacesAndNewlines)).map { NSNumber(value: $0) }
        case "real": return Double(element.text.trimmingCharacters(in: .whitespacesAndNewlines)).map { NSNumber(value: $0) }
        case "true": return true
        case "false": return false
        case "date": return FeedDates.parse(element.text)
        default: return nil
        }
    }

    /// A binary property list as plain values, like `value(_:)`'s; nil when it is damaged.
    /// Read by `PropertyListDecoder`: `PropertyListSerialization` leaks its error for a
    /// damaged one (it goes on to try the text formats; found by fuzzing).
    static func binary(_ data: Data) -> Any? {
        var format = PropertyListDecoder.PropertyListFormat.binary
        return (try? PropertyListDecoder().decode(BinaryValue.self, from: data, format: &format))?.plain
    }

    /// Any value of a binary property list, nested at most `maximumDepth` deep.
    private indirect enum BinaryValue: Decodable {
        case string(String), number(NSNumber), bool(Bool), date(Date), data(Data)
        case array([BinaryValue]), dict([String: BinaryValue])

        static let maximumDepth = 32

        init(from decoder: Decoder) throws {
            let single = try decoder.singleValueContainer()
            guard decoder.codingPath.count < Self.maximumDepth else {
                throw DecodingError.dataCorruptedError(in: single, debugDescription: "nested too deep")
            }
            if let value = try? single.decode([String: BinaryValue].self) { self = .dict(value) }
            else if let value = try? single.decode([BinaryValue].self) { self = .array(value) }
            else if let value = try? single.decode(Bool.self) { self = .bool(value) }
            else if let value = try? single.decode(Int64.self) { self = .number(NSNumber(value: value)) }
            else if let value = try? single.decode(Double.self) { self = .number(NSNumber(value: value)) }
            else if let value = try? single.decode(Date.self) { self = .date(value) }
            else if let value = try? single.decode(String.self) { self = .string(value) }
            else { self = .data(try single.decode(Data.self)) }
        }

        var plain: Any {
            switch self {
            case .string(let value): value
            case .number(let value): value
            case .bool(let value): value
            case .date(let value): value
            case .data(let value): value
            case .array(let values): values.map(\.plain)
            case .dict(let values): values.mapValues(\.plain)
            }
        }
    }

    static func read(_ plist: Any?, url: URL) throws -> FeedDocument {
        let root = Loose(plist)
        let base = LinkBase(url)
        let issues: [Loose]
        if plist is [Any] {
            issues = root.array
        } else if let list = [root.any("issues", "Issues"), root.any("items", "Items")].first(where: { $0.value is [Any] }) {
            issues = list.array
        } else {
            throw FeedError.notAFeed(url)
        }
        var publication = PublicationInfo(
            title: FeedText.line(root.any("title", "Title").text) ?? url.deletingPathExtension().lastPathComponent,
            subtitle: FeedText.line(root.any("subtitle", "Subtitle").text),
            coverURL: FeedLinks.resolve(root.any("cover", "Cover").string, against: base))
        var problems: [String] = []
        NewsstandExtension.binding(type: root.any("binding_type", "BindingType").string,
                                   edge: root.any("binding_edge", "BindingEdge").string, into: &publication, problems: &problems)
        publication.pushURL = FeedLinks.resolve(root.any("push", "Push").string, against: base)

        var collector = EntryCollector()
        for issue in issues {
            var draft = EntryDraft()
            draft.id = FeedText.line(issue.any("Name", "name").string)
            draft.title = FeedText.line(issue.any("Title", "title").text)
            draft.date = issue.any("Date", "date").date
            draft.summary = EntryCollector.summary(FeedText.line(issue.any("Summary", "summary", "Description", "description").text))
            if let cover = issue.any("Cover", "cover").string {
                draft.coverURL = FeedLinks.resolve(cover, against: base)
            } else if let covers = issue.any("covers", "Covers").value as? [String: Any] {
                let sizes = Loose(covers)
                draft.coverURL = FeedLinks.resolve(sizes.any("SOURCE", "source", "large", "big", "full", "cover", "medium").string
                    ?? covers.keys.sorted().last.flatMap { covers[$0] as? String }, against: base)
                draft.thumbnailURL = FeedLinks.resolve(sizes.any("small", "thumbnail", "thumb").string, against: base)
            }
            let assets = issue.any("Content", "content").array.compactMap { asset -> ContentLink? in
                let href = asset.string ?? asset.any("url", "URL", "href", "Url").string
                guard let link = FeedLinks.resolve(href, against: base) else { return nil }
                return ContentLink(url: link, type: asset.any("type", "Type").string,
                                   length: asset.any("length", "size", "Length").string, sha256: asset["sha256"].string)
            }
            draft.content = ContentLink.best(assets)
            collector.add(draft)
        }
        let finished = collector.finish(feedDate: nil, keepsEntriesWithoutContent: true, itemWord: "issues")
        return FeedDocument(format: .plist, publication: publication, entries: finished.entries,
                            problems: problems + finished.problems)
    }
}
