/// The user's `--images` (or `images =` in config.toml): `auto` (what detection finds) or
/// a protocol forced.
public enum ImagesChoice: String, Sendable, CaseIterable {
    case auto, kitty, sixel, iterm2, halfblock

    /// The protocol forced; nil for `auto`.
    public var forced: GraphicsProtocol? {
        switch self {
        case .auto: nil
        case .kitty: .kitty
        case .sixel: .sixel
        case .iterm2: .iterm2
        case .halfblock: .halfBlocks
        }
    }

    /// Whether the terminal must be asked: for `auto`, and for a forced pixel protocol
    /// (its cell size and tmux's passthrough); never for half blocks.
    public var asksTerminal: Bool { self != .halfblock }
}
