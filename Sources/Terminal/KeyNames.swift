/// Keys by name, as `config.toml` writes them ("Enter", "PgUp", "Ctrl-R", "j") and as
/// hint bars show them ("↑", "PgUp", "Ctrl-R").
extension Key {
    /// Named keys; matching ignores case ("pgup", "PgUp").
    private static let named: [(names: [String], key: Key)] = [
        (["Enter", "Return"], .enter), (["Esc", "Escape"], .escape), (["Tab"], .tab),
        (["BackTab", "Shift-Tab"], .backTab), (["Backspace"], .backspace), (["Delete", "Del"], .delete),
        (["Up"], .up), (["Down"], .down), (["Left"], .left), (["Right"], .right),
        (["Home"], .home), (["End"], .end), (["PgUp", "PageUp"], .pageUp), (["PgDn", "PageDown"], .pageDown),
        (["Space"], .character(" ")),
    ]

    /// Control letters a terminal sends as another key: Ctrl-H is Backspace, Ctrl-I Tab,
    /// Ctrl-J and Ctrl-M Enter.
    private static let controlAliases: [Character: String] = ["h": "Backspace", "i": "Tab", "j": "Enter", "m": "Enter"]

    /// The key a name means, or why the name is not one.
    public static func named(_ name: String) -> Result<Key, KeyNameError> {
        if name.count == 1, let character = name.first {
            if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                return .failure(KeyNameError(name: name, reason: "is a control character; write a key name such as \"Ctrl-R\""))
            }
            return .success(character == " " ? .character(" ") : .character(character))
        }
        let lowered = name.lowercased()
        if let match = named.first(where: { $0.names.contains { $0.lowercased() == lowered } }) { return .success(match.key) }
        if lowered.hasPrefix("ctrl-") || lowered.hasPrefix("c-") {
            let rest = lowered.drop(while: { $0 != "-" }).dropFirst()
            guard rest.count == 1, let letter = rest.first, ("a"..."z").contains(letter) else {
                return .failure(KeyNameError(name: name, reason: "Ctrl- goes with one letter, as in \"Ctrl-R\""))
            }
            if let other = controlAliases[letter] {
                return .failure(KeyNameError(name: name, reason: "reaches the program as \(other); write \"\(other)\""))
            }
            return .success(.control(letter))
        }
        if lowered.hasPrefix("f"), let number = Int(lowered.dropFirst()), (1...63).contains(number) {
            return .success(.function(number))
        }
        return .failure(KeyNameError(
            name: name,
            reason: "is not a key name (a single character, or one of \(named.map { $0.names[0] }.joined(separator: ", ")), F1–F63, Ctrl-A–Ctrl-Z)"))
    }

    /// How hint bars and help show the key: arrows as arrows, others by name.
    public var label: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let character): return String(character)
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .backspace: return "Backspace"
        case .delete: return "Del"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .function(let number): return "F\(number)"
        case .control(let letter): return "Ctrl-" + String(letter).uppercased()
        }
    }
}

public struct KeyNameError: Error, CustomStringConvertible, Equatable, Sendable {
    public var name: String
    public var reason: String
    public var description: String { "\"\(name)\" \(reason)" }
}
