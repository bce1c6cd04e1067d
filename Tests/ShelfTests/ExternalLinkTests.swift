import Foundation
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// A link out of the issue: `o` opens it in the browser, `y` copies it (effects the
/// reader's update returns; the runner performs them), never through a shell.
@Suite(.serialized) struct ExternalLinkTests {
    static let hostile = "https://example.org/a;b$(touch PWNED)`id`&c=1"

    /// An issue whose first article links out (to `hostile`), to a file and to mail.
    static func magazine() -> [String: Data] {
        var files = ReaderFixture.magazine()
        let href = hostile.replacingOccurrences(of: "&", with: "&amp;")
        files["OEBPS/ch1.xhtml"] = ReaderFixture.chapter(title: "Out", body: """
            <h1>Out</h1><p>Read <a href="\(href)">the source</a> or <a href="file:///etc/passwd">a file</a>.</p>
            """)
        return files
    }

    /// The effects that open or copy a link.
    static func links(_ effects: [ReaderEffect]) -> [ReaderEffect] {
        effects.filter { effect in
            switch effect {
            case .openLink, .copyLink: true
            default: false
            }
        }
    }

    @Test func oAndYOnAChosenLinkOutOfTheIssueReturnOpenAndCopyEffects() throws {
        let open = try OpenReader(Self.magazine())
        let reader = try open.open()
        _ = reader.update(.key(.tab))
        let follow = reader.update(.key(.enter))
        #expect(follow.isEmpty)
        #expect(reader.note?.text.contains("o opens it in the browser") == true, "\(String(describing: reader.note))")
        #expect(reader.update(.key(.character("o"))) == [.openLink(Self.hostile)])
        #expect(reader.update(.key(.character("y"))) == [.copyLink(Self.hostile)])
        // The second link (a file) is no link a browser is given.
        _ = reader.update(.key(.tab))
        #expect(Self.links(reader.update(.key(.character("o")))).isEmpty)
        #expect(Self.links(reader.update(.key(.character("y")))).isEmpty)
        // Nothing chosen: o and y open and copy nothing.
        let fresh = try open.open()
        #expect(Self.links(fresh.update(.key(.character("o")))).isEmpty)
        #expect(Self.links(fresh.update(.key(.character("y")))).isEmpty)
    }

    @Test func theHelpAndTheHintBarNameOAndY() throws {
        #expect(ReaderScreen.helpLines.contains { $0.0 == "o, y" && $0.1.contains("browser") && $0.1.contains("copy") })
        let reader = try OpenReader(Self.magazine()).open()
        _ = reader.update(.key(.tab))
        let hints = reader.ownHints ?? ""
        #expect(hints.contains("o open in browser") && hints.contains("y copy link"), "\(hints)")
    }

    @Test func onlyWebAndMailLinksGoToTheBrowser() {
        for link in ["https://a.example/", "HTTP://a.example/", "mailto:ed@example.org"] { #expect(TextPager.opensInBrowser(link), "\(link)") }
        for link in ["file:///etc/passwd", "javascript:alert(1)", "ssh://host", "no-scheme", "-x"] { #expect(!TextPager.opensInBrowser(link), "\(link)") }
        #expect(throws: ExternalLinks.Refused.self) { try ExternalLinks.open("file:///etc/passwd", environment: [:]) }
    }

    @Test func theBrowserIsBROWSERElseXdgOpenWithTheLinkAsOneArgument() {
        #expect(ExternalLinks.command(for: Self.hostile, environment: [:]) == ["xdg-open", Self.hostile])
        #expect(ExternalLinks.command(for: "https://a/", environment: ["BROWSER": "firefox --new-tab:lynx"]) == ["firefox", "--new-tab", "https://a/"])
        #expect(ExternalLinks.command(for: "https://a/", environment: ["BROWSER": "w3m %s -F"]) == ["w3m", "https://a/", "-F"])
        #expect(String(decoding: ExternalLinks.clipboardEscape("https://a/"), as: UTF8.self) == "\u{1B}]52;c;aHR0cHM6Ly9hLw==\u{07}")
    }

    @Test func theRunnerStartsBROWSERWithTheLinkAsOneArgumentNoShellInBetween() throws {
        let h = try ShelfHarness()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let record = directory.appendingPathComponent("arguments")
        let script = directory.appendingPathComponent("browser.sh")
        try "printf '%s\\n' \"$#\" \"$@\" > '\(record.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        let pwned = directory.appendingPathComponent("PWNED").path
        let link = "https://example.org/a;b$(touch \(pwned))`touch \(pwned)`&c=1|touch \(pwned)"
        let runner = EffectRunner(library: h.library, startAgent: {}, clock: Date.init)
        // Read by sh, not executed: a file just written can be open in another test's child
        // between its fork and exec (ETXTBSY).
        runner.environment = ["BROWSER": "/bin/sh \(script.path)", "PATH": "/usr/bin:/bin"]
        #expect(ShelfApp.Effect.openLink(link).queue == .runLoop)
        runner.run(.openLink(link))
        let browser = try #require(runner.lastBrowser, "the browser was not started")
        browser.waitUntilExit()
        #expect(browser.terminationStatus == 0)
        let lines = try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == ["1", link])
        #expect(!FileManager.default.fileExists(atPath: pwned))
    }
}
