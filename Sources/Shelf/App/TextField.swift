import Terminal

/// A line being typed on the status line: a filter, a catalog search or URL, a user name,
/// a password. Every prompt edits the same way: characters add (up to `limit`), Backspace
/// or Delete removes the last, Ctrl-U clears, Enter submits, Escape cancels.
struct TextField: Equatable {
    private(set) var text: String
    let limit: Int

    init(_ text: String = "", limit: Int) {
        self.text = text
        self.limit = limit
    }

    enum Outcome: Equatable { case edited, unchanged, submit, cancel }

    mutating func update(_ key: Key) -> Outcome {
        switch key {
        case .enter:
            return .submit
        case .escape:
            return .cancel
        case .backspace, .delete:
            guard !text.isEmpty else { return .unchanged }
            text.removeLast()
        case .control("u"):
            guard !text.isEmpty else { return .unchanged }
            text = ""
        case .character(let character):
            guard text.count < limit else { return .unchanged }
            text.append(character)
        default:
            return .unchanged
        }
        return .edited
    }
}
