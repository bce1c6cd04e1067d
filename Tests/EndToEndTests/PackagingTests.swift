import Foundation
import Testing

/// What every packaged program has (issue #30, items 21 and 23): a version, `./dev run`
/// installing only what running needs, and `scripts/install.sh` putting stripped binaries, a
/// man page and completions under a prefix and taking away exactly what it put.
@Suite struct PackagingTests {
    @Test func versionIsPrintedOnStandardOutput() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        let result = try sandbox.run("--version")
        #expect(result.status == 0, "\(result.output)")
        let version = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression) != nil, "\(result.output)")
    }

    @Test func devRunInstallsNoPackageOnlyTheTestsUse() throws {
        let dev = Sandbox.repository.appendingPathComponent("dev").path
        let run = try Tmux.runWithStatus([dev, "packages", "run"])
        let test = try Tmux.runWithStatus([dev, "packages", "test"])
        #expect(run.status == 0 && test.status == 0, "\(run.output)\(test.output)")
        let forRunning = Set(run.output.split(separator: "\n").map(String.init))
        let forTests = Set(test.output.split(separator: "\n").map(String.init))
        #expect(forRunning.contains("libpoppler-glib-dev") && forRunning.contains("libncurses-dev"), "\(forRunning)")
        for testOnly in ["calibre", "kitty", "xterm", "xvfb", "imagemagick", "epubcheck", "gnome-keyring", "dbus-daemon", "xdotool", "tmux"] {
            #expect(!forRunning.contains(testOnly), "./dev run installs \(testOnly)")
            #expect(forTests.contains(testOnly), "./dev test does not install \(testOnly)")
        }
        #expect(forRunning.isSubset(of: forTests), "the tests build and run the program too")
    }

    /// Every regular file and symlink under `folder`, relative to it.
    static func files(under folder: URL) -> Set<String> {
        var found: Set<String> = []
        let base = folder.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), isFolder.boolValue { continue }
            found.insert(String(file.standardizedFileURL.path.dropFirst(base.count + 1)))
        }
        return found
    }

    @Test func installScriptPutsStrippedBinariesManualAndCompletionsAndUninstallTakesThemAway() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        let prefix = sandbox.home.appendingPathComponent("prefix")
        // What was there before: kept by the uninstall, with the folders holding it.
        let others = ["bin/other-program", "share/man/man1/other.1"]
        for other in others {
            let file = prefix.appendingPathComponent(other)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("kept\n".utf8).write(to: file)
        }
        let script = Sandbox.repository.appendingPathComponent("scripts/install.sh").path
        let built = "NEWSSTAND_BUILT=\(Tmux.binary.deletingLastPathComponent().path)"
        let install = try Tmux.runWithStatus(["env", built, "sh", script, prefix.path])
        #expect(install.status == 0, "\(install.output)")

        let installed = Self.files(under: prefix)
        for expected in ["bin/newsstand", "bin/newsstand-pdf", "bin/newsstand-pdf-draw", "bin/newsstand-serve", "share/man/man1/newsstand.1",
                         "share/bash-completion/completions/newsstand", "share/zsh/site-functions/_newsstand",
                         "share/fish/vendor_completions.d/newsstand.fish", "share/newsstand/themes/dark.toml",
                         "share/newsstand/sample-feed/publications.txt", "share/newsstand/install-manifest"] {
            #expect(installed.contains(expected), "\(expected) not installed: \(installed.sorted())")
        }
        #expect(!installed.contains { $0.hasPrefix("share/newsstand/sample-feed/sources/") }, "developer files installed")

        // Stripped: no symbol table left, where the build has one.
        for binary in ["newsstand", "newsstand-pdf", "newsstand-pdf-draw", "newsstand-serve"] {
            let sections = try Tmux.run(["readelf", "-S", "--wide", prefix.appendingPathComponent("bin/\(binary)").path])
            #expect(!sections.contains(".symtab"), "\(binary) not stripped")
        }
        #expect(try Tmux.run(["readelf", "-S", "--wide", Tmux.binary.path]).contains(".symtab"), "the build has no symbols to strip")

        // The stripped program runs, and the man page and completions describe its commands.
        let version = try sandbox.run(["--version"], binary: prefix.appendingPathComponent("bin/newsstand"))
        #expect(version.status == 0, "\(version.output)")
        let manual = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/newsstand.1"), encoding: .utf8)
        #expect(manual.hasPrefix(".TH NEWSSTAND 1"), "\(manual.prefix(200))")
        #expect(manual.contains(version.output.trimmingCharacters(in: .whitespacesAndNewlines)), "no version in the man page")
        for command in ["subscribe", "issues", "inspect feed"] {
            #expect(manual.contains(".SS newsstand \(command)"), "\(command) missing from the man page")
        }
        for shell in ["share/bash-completion/completions/newsstand", "share/zsh/site-functions/_newsstand",
                      "share/fish/vendor_completions.d/newsstand.fish"] {
            let script = try String(contentsOf: prefix.appendingPathComponent(shell), encoding: .utf8)
            #expect(script.contains("subscribe") && script.contains("newsstand"), "\(shell): \(script.prefix(200))")
        }

        // The manifest names every file put there, and nothing else.
        let manifest = try String(contentsOf: prefix.appendingPathComponent("share/newsstand/install-manifest"), encoding: .utf8)
        let listed = Set(manifest.split(separator: "\n").filter { $0.hasPrefix("f ") }
            .map { String($0.dropFirst(2).dropFirst(prefix.standardizedFileURL.path.count + 1)) })
        #expect(listed == installed.subtracting(others), "\(listed.symmetricDifference(installed.subtracting(others)).sorted())")

        let uninstall = try Tmux.runWithStatus(["sh", script, "--uninstall", prefix.path])
        #expect(uninstall.status == 0, "\(uninstall.output)")
        #expect(Self.files(under: prefix) == Set(others), "\(Self.files(under: prefix).sorted())")
        let leftFolders = try Tmux.run(["find", prefix.path, "-type", "d"]).split(separator: "\n")
            .map { String($0.dropFirst(prefix.path.count)) }.sorted()
        #expect(leftFolders == ["", "/bin", "/share", "/share/man", "/share/man/man1"], "\(leftFolders)")

        let again = try Tmux.runWithStatus(["sh", script, "--uninstall", prefix.path])
        #expect(again.status == 1 && again.output.contains("nothing installed"), "\(again.output)")
    }
}
