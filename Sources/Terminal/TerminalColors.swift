/// What a terminal can show, from richest to poorest.
///
/// Detection honours `NO_COLOR` (any non-empty value: monochrome) and `COLORTERM`
/// (`truecolor` or `24bit`: direct), then the terminfo `colors` count.
public enum TerminalColors: String, Sendable, CaseIterable {
    /// 24-bit colour.
    case direct
    /// The xterm 256-colour palette.
    case palette256
    /// The 16 (or 8) ANSI colours.
    case palette16
    /// No colour: attributes only.
    case monochrome

    /// Decides from the environment and the terminfo entry's `colors` count.
    public static func detect(environment: [String: String], terminfoColors: Int) -> TerminalColors {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        if let colorTerm = environment["COLORTERM"]?.lowercased(), colorTerm == "truecolor" || colorTerm == "24bit" {
            return .direct
        }
        return fromTerminfo(colors: terminfoColors)
    }

    /// What a terminfo entry alone can draw, whatever the environment claims.
    public static func fromTerminfo(colors: Int) -> TerminalColors {
        if colors >= 1 << 24 { return .direct }
        if colors >= 256 { return .palette256 }
        if colors >= 8 { return .palette16 }
        return .monochrome
    }

    /// Parses a user's choice (`--colors`): auto is nil.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "truecolor", "24bit", "direct", "24-bit": self = .direct
        case "256": self = .palette256
        case "16", "8": self = .palette16
        case "none", "mono", "monochrome", "0": self = .monochrome
        default: return nil
        }
    }
}
