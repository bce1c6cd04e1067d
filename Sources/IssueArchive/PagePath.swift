/// One page of a document file inside an issue, as reading orders, contents and covers name
/// it: `issue.pdf#page=3`. Pages count from 1 in the path (as PDF viewers' `#page=`), from 0
/// in `index`.
public struct PagePath: Hashable, Sendable, CustomStringConvertible {
    /// The document, relative to the content root.
    public var file: String
    /// 0 is the first page.
    public var index: Int

    public init(file: String, index: Int) {
        self.file = file
        self.index = index
    }

    /// The page a path names; nil when it names no page (no `#page=N`, N from 1).
    public init?(_ path: String) {
        guard let mark = path.range(of: "#page=", options: .backwards), let number = Int(path[mark.upperBound...]),
              number >= 1, mark.lowerBound > path.startIndex else { return nil }
        self.init(file: String(path[..<mark.lowerBound]), index: number - 1)
    }

    public var description: String { "\(file)#page=\(index + 1)" }
}
