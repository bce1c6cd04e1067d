import Foundation
import NewsstandKit
import Terminal
import TextLayout

/// A change to the issue's highlights the reader asks for (`ReaderEffect.highlight`): the
/// app makes it in the library and sends the issue's highlights back (`.loaded(.highlights)`).
enum HighlightEdit: Equatable, Sendable {
    case add(HighlightDraft)
    case note(id: String, String?)
    case recolor(id: String, Highlight.Color)
    case delete(id: String)
}

extension HighlightDraft: Equatable {
    public static func == (left: HighlightDraft, right: HighlightDraft) -> Bool {
        left.issueID == right.issueID && left.locator == right.locator && left.position == right.position
            && left.quote == right.quote && left.textOffset == right.textOffset && left.cfi == right.cfi
            && left.color == right.color && left.note == right.note && left.chapter == right.chapter
    }
}

/// What the dictionary said of a word.
enum Definition: Equatable, Sendable {
    case found(String)
    /// The dictionary has no entry for the word.
    case notFound
    /// Neither `sdcv` nor `dict` is installed.
    case noDictionary
}

/// What a note typed on the status line is for: a highlight already made, or the words
/// chosen (made into a highlight with the note once it is typed).
enum NoteTarget: Equatable {
    case highlight(Highlight)
    case selection(start: TextAnchor, end: TextAnchor)
}

extension Highlight.Color {
    /// Keys 1–5 in selection mode, in the order of `allCases`.
    init?(key: Key) {
        guard case .character(let character) = key, let digit = character.wholeNumberValue,
              Self.allCases.indices.contains(digit - 1) else { return nil }
        self = Self.allCases[digit - 1]
    }

    /// The look of a highlight in the reader's text: a soft background of its colour, the
    /// text's own ink; `underline` only underlines (for 8-colour and no-colour terminals).
    func style(over text: Style) -> Style {
        guard let (r, g, b) = tint else { return Style(foreground: text.foreground, background: text.background, attributes: .underline) }
        return Style(foreground: text.foreground, background: .rgb(r, g, b))
    }

    /// The colour's ink, in the text as over a page; nil for `underline`.
    var tint: (UInt8, UInt8, UInt8)? {
        switch self {
        case .yellow: return (0xff, 0xe8, 0x7a)
        case .green: return (0xbc, 0xe6, 0xa8)
        case .blue: return (0xb4, 0xd4, 0xf4)
        case .pink: return (0xf6, 0xc0, 0xdc)
        case .underline: return nil
        }
    }
}

/// Highlights in selection mode: Enter or a colour key makes one of the words chosen, or
/// recolours the one under the cursor; `n` types its note on the status line, `x` deletes
/// it, `d` looks the cursor's word up. The reader only asks (`ReaderEffect.highlight`);
/// the app makes the change and sends the issue's highlights back.
extension ReaderScreen {
    /// The highlight under the cursor while it is not growing a selection.
    var highlightUnderCursor: Highlight? {
        guard let text = pager as? TextPager, let chosen = text.selection, !chosen.extending else { return nil }
        return text.highlight(at: chosen.cursor)
    }

    /// Keys of selection mode that act on highlights; false when `key` is not one of them.
    mutating func chooseHighlight(_ key: Key) -> Bool {
        if let color = Highlight.Color(key: key) {
            if let existing = highlightUnderCursor {
                ask(.recolor(id: existing.id, color))
                note = ReaderNote(text: "Highlight now \(color.rawValue).")
            } else {
                highlightSelection(color: color, note: nil)
            }
            return true
        }
        switch key {
        case .enter:
            if let existing = highlightUnderCursor { startNote(for: .highlight(existing)) } else { highlightSelection(color: .yellow, note: nil) }
        case .character("n"):
            if let existing = highlightUnderCursor {
                startNote(for: .highlight(existing))
            } else if let range = (pager as? TextPager)?.selectedRange {
                startNote(for: .selection(start: range.start, end: range.end))
            }
        case .character("E"):
            guard let existing = highlightUnderCursor else { note = ReaderNote(text: "No highlight under the cursor."); return true }
            highlightEffects.append(.editNote(existing))
        case .character("x"):
            guard let existing = highlightUnderCursor else { note = ReaderNote(text: "No highlight under the cursor."); return true }
            ask(.delete(id: existing.id))
            note = ReaderNote(text: "Highlight deleted.")
        case .character("d"):
            guard let word = (pager as? TextPager)?.cursorWord else { return true }
            let bare = word.text.trimmingCharacters(in: .punctuationCharacters.union(.symbols))
            guard !bare.isEmpty else { return true }
            highlightEffects.append(.define(bare))
            note = ReaderNote(text: "Looking up “\(bare)”…")
        default:
            return false
        }
        return true
    }

    /// A highlight of the words chosen (the cursor's word when nothing grew), then back to reading.
    private mutating func highlightSelection(color: Highlight.Color, note typed: String?) {
        guard let text = pager as? TextPager, let range = text.selectedRange else { return }
        makeHighlight(from: range.start, to: range.end, color: color, note: typed)
    }

