import Foundation
import Imaging
import IssueArchive
import NewsstandKit
import Terminal
import TextLayout

/// Performs the reader's effects on their own serial queue, "reader I/O", and posts what
/// came of them to the run loop's mailbox: opening an issue (the library's read of its
/// place and view, its content parsed, the first article read) and every `ReaderRequest`
/// of the open reader (`ReaderLoader`). The run loop never waits for one of them.
final class ReaderEffects: @unchecked Sendable {
    // `session` and `sessions` are touched only on `queue`.
    private let queue = DispatchQueue(label: "newsstand.reader.io", qos: .userInitiated)
    private let mailbox: Mailbox<ShelfApp.Message>
    private let inFlight = Counter()
    /// The open reader's loader, by the session that opened it.
    private var session: (id: Int, loader: ReaderLoader)?
    private var sessions = 0

    init(mailbox: Mailbox<ShelfApp.Message>) {
        self.mailbox = mailbox
    }

    /// True while reader work is queued or running: the run loop looks for its result often.
    var isBusy: Bool { inFlight.value > 0 }

    /// Waits for everything queued so far (tests, and `newsstand read` before the first frame).
    func finishAll() { queue.sync {} }

    /// Runs `work` on the reader's queue, counted while it waits or runs.
    func submit(_ work: @escaping @Sendable () -> Void) {
        inFlight.add(1)
        queue.async {
            work()
            self.inFlight.add(-1)
        }
    }

    /// Opens `issue` in the reader, with the password the user typed for its PDF, if asked:
    /// posts `.readerOpened`, `.readerNeedsPassword` or `.effectFailed`.
    func open(_ issue: Issue, password: DocumentPassword?, library: Library, theme: Theme,
              preferences: ReaderPreferences, size: (width: Int, height: Int), clock: @escaping @Sendable () -> Date) {
        submit { [self] in
            let directory = library.downloads.contentDirectory(for: issue)
            let documents = DocumentPasswords.documents(in: directory)
            if let password { DocumentPasswords.shared.set(password.text, forDocumentsIn: directory) }
            do {
                let loader = try ReaderLoader(root: directory)
                let view = library.store.readerView(for: issue)
                let source = loader.source(of: issue, at: ReaderScreen.startingPlace(of: issue, in: loader.content))
                let screen = ReaderScreen(source, theme: theme, textWidth: preferences.textWidth, size: size,
                                          clock: clock, view: view, fitsWidth: library.store.readerFitsWidth(for: issue),
                                          highlights: (try? library.highlights.list(for: issue)) ?? [])
                mailbox.post(.readerOpened(ReaderAdapter(screen: screen, session: begin(loader))))
                // Queued behind, so that whoever waits for the open does not wait for the whole article.
                submit { self.finishArticles(of: source) }
            } catch let error as ArchiveError where error.kind == .encrypted && !documents.isEmpty {
                if password != nil { DocumentPasswords.shared.set(nil, forDocumentsIn: directory) }
                mailbox.post(.readerNeedsPassword(issue, wrong: password != nil))
            } catch {
                mailbox.post(.effectFailed("cannot open “\(issue.shownTitle)”: \(error)"))
            }
        }
    }

    /// A comic read from its server page by page.
    func open(streaming comic: StreamedComic, theme: Theme, preferences: ReaderPreferences,
              size: (width: Int, height: Int), clock: @escaping @Sendable () -> Date) {
        submit { [self] in
            let loader = ReaderLoader(streaming: comic)
            let issue = Issue(publicationId: nil, name: comic.title, date: clock(), title: comic.title)
            let screen = ReaderScreen(loader.source(of: issue, at: nil), theme: theme,
                                      textWidth: preferences.textWidth, size: size, clock: clock)
            mailbox.post(.readerOpened(ReaderAdapter(screen: screen, session: begin(loader))))
        }
    }

    /// Reads what the open reader asked for; a request of a reader closed since is dropped.
    func perform(_ request: ReaderRequest) {
        submit { [self] in
            guard let session, session.id == request.session else { return }
            session.loader.perform(request.load) { mailbox.post(.reader(ReaderResult(session: session.id, loaded: $0))) }
        }
    }

    /// A streamed comic's page arrived or failed (told on the fetching thread): the open
    /// reader is told how its pages stand.
    func streamedPagesChanged() {
        submit { [self] in
            guard let session, let stream = session.loader.stream else { return }
            mailbox.post(.reader(ReaderResult(session: session.id, loaded: .streamedPages(StreamedPages.states(of: stream)))))
        }
    }

    private func begin(_ loader: ReaderLoader) -> Int {
        sessions += 1
        session = (sessions, loader)
        return sessions
    }

    /// The whole of a long article opened from its first part, read next.
    private func finishArticles(of source: ReaderSource) {
        guard let session else { return }
        for (index, article) in source.articles where !article.isWhole {
            mailbox.post(.reader(ReaderResult(session: session.id, loaded: .article(index, session.loader.article(index)))))
        }
    }
}

/// Links out of an issue: opened in the browser, copied to the terminal's clipboard.
enum ExternalLinks {
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// The program and its arguments a link is given to: `$BROWSER` (its first choice
    /// when it lists several with `:`; words split at spaces, `%s` replaced by the link,
    /// else the link last), else `xdg-open`. The link is always one argument of its own.
    static func command(for link: String, environment: [String: String]) -> [String] {
        let chosen = (environment["BROWSER"] ?? "").split(separator: ":").first.map(String.init) ?? ""
        let words = chosen.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return ["xdg-open", link] }
        return words.contains("%s") ? words.map { $0 == "%s" ? link : $0 } : words + [link]
    }

    /// Starts the browser on `link` (http, https or mailto only), through `env` so that
    /// the program is found on `PATH`, never through a shell; its output goes nowhere
    /// (it would land on the screen), and it is not waited for.
    @discardableResult
    static func open(_ link: String, environment: [String: String]) throws -> Process {
        guard TextPager.opensInBrowser(link) else { throw Refused(description: "only http, https and mailto links are opened") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command(for: link, environment: environment)
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// OSC 52: sets the terminal's clipboard to `text` (base64), ended by BEL.
    static func clipboardEscape(_ text: String) -> [UInt8] {
        Array(("\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}").utf8)
    }
}
