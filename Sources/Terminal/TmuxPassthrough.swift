#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// tmux's passthrough: bytes meant for the terminal tmux runs in (a picture, a query), which
/// tmux hands on untouched when `allow-passthrough` is on and drops when it is off.
public enum TmuxPassthrough {
    /// `ESC P tmux ; … ESC \` with every ESC inside doubled, as tmux wants it.
    public static func wrap(_ bytes: [UInt8]) -> [UInt8] {
        var wrapped: [UInt8] = Array("\u{1B}Ptmux;".utf8)
        wrapped.reserveCapacity(bytes.count + bytes.count / 8 + 10)
        for byte in bytes {
            if byte == 0x1B { wrapped.append(0x1B) }
            wrapped.append(byte)
        }
        wrapped += [0x1B, UInt8(ascii: "\\")]
        return wrapped
    }

    /// Waits until tmux has redrawn a pane that just went back to its alternate screen (a
    /// program continued after Ctrl-Z): tmux redraws it after the pass that read the switch
    /// and drops the passthrough it reads in that same pass, so a picture sent at once after
    /// `fg` was lost (2 runs in 3 here). DA1, which tmux answers itself, is answered only
    /// after that pass. At most `timeoutMilliseconds`; at once when input is no terminal.
    public static func waitForRedraw(timeoutMilliseconds: Int = 2000) {
        _ = TerminalQuery.ask(Array("\u{1B}[c".utf8), timeoutMilliseconds: timeoutMilliseconds) {
            TerminalReplies.parse($0).isComplete
        }
    }

    /// What the user must do to let pictures through, said once when passthrough is off.
    public static let advice = "pictures in tmux need its passthrough: add `set -g allow-passthrough on` to ~/.tmux.conf "
        + "(or run `tmux set -g allow-passthrough on`); drawing with half blocks meanwhile"

    /// Whether a terminal tmux's clients run in draws pictures, as `tmux list-clients -F
    /// '#{client_termname} #{client_termtype}'` prints them (the client's TERM, and the
    /// name and version the terminal gave tmux): only then is the advice worth giving. A
    /// terminal that draws none (or one tmux cannot name) is not told to turn passthrough on.
    public static func clientsDrawPictures(listOutput: String) -> Bool {
        let named = listOutput.lowercased()
        return ["kitty", "wezterm", "iterm", "foot", "mlterm", "contour", "konsole", "ghostty"].contains { named.contains($0) }
    }

    /// Asks the tmux this process runs in about its clients' terminals.
    public static func clientsDrawPictures() -> Bool {
        clientsDrawPictures(listOutput: ask("list-clients -F '#{client_termname} #{client_termtype}'"))
    }

    /// Whether tmux's `allow-passthrough` option (`on` or `all`) lets passthrough through, as
    /// `tmux show -gv allow-passthrough` prints it; only read, never changed.
    public static func isAllowed(showOutput: String) -> Bool {
        let value = showOutput.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
        return value == "on" || value == "all"
    }

    /// Asks the tmux this process runs in; false when tmux cannot be asked.
    public static func isAllowed() -> Bool {
        isAllowed(showOutput: ask("show -gv allow-passthrough"))
    }

    /// The pane's top-left cell in the terminal around tmux, as `tmux display -p
    /// '#{pane_left} #{pane_top}'` prints it; (0, 0) when it cannot be read.
    public static func paneOrigin(displayOutput: String) -> (x: Int, y: Int) {
        let numbers = displayOutput.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard numbers.count == 2, numbers.allSatisfy({ $0 >= 0 }) else { return (0, 0) }
        return (numbers[0], numbers[1])
    }

    /// The pane this process runs in (`TMUX_PANE`), asked of tmux.
    public static func paneOrigin() -> (x: Int, y: Int) {
        paneOrigin(displayOutput: ask("display -p '#{pane_left} #{pane_top}'"))
    }

    /// What `tmux ARGUMENTS` prints, read (never written) from the tmux this process runs in.
    private static func ask(_ arguments: String) -> String {
        guard let pipe = popen("tmux \(arguments) 2>/dev/null", "r") else { return "" }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        pclose(pipe)
        return String(decoding: output, as: UTF8.self)
    }
}
