import ArgumentParser
import Imaging
import Terminal

/// How pictures are drawn, shared by the shelf, `read` and `render`.
struct DisplayOptions: ParsableArguments {
    @Option(help: "Colours: auto (from NO_COLOR, COLORTERM and terminfo), truecolor, 256, 16 or none.")
    var colors: ColorChoice = .auto

    @Option(help: "Characters: ▀ half blocks, or ASCII (the default when the locale is not UTF-8).")
    var symbols: SymbolChoice?

    enum SymbolChoice: String, ExpressibleByArgument, CaseIterable {
        case half, ascii
    }

    /// Imaging's colours for pictures: the user's choice, else `detected`.
    func colorMode(detected: TerminalColors) -> ColorMode {
        ColorMode(colors.colors(detected: detected))
    }

    /// Imaging's characters: the user's choice, else what the terminal's locale can show.
    func symbols(for capabilities: TerminalCapabilities) -> Symbols {
        switch symbols {
        case .half?: .half
        case .ascii?: .ascii
        case nil: capabilities.prefersASCII ? .ascii : .half
        }
    }
}

extension ColorChoice: ExpressibleByArgument {}

extension ColorMode {
    /// The one mapping from what the terminal shows to how Imaging draws.
    init(_ colors: TerminalColors) {
        switch colors {
        case .direct: self = .truecolor
        case .palette256: self = .palette256
        case .palette16: self = .palette16
        case .monochrome: self = .none
        }
    }
}

/// The shelf's and the reader's look: the theme, and how pictures are drawn.
struct ScreenOptions: ParsableArguments {
    @Option(help: "Theme name (classic, dark, light, high-contrast, mono) or a .toml file.")
    var theme: String?

    @OptionGroup var display: DisplayOptions

    @Option(name: .customLong("images"),
            help: "Pages and pictures: auto (asks the terminal), kitty, sixel, iterm2 or halfblock (default: config.toml's images, else auto).")
    var imagesChoice: ImagesChoice?
}
