import Foundation
import NewsstandKit
import Terminal

/// A password the user typed for an encrypted PDF: in memory only, and never shown, logged
/// or written — its description is a mask.
struct DocumentPassword: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    let text: String
    var description: String { "••••" }
    var debugDescription: String { description }
}

/// Opening an encrypted PDF issue asks for its password on the status line: typed masked,
/// Enter tries it (a wrong one asks again, saying so), Escape gives up.
struct PasswordPrompt: Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    let issue: Issue
    /// The last password tried was wrong.
    var wasWrong: Bool
    private var field = TextField(limit: 1024)
    var typed: String { field.text }

    init(issue: Issue, wasWrong: Bool) {
        self.issue = issue
        self.wasWrong = wasWrong
    }

    /// The status line: what is asked, and a dot per character typed.
    var line: String {
        (wasWrong ? "Wrong password. Password for “\(issue.title)”: " : "Password for “\(issue.title)”: ")
            + String(repeating: "•", count: typed.count) + "▏"
    }

    /// What is typed never shows, not even in a dump of the state.
    var description: String { "PasswordPrompt(\(issue.name), wasWrong: \(wasWrong), typed: \(typed.count) characters)" }
    var debugDescription: String { description }

    static let hints = "type the password  Enter open  Esc give up"

    enum Outcome: Equatable { case stay, tryPassword(DocumentPassword), giveUp }

    mutating func update(_ key: Key) -> Outcome {
        switch field.update(key) {
        case .submit: return .tryPassword(DocumentPassword(text: typed))
        case .cancel: return .giveUp
        case .edited, .unchanged: return .stay
        }
    }
}
