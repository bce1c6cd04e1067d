import Foundation

/// Finds what ships with the program (`sample-feed/`, `themes/`). Looked for, in order:
/// `NEWSSTAND_RESOURCES=DIR`; beside the executable; `../share/newsstand` from it (where
/// `scripts/install.sh` puts them); the checkout a SwiftPM build lives in; then
/// /usr/local/share/newsstand and /usr/share/newsstand. Symlinks to the executable are
/// followed first, so a link in `~/.local/bin` finds what is beside the real program.
public enum BundledResources {
    /// Every folder looked in, in order.
    public static func searchPlaces(environment: [String: String] = ProcessInfo.processInfo.environment,
                                    executable: String = AgentLauncher.currentExecutable()) -> [URL] {
        var places: [URL] = []
        if let root = environment["NEWSSTAND_RESOURCES"], !root.isEmpty {
            places.append(URL(fileURLWithPath: root, isDirectory: true))
        }
        let programFolder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        places.append(programFolder)
        places.append(programFolder.deletingLastPathComponent().appendingPathComponent("share/newsstand", isDirectory: true))
        if let checkout = checkout(above: programFolder) { places.append(checkout) }
        places.append(URL(fileURLWithPath: "/usr/local/share/newsstand", isDirectory: true))
        places.append(URL(fileURLWithPath: "/usr/share/newsstand", isDirectory: true))
        var seen = Set<String>()
        return places.map(\.standardizedFileURL).filter { seen.insert($0.path).inserted }
    }

    /// The nearest folder above a build's executable holding Package.swift (`.build/…/debug`
    /// sits inside the checkout).
    static func checkout(above folder: URL) -> URL? {
        var directory = folder
        for _ in 0..<6 {
            directory = directory.deletingLastPathComponent()
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) { return directory }
            if directory.path == "/" { return nil }
        }
        return nil
    }

    public static func directory(named name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        for place in searchPlaces(environment: environment) {
            let folder = place.appendingPathComponent(name, isDirectory: true)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return folder.standardizedFileURL
            }
        }
        return nil
    }

    public static var sampleFeed: URL? { directory(named: "sample-feed") }
    public static var themes: URL? { directory(named: "themes") }

    /// One sentence saying which resources were not found and where they were looked for;
    /// nil when both were found.
    public static func missing(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let absent = ["themes", "sample-feed"].filter { directory(named: $0, environment: environment) == nil }
        guard !absent.isEmpty else { return nil }
        let places = searchPlaces(environment: environment).map(\.path).joined(separator: ", ")
        return "no \(absent.joined(separator: " or ")) folder found (looked in \(places)): "
            + "set NEWSSTAND_RESOURCES to the folder holding them, or install with scripts/install.sh"
    }
}
