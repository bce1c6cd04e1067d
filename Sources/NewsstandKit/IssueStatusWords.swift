/// An issue's state in the words a reader uses, for `issues`: "not downloaded",
/// "downloading 37 %", "ready", "reading 42 %", "read". `--json` keeps `Issue.Status`.
public enum IssueStatusWords {
    /// Read to here or further counts as read: the last page of an issue is rarely at 100 %.
    static let readFrom = 0.98

    public static func phrase(_ issue: Issue, downloadPercent: Int?) -> String {
        switch issue.status {
        case .none: return "not downloaded"
        case .downloading: return "downloading" + (downloadPercent.map { " \($0) %" } ?? "")
        case .available:
            guard let progress = issue.locator?.totalProgression, progress > 0 else { return "ready" }
            return progress >= readFrom ? "read" : "reading \(min(97, max(1, Int((progress * 100).rounded())))) %"
        }
    }
}
