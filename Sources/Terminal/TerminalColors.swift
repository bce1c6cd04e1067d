/// What a terminal can show, from richest to poorest. `TerminalCapabilities` decides it.
public enum TerminalColors: String, Sendable, CaseIterable {
    /// 24-bit colour.
    case direct
    /// The xterm 256-colour palette.
    case palette256
    /// The 16 (or 8) ANSI colours.
    case palette16
    /// No colour: attributes only.
    case monochrome

    /// What a terminfo entry alone can draw, whatever the environment claims.
    public static func fromTerminfo(colors: Int) -> TerminalColors {
        if colors >= 1 << 24 { return .direct }
        if colors >= 256 { return .palette256 }
        if colors >= 8 { return .palette16 }
        return .monochrome
    }
}
