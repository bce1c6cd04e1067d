import Foundation

/// `E` on a highlight: its note in `$EDITOR` (`$VISUAL` first, `vi` without either), on a
/// file of its own, while the run loop has handed the terminal over. Run by the shell, as
/// git runs its editor, so `EDITOR="code --wait"` works.
enum NoteEditor {
    enum Outcome: Equatable {
        case edited(String?)
        case unchanged
        /// The editor could not be started or failed: why, in one sentence.
        case failed(String)
    }

    static func edit(_ note: String?, environment: [String: String]) -> Outcome {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-note-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        let before = note.map { $0 + "\n" } ?? ""
        do { try Data(before.utf8).write(to: file, options: .atomic) } catch {
            return .failed("Cannot write the note for the editor: \(error.localizedDescription).")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", editor + " \"$1\"", "sh", file.path]
        process.environment = environment
        do { try process.run() } catch { return .failed("Cannot start the editor “\(editor)”: \(error.localizedDescription).") }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .failed("The editor “\(editor)” ended with status \(process.terminationStatus): the note is unchanged.")
        }
        guard let after = try? String(contentsOf: file, encoding: .utf8) else { return .failed("Cannot read the note the editor wrote.") }
        guard after != before else { return .unchanged }
        // An editor ends the file with a line end; the note does not.
        let text = after.hasSuffix("\n") ? String(after.dropLast()) : after
        return .edited(text)
    }
}
