import Foundation
import Terminal

/// Selection mode (`s`) in any text view: its keys move a cursor over the words and, after
/// `s` again, grow the selection from there; Escape leaves. While it lasts the keys are the
/// selection's (the app hands them all over, as to the contents list).
extension ReaderScreen {
    static let selectionKeys: [Key: TextSelection.Move] = [
        .character("w"): .word(forward: true), .right: .word(forward: true), .character("l"): .word(forward: true),
        .character("b"): .word(forward: false), .left: .word(forward: false), .character("h"): .word(forward: false),
        .character(")"): .sentence(forward: true), .character("("): .sentence(forward: false),
        .character("}"): .paragraph(forward: true), .character("{"): .paragraph(forward: false),
        .down: .line(down: true), .character("j"): .line(down: true),
        .up: .line(down: false), .character("k"): .line(down: false),
    ]

    /// `s` while reading: the cursor on the first word on screen; in a PDF's pages, a pointer
    /// to the text view where words are chosen.
    mutating func startSelecting() {
        guard var text = pager as? TextPager else {
            note = ReaderNote(text: view == .pages ? "Words are chosen in the text view: v, then s." : "There are no words to choose here.")
            return
        }
        note = text.startSelection()
        pager = text
        if text.selection != nil { mode = .selecting }
    }

    mutating func choose(_ key: Key) {
        note = nil
        guard var text = pager as? TextPager, text.selection != nil else { mode = .reading; return }
        defer { pager = text }
        if let move = Self.selectionKeys[key] {
            text.moveSelection(move)
            return
        }
        pager = text
        if chooseHighlight(key) { text = pager as? TextPager ?? text; return }
        switch key {
        case .character("s"), .character("v"): text.anchorSelection()
        case .escape, .character("q"):
            text.endSelection()
            mode = .reading
        default: break
        }
    }

    /// The status line while choosing: the note of the highlight under the cursor, else
    /// how much is chosen.
    var selectionStatus: String? {
        guard mode == .selecting, let text = pager as? TextPager, let chosen = text.selection else { return nil }
        if let existing = highlightUnderCursor {
            let said = existing.note.map { "Note: " + $0.replacingOccurrences(of: "\n", with: " ⏎ ") } ?? "No note"
            return "Highlight (\(existing.color.rawValue)). \(said)"
        }
        guard chosen.extending else {
            return "Choosing: the cursor is on “\(text.painted.cursorText ?? "")”; s starts the selection here"
        }
        let words = text.painted.chosenWords
        return "Chosen: \(words) word\(words == 1 ? "" : "s")"
    }

    static let selectionHints = "wb () {} move  s start  Enter/1-5 highlight  n note  x delete  d define  Esc"
}
