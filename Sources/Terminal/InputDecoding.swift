@preconcurrency import CNcursesw

/// Turns what `wget_wch` and `getmouse` report into `Event`s. Pure, so it is tested
/// without a terminal.
public enum InputDecoding {
    /// A character `wget_wch` returned with `OK`.
    public static func key(character value: UInt32) -> Key? {
        switch value {
        case 13, 10: return .enter
        case 127, 8: return .backspace
        case 9: return .tab
        case 27: return .escape
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(value) + 0x60)))
        case 0..<32, 0x80..<0xA0: return nil   // other C0 and all C1 controls mean nothing here
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }

    /// A key code `wget_wch` returned with `KEY_CODE_YES` (not KEY_MOUSE or KEY_RESIZE,
    /// which need the terminal to answer).
    public static func key(code: Int32) -> Key? {
        switch code {
        case KEY_UP, KEY_SR: return .up
        case KEY_DOWN, KEY_SF: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME, KEY_A1, KEY_FIND: return .home
        case KEY_END, KEY_C1, KEY_SELECT, KEY_LL: return .end
        case KEY_PPAGE, KEY_A3, KEY_PREVIOUS: return .pageUp
        case KEY_NPAGE, KEY_C3, KEY_NEXT: return .pageDown
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        default:
            let f = code - nsc_key_f(0)
            if f >= 1, f <= 63 { return .function(Int(f)) }
            return nil
        }
    }

    /// The button of a mouse report; only presses count (releases and motion are nil).
    /// A click counts as a press: ncurses merges a press and its release into one click
    /// when both arrive in one read, even with `mouseinterval(0)`.
    public static func mouseButton(state: mmask_t) -> MouseButton? {
        if state & (nsc_button1_pressed() | nsc_button1_clicked()) != 0 { return .left }
        if state & nsc_button4_pressed() != 0 { return .wheelUp }
        if state & nsc_button5_pressed() != 0 { return .wheelDown }
        if state & (nsc_button3_pressed() | nsc_button3_clicked()) != 0 { return .right }
        if state & (nsc_button2_pressed() | nsc_button2_clicked()) != 0 { return .middle }
        return nil
    }

    /// SGR mouse reports (`ESC [ < Cb ; Cx ; Cy M`) are read by the backend itself: ncurses
    /// hands over the prefix as this key code.
    public static let sgrMousePrefix = "\u{1B}[<"
    public static let sgrMouseKeyCode: Int32 = 0x4E53   // above KEY_MAX, unused by ncurses
    /// Button-event tracking with motion while a button is held (1002, which includes 1000's
    /// presses) and SGR coordinates (1006): drags select text; a pointer moved with no button
    /// held is not reported.
    public static let sgrMouseOn = "\u{1B}[?1002h\u{1B}[?1006h"
    public static let sgrMouseOff = "\u{1B}[?1006l\u{1B}[?1002l"

    /// An SGR report's parameters (`Cb;Cx;Cy`, 1-based cells): presses of the three
    /// buttons, wheel steps and the left button's drags; releases, other motion and
    /// malformed reports are nil.
    public static func sgrMouse(parameters: String, release: Bool) -> Event? {
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        guard !release, fields.count == 3, let code = fields[0], let column = fields[1], let row = fields[2],
              column >= 1, row >= 1 else { return nil }
        if code & 32 != 0 {   // motion: with the left button held, a drag
            return code & (3 | 64 | 128) == 0 ? .mouse(.leftDrag, x: column - 1, y: row - 1) : nil
        }
        let button: MouseButton
        if code & 64 != 0 {
            switch code & 3 {
            case 0: button = .wheelUp
            case 1: button = .wheelDown
            default: return nil   // horizontal wheel
            }
        } else if code & 128 != 0 {
            return nil   // buttons 8–11
        } else {
            switch code & 3 {
            case 0: button = .left
            case 1: button = .middle
            case 2: button = .right
            default: return nil
            }
        }
        return .mouse(button, x: column - 1, y: row - 1)
    }

    /// Mouse reports the backend asks ncurses for: presses (and clicks) of the three
    /// buttons and the wheel; no releases, no motion.
    public static var mouseMask: mmask_t {
        nsc_button1_pressed() | nsc_button2_pressed() | nsc_button3_pressed()
            | nsc_button1_clicked() | nsc_button2_clicked() | nsc_button3_clicked()
            | nsc_button4_pressed() | nsc_button5_pressed()
    }
}
