/// The user's `--colors`: `auto` (what the terminal shows) or a depth forced.
public enum ColorChoice: String, Sendable, CaseIterable {
    case auto
    case truecolor
    case palette256 = "256"
    case palette16 = "16"
    case none

    /// The depth forced; nil for `auto`.
    public var forced: TerminalColors? {
        switch self {
        case .auto: nil
        case .truecolor: .direct
        case .palette256: .palette256
        case .palette16: .palette16
        case .none: .monochrome
        }
    }

    /// The depth to use when the terminal shows `detected`.
    public func colors(detected: TerminalColors) -> TerminalColors { forced ?? detected }
}
