import Foundation

/// Finds what ships beside the program (`sample-feed/`, `themes/`): next to the
/// executable or above it (a SwiftPM build lives in `.build/` inside the checkout), in the
/// current directory, or in /usr/share/newsstand. `NEWSSTAND_RESOURCES=DIR` overrides.
public enum BundledResources {
    public static func directory(named name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        var candidates: [URL] = []
        if let root = environment["NEWSSTAND_RESOURCES"], !root.isEmpty {
            candidates.append(URL(fileURLWithPath: root, isDirectory: true))
        }
        var directory = URL(fileURLWithPath: AgentLauncher.currentExecutable()).deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(directory)
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        candidates.append(URL(fileURLWithPath: "/usr/share/newsstand", isDirectory: true))
        candidates.append(URL(fileURLWithPath: "/usr/local/share/newsstand", isDirectory: true))
        for candidate in candidates {
            let folder = candidate.appendingPathComponent(name, isDirectory: true)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return folder.standardizedFileURL
            }
        }
        return nil
    }

    public static var sampleFeed: URL? { directory(named: "sample-feed") }
    public static var themes: URL? { directory(named: "themes") }
}
