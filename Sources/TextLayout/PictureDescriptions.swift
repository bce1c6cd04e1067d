/// Pictures that cannot be drawn (missing, undecodable) read as their descriptions: words
/// that wrap like any paragraph, in place of the rows a picture would have taken.
extension TextDocument {
    /// The document with every picture whose `source` is in `sources` replaced by its
    /// description; blocks keep their indices, so anchors and places stay valid.
    public func describingPictures(_ sources: Set<String>) -> TextDocument {
        guard !sources.isEmpty else { return self }
        var copy = self
        copy.blocks = blocks.map { $0.describingPictures(sources) }
        return copy
    }
}

extension Block {
    /// How a picture reads when it is not drawn: "[image: a chart of the tides]".
    public static func pictureDescription(_ alt: String) -> String {
        let clean = Sanitizer.clean(alt)
        return clean.isEmpty ? "[image]" : "[image: \(clean)]"
    }

    func describingPictures(_ sources: Set<String>) -> Block {
        switch self {
        case .image(let source, let alt) where sources.contains(source):
            return .paragraph([StyledSpan(Self.pictureDescription(alt), style: .quote)])
        case .quote(let blocks):
            return .quote(blocks.map { $0.describingPictures(sources) })
        case .list(let ordered, let items):
            return .list(ordered: ordered, items: items.map { $0.map { $0.describingPictures(sources) } })
        case .figure(let image, let caption):
            return .figure(image: image.describingPictures(sources), caption: caption)
        default:
            return self
        }
    }
}
