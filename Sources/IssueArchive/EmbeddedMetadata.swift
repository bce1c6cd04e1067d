import Foundation

/// What a file says of itself, weighed: its date read however it was written, and the
/// placeholders that tools write where nobody wrote anything ("Microsoft Word -
/// Document1", "Untitled", calibre's "Unknown" author), which say less than a file name.
extension IssueMetadata {
    /// `date` as a day (UTC midnight): "2024", "2024-03", "2024-03-09" or an ISO 8601 time
    /// (its day); nil when it is missing or not a plausible date (calibre writes year 101
    /// for "no date").
    public var day: Date? {
        guard let text = date?.trimmingCharacters(in: .whitespacesAndNewlines), text.count >= 4 else { return nil }
        let parts = text.prefix(10).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count <= 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              parts[0].count == 4, let year = Int(parts[0]), (1000...9999).contains(year) else { return nil }
        let month = parts.count > 1 ? Int(parts[1]) ?? 0 : 1
        let day = parts.count > 2 ? Int(parts[2]) ?? 0 : 1
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    /// The metadata without placeholder titles and authors.
    public var withoutPlaceholders: IssueMetadata {
        var meaningful = self
        if let title, Self.isPlaceholder(title: title) { meaningful.title = nil }
        meaningful.creators = creators.filter { !Self.isPlaceholder(creator: $0) }
        return meaningful
    }

    /// A title an application made up: "Microsoft Word - Document1", "Untitled",
    /// "Document3", or a file name ("report.docx").
    public static func isPlaceholder(title: String) -> Bool {
        let text = title.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if text.isEmpty { return true }
        if ["microsoft word - ", "microsoft powerpoint - ", "microsoft excel - "].contains(where: text.hasPrefix) { return true }
        return text.range(of: #"^(untitled|unknown|document|doc|presentation|book|title|no title)( ?\d+)?$"#, options: .regularExpression) != nil
            || text.range(of: #"^\S+\.(docx?|odt|rtf|pdf|tex|dvi|indd|qxp|pages|ps|txt|html?)$"#, options: .regularExpression) != nil
    }

    /// An author an application made up: calibre's "Unknown", a computer's account name.
    public static func isPlaceholder(creator: String) -> Bool {
        ["", "unknown", "unknown author", "administrator", "admin", "user", "owner"]
            .contains(creator.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
    }
}