    private mutating func makeHighlight(from start: TextAnchor, to end: TextAnchor, color: Highlight.Color, note typed: String?) {
        guard var text = pager as? TextPager, let draft = text.draft(from: start, to: end, issue: issue, color: color, note: typed,
                                                                       updated: clockNow) else {
            note = ReaderNote(text: "These words cannot be highlighted.", isError: true)
            return
        }
        ask(.add(draft))
        text.endSelection()
        pager = text
        mode = .reading
        note = ReaderNote(text: "Highlighted in \(color.rawValue)" + (typed == nil ? ": s, then Enter on it, adds a note." : ", with its note."))
    }

    private mutating func ask(_ edit: HighlightEdit) {
        highlightEffects.append(.highlight(edit))
    }

    private mutating func startNote(for target: NoteTarget) {
        noteTarget = target
        if case .highlight(let existing) = target { noteDraft = existing.note ?? "" } else { noteDraft = "" }
        mode = .notePrompt
    }

    /// The note prompt: typing, Ctrl-O for a new line, Enter keeps it, Escape forgets it.
    mutating func editNote(_ key: Key) {
        switch key {
        case .enter:
            finishNote(noteDraft)
        case .escape:
            mode = .selecting
            noteTarget = nil
        case .backspace, .delete:
            if !noteDraft.isEmpty { noteDraft.removeLast() }
        case .control("o"):
            noteDraft.append("\n")
        case .control("u"):
            noteDraft = ""
        case .character(let character):
            if noteDraft.count < Self.noteLimit { noteDraft.append(character) }
        default:
            break
        }
    }

    /// A note is kept for the highlight it was typed for (a blank one takes the note away).
    mutating func finishNote(_ typed: String) {
        guard let target = noteTarget else { mode = .selecting; return }
        noteTarget = nil
        let kept = typed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : typed
        switch target {
        case .highlight(let existing):
            ask(.note(id: existing.id, kept))
            if var text = pager as? TextPager { text.endSelection(); pager = text }
            mode = .reading
            note = ReaderNote(text: kept == nil ? "Note removed." : "Note kept.")
        case .selection(let start, let end):
            makeHighlight(from: start, to: end, color: .yellow, note: kept)
        }
    }

    static let noteLimit = 4000

    /// The prompt as the status line shows it: its lines joined by ⏎, the end in view.
    var notePromptLine: String {
        let shown = "Note: " + noteDraft.replacingOccurrences(of: "\n", with: " ⏎ ") + "▏"
        let room = max(10, frame.width - 14)
        return DisplayWidth.of(shown) <= room ? shown : "…" + String(shown.suffix(room - 1))
    }

    static let notePromptHints = "type the note  Ctrl-O new line  Enter keep  Esc cancel"

    /// The issue's highlights arrived (after a change, or at the start): drawn in the text.
    mutating func receiveHighlights(_ list: [Highlight]) {
        highlights = list.filter { !$0.deleted }
        pager.highlights = highlights
    }
}

extension TextPager {
    /// A highlight of the words from `start` to `end` of the article shown, quoted from its text.
    func draft(from start: TextAnchor, to end: TextAnchor, issue: Issue, color: Highlight.Color, note: String?,
               updated: Date) -> HighlightDraft? {
        guard let issueID = issue.id, let article = articles[index], article.isWhole,
              let range = article.quoteText.range(from: start, to: end) else { return nil }
        let resource = content.readingOrder[index].path
        let place = Locator(resource: resource, progression: withinArticle, totalProgression: progress, page: isDocument ? index : nil,
                            text: Locator.TextPlace(block: start.block, offset: start.offset), updated: updated)
        let chapter = isDocument ? PagePlace.title(index, label: content.readingOrder[index].label)
            : (article.document.title ?? document?.blocks.first?.plainText)
        return HighlightDraft(issueID: issueID, locator: place, position: index, range: range, in: article.quoteText.text,
                              color: color, note: note, chapter: chapter.map { String($0.prefix(200)) })
    }
}

extension ReaderScreen {
    /// `H`: the issue's highlights in reading order, in the contents list's look; Enter
    /// goes to one. One whose words are no longer in the article shown says so.
    mutating func showHighlights() {
        let shown = highlights.sorted { ($0.position, $0.textOffset) < ($1.position, $1.textOffset) }
        let gone = Set((pager as? TextPager)?.goneHighlights.map(\.id) ?? [])
        let entries = shown.map { highlight in
            let quote = "“" + Sanitizer.clean(highlight.quote.exact).replacingOccurrences(of: "\n", with: " ") + "”"
            let noted = highlight.note.map { "  ✎ " + Sanitizer.clean($0).replacingOccurrences(of: "\n", with: " ⏎ ") } ?? ""
            let changed = gone.contains(highlight.id) ? "  (text changed)" : ""
            return ContentsEntry(title: quote + changed + noted, depth: 0, article: highlight.position, fragment: nil)
        }
        guard var list = ContentsList(entries: entries, current: pager.index) else {
            note = ReaderNote(text: "No highlights in this issue yet: s chooses words, Enter highlights them.")
            return
        }
        list.heading = "Highlights"
        list.fitScroll(rows: ContentsList.rows(in: frame))
        showList(list, listing: shown)
    }

    /// Goes to a highlight's words, in the text view where the issue has another.
    mutating func showHighlight(_ highlight: Highlight) {
        if view == .pages { note = switchView() }
        if var text = pager as? TextPager {
            text.show(highlight)
            pager = text
        } else {
            pager.open(ContentsEntry(title: "", depth: 0, article: highlight.position, fragment: nil))
        }
    }
}
